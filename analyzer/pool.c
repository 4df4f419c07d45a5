/* Worker processes (see pool.h).  Each worker is a forked child that
 * analyzes the files the parent sends it, one at a time, and answers each
 * with one line of JSON; it is replaced after WORKER_FILES files.  The
 * parent polls the answers, enforces the per-file timeout and turns a crash
 * or a hang into a failed result for that file (and a new worker). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <jansson.h>
#include "gfpaudit/pool.h"
#include "gfpaudit/isolate.h"
#include "gfpaudit/pipeline.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

/* One worker process: it analyzes files one at a time as the parent sends
 * their paths, and answers each with one line of JSON. */
struct slot {
	pid_t pid;          /* 0: no worker right now */
	int req;            /* parent -> worker: "LEN\nPATH" */
	int res;            /* worker -> parent: one JSON line per file */
	unsigned files;     /* files this worker was sent */
	size_t index;       /* the file it is on (when busy) */
	struct strbuf out;
	struct timespec start;
	int busy;
};

/* The signal that stopped the run (SIGINT, SIGTERM, SIGHUP), 0 while none. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

int pool_interrupted(void)
{
	return stop_signal;
}

/* A worker is replaced after this many files: what libclang or the engine
 * keeps between files cannot grow without bound. */
#define WORKER_FILES 64

static double since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) + (now.tv_nsec - t->tv_nsec) / 1e9;
}

static int test_hooked(const char *path)
{
	const char *crash = getenv("GFPAUDIT_TEST_CRASH"), *hang = getenv("GFPAUDIT_TEST_HANG");
	const char *hog = getenv("GFPAUDIT_TEST_HOG"), *spin = getenv("GFPAUDIT_TEST_SPIN");
	return (crash && *crash && strstr(path, crash)) || (hang && *hang && strstr(path, hang)) ||
	       (hog && *hog && strstr(path, hog)) || (spin && *spin && strstr(path, spin));
}

/* The worker's loop: until the parent closes the request pipe. */
static void worker(struct engine *e, int req, int res, int cpu_sec)
{
	FILE *in = fdopen(req, "r");
	if (!in)
		_exit(4);
	size_t len;
	while (fscanf(in, "%zu", &len) == 1 && fgetc(in) == '\n') {
		char *path = xmalloc(len + 1);
		if (fread(path, 1, len, in) != len)
			_exit(4);
		path[len] = 0;
		isolate_analyze_one(e, path, NULL, 0, res, cpu_sec);
		free(path);
	}
	_exit(0);
}

struct progress {
	int on;
	int lines;  /* not a terminal: whole lines, at most every 5 s */
	struct timespec start, last;
	size_t shown;
};

static void fmt_secs(char *buf, size_t len, double sec)
{
	long s = (long)(sec + 0.5);
	if (s >= 3600)
		snprintf(buf, len, "%ldh%02ldm", s / 3600, s / 60 % 60);
	else if (s >= 60)
		snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, len, "%lds", s);
}

/* "[done/total] pct, N cached, rate, eta, findings" at most ten times a
 * second; the rate counts every finished file, so the ETA assumes the rest
 * of the list mixes cache hits and parses as the part already done did. */
static void progress(struct progress *p, const struct pool_stats *st, size_t done, size_t n,
		     size_t findings, int final)
{
	if (!p->on)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double since_last = (now.tv_sec - p->last.tv_sec) + (now.tv_nsec - p->last.tv_nsec) / 1e9;
	if (!final && p->shown && since_last < 0.1)
		return;
	if (p->lines && !final && (p->shown ? since_last : since(&p->start)) < 5)
		return;
	if (p->lines && final && !p->shown)
		return; /* a short run: the summary says it all */
	p->last = now;
	p->shown = 1;
	double el = since(&p->start), rate = el > 0 ? done / el : 0;
	char eta[32] = "?", took[32];
	if (rate > 0)
		fmt_secs(eta, sizeof(eta), (n - done) / rate);
	fmt_secs(took, sizeof(took), el);
	fprintf(stderr, "%s[%zu/%zu] %3.0f%%, %zu answered without parsing, %.1f files/s, %s %s, "
		"%zu finding%s", p->lines ? "gfpaudit: progress " : "\r\033[K", done, n,
		n ? 100.0 * done / n : 100.0, st->answered, rate,
		final ? "took" : "eta", final ? took : eta, findings, findings == 1 ? "" : "s");
	if (final || p->lines)
		fputc('\n', stderr);
}

static void account(struct pool_stats *st, const struct rusage *ru)
{
	if (ru->ru_maxrss > st->max_rss_kb)
		st->max_rss_kb = ru->ru_maxrss;
	st->worker_cpu += ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
			  ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

/* Start a worker in slot `i`; the child closes every other slot's pipes
 * (an inherited write end would keep another worker's requests open). */
static int spawn(struct engine *e, struct slot *slots, int jobs, int i, const struct pool_opts *o)
{
	pid_t parent = getpid();
	int rq[2], rs[2];
	if (pipe(rq) < 0)
		return err_set(GA_ETOOL, "pipe: %s", strerror(errno));
	if (pipe(rs) < 0) {
		close(rq[0]);
		close(rq[1]);
		return err_set(GA_ETOOL, "pipe: %s", strerror(errno));
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(rq[0]);
		close(rq[1]);
		close(rs[0]);
		close(rs[1]);
		return err_set(GA_ETOOL, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		isolate_child_setup(parent, o->mem_limit_mb);
		for (int k = 0; k < jobs; k++)
			if (k != i && slots[k].pid) {
				close(slots[k].req);
				close(slots[k].res);
			}
		close(rq[1]);
		close(rs[0]);
		worker(e, rq[0], rs[1], o->timeout_sec);
	}
	close(rq[0]);
	close(rs[1]);
	slots[i].pid = pid;
	slots[i].req = rq[1];
	slots[i].res = rs[0];
	slots[i].files = 0;
	slots[i].busy = 0;
	strbuf_reset(&slots[i].out);
	return 0;
}

/* End slot i's worker: politely (close its requests) or with SIGKILL. */
static int retire(struct slot *s, int force, struct pool_stats *st)
{
	struct rusage ru;
	int status = 0;
	if (force)
		kill(s->pid, SIGKILL);
	close(s->req);
	close(s->res);
	if (wait4(s->pid, &status, 0, &ru) > 0)
		account(st, &ru);
	s->pid = 0;
	s->busy = 0;
	return status;
}

int pool_run(struct engine *e, char *const *paths, size_t n, const struct pool_opts *o)
{
	int jobs = o->jobs < 1 ? 1 : o->jobs;
	struct slot *slots = xcalloc((size_t)jobs, sizeof(*slots));
	struct file_result **ready = xcalloc(n ? n : 1, sizeof(*ready));
	size_t next = 0, emitted = 0, done = 0, findings = 0;
	struct pool_stats st = { 0 };
	struct progress prog = { .on = !o->quiet && (isatty(2) || o->progress_lines),
				 .lines = !isatty(2) };
	struct timespec start;
	int rc = 0;
	/* a worker that died leaves its request pipe without a reader */
	void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
	/* SIGINT/SIGTERM/SIGHUP: stop, kill and reap the workers, and let the
	 * caller close the cache before it dies of the same signal */
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_stop }, old_sa[3];
	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	for (int k = 0; k < 3; k++)
		sigaction(stops[k], &sa, &old_sa[k]);
	clock_gettime(CLOCK_MONOTONIC, &start);
	prog.start = start;
	for (int i = 0; i < jobs; i++)
		strbuf_init(&slots[i].out);

	while (emitted < n) {
		if (stop_signal) {
			rc = err_set(GA_ETOOL, "interrupted by signal %d (%s): workers stopped",
				     (int)stop_signal, strsignal(stop_signal));
			goto out;
		}
		/* fill free slots */
		for (int i = 0; i < jobs && next < n; i++) {
			if (slots[i].busy)
				continue;
			/* a file a test hook targets must reach a worker */
			if (o->lookup && !test_hooked(paths[next])) {
				struct file_result *c = o->lookup(o->data, next, paths[next]);
				if (c) {
					ready[next++] = c;
					done++;
					st.answered++;
					findings += c->nfindings;
					progress(&prog, &st, done, n, findings, 0);
					i--;
					continue;
				}
			}
			if (slots[i].pid && slots[i].files >= WORKER_FILES)
				retire(&slots[i], 0, &st);
			if (!slots[i].pid && (rc = spawn(e, slots, jobs, i, o)))
				goto out;
			char head[32];
			int hl = snprintf(head, sizeof(head), "%zu\n", strlen(paths[next]));
			if (isolate_write_all(slots[i].req, head, (size_t)hl) ||
			    isolate_write_all(slots[i].req, paths[next], strlen(paths[next]))) {
				/* the worker is gone: a new one takes the file */
				retire(&slots[i], 1, &st);
				if ((rc = spawn(e, slots, jobs, i, o)))
					goto out;
				i--;
				continue;
			}
			slots[i].index = next++;
			slots[i].busy = 1;
			slots[i].files++;
			st.forked++;
			strbuf_reset(&slots[i].out);
			clock_gettime(CLOCK_MONOTONIC, &slots[i].start);
		}
		/* emit what is ready, in order */
		while (emitted < n && ready[emitted]) {
			if (prog.on && prog.shown && !prog.lines) {
				/* the callback may print: start it on a clean line */
				fputs("\r\033[K", stderr);
				prog.shown = 0;
			}
			o->done(o->data, emitted, ready[emitted]);
			ready[emitted++] = NULL;
		}
		if (emitted >= n)
			break;
		struct pollfd pf[jobs];
		int map[jobs], np = 0;
		for (int i = 0; i < jobs; i++)
			if (slots[i].busy) {
				pf[np].fd = slots[i].res;
				pf[np].events = POLLIN;
				map[np++] = i;
			}
		if (!np)
			continue;
		if (o->idle)
			o->idle(o->data);
		int pr = poll(pf, (nfds_t)np, 200);
		if (pr < 0 && errno != EINTR) {
			rc = err_set(GA_ETOOL, "poll: %s", strerror(errno));
			goto out;
		}
		for (int k = 0; k < np; k++) {
			struct slot *s = &slots[map[k]];
			int eof = 0;
			char *nl = NULL;
			if (pr > 0 && (pf[k].revents & (POLLIN | POLLHUP | POLLERR))) {
				char buf[65536];
				ssize_t r = read(s->res, buf, sizeof(buf));
				if (r > 0) {
					size_t old = s->out.len;
					strbuf_add(&s->out, buf, (size_t)r);
					nl = memchr(s->out.buf + old, '\n', (size_t)r);
				} else if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) {
					eof = 1;
				}
			}
			if (!nl && !eof && o->timeout_sec > 0 && since(&s->start) > o->timeout_sec) {
				size_t idx = s->index;
				retire(s, 1, &st);
				char *why = xasprintf("timed out after %d s (worker killed)", o->timeout_sec);
				ready[idx] = isolate_failed(e, paths[idx], why);
				free(why);
				done++;
				st.timed_out++;
				progress(&prog, &st, done, n, findings, 0);
				continue;
			}
			if (!nl && !eof)
				continue;
			size_t idx = s->index;
			struct file_result *res = NULL;
			done++;
			if (!nl) {
				/* the worker died on this file */
				int status = retire(s, 0, &st);
				char *why;
				if (WIFSIGNALED(status)) {
					st.crashed++;
					why = xasprintf("analyzer crashed on this file (signal %d: %s)", WTERMSIG(status),
							strsignal(WTERMSIG(status)));
				} else {
					why = xasprintf("worker exited (status %d) without a result", WEXITSTATUS(status));
				}
				res = isolate_failed(e, paths[idx], why);
				free(why);
			} else {
				s->busy = 0;
				json_error_t jerr;
				json_t *j = json_loadb(s->out.buf, (size_t)(nl - s->out.buf), 0, &jerr);
				if (!j || file_result_from_json(j, &res))
					res = isolate_failed(e, paths[idx], "worker returned no result");
				json_decref(j);
				if (o->store)
					o->store(o->data, idx, paths[idx], res);
				strbuf_reset(&s->out);
			}
			findings += res->nfindings;
			ready[idx] = res;
			progress(&prog, &st, done, n, findings, 0);
		}
		if (pr == 0)
			progress(&prog, &st, done, n, findings, 0); /* keep rate and ETA moving */
	}
	progress(&prog, &st, done, n, findings, 1);
out:
	for (int i = 0; i < jobs; i++) {
		if (slots[i].pid)
			retire(&slots[i], slots[i].busy || rc, &st);
		strbuf_release(&slots[i].out);
	}
	signal(SIGPIPE, old_pipe);
	for (int k = 0; k < 3; k++)
		sigaction(stops[k], &old_sa[k], NULL);
	for (size_t i = 0; i < n; i++)
		file_result_free(ready[i]);
	free(ready);
	free(slots);
	st.wall = since(&start);
	if (o->stats)
		*o->stats = st;
	return rc;
}

