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
	long base_kb;       /* the parent's resident set at the fork */
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

/* A worker's peak RSS counts the parent's pages the fork shares
 * (copy-on-write, not copied): its own memory is the peak less them. */
static void account(struct pool_stats *st, const struct rusage *ru, long base_kb)
{
	long own = ru->ru_maxrss > base_kb ? ru->ru_maxrss - base_kb : 0;
	if (own > st->max_rss_kb)
		st->max_rss_kb = own;
	if (ru->ru_maxrss > st->max_rss_shared_kb)
		st->max_rss_shared_kb = ru->ru_maxrss;
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
	long base_kb = isolate_rss_now_kb();
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
	slots[i].base_kb = base_kb;
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
		account(st, &ru, s->base_kb);
	s->pid = 0;
	s->busy = 0;
	return status;
}

/* One pool_run: the files, the workers' slots and the results in input order. */
struct run {
	struct engine *e;
	char *const *paths;
	size_t n;
	const struct pool_opts *o;
	int jobs;
	struct slot *slots;
	struct file_result **ready; /* results not yet handed to o->done */
	size_t next, emitted, done, findings;
	struct pool_stats st;
	struct progress prog;
};

/* The worker's peak on this file (isolate.h ISOLATE_RSS_MEMBER), taken
 * off the result: its resets make the peak at the worker's exit the last
 * file's only, so the largest of the files' is the workers' peak. */
static void file_peak(struct run *r, size_t idx, json_t *j)
{
	json_t *m = json_object_get(j, ISOLATE_RSS_MEMBER);
	if (!json_is_array(m))
		return;
	long own = (long)json_integer_value(json_array_get(m, 0));
	long all = (long)json_integer_value(json_array_get(m, 1));
	struct pool_stats *st = &r->st;
	if (own > st->max_rss_kb) {
		st->max_rss_kb = own;
		char *rep = engine_report_path(r->e, r->paths[idx]);
		snprintf(st->max_rss_file, sizeof(st->max_rss_file), "%s", rep);
		free(rep);
	}
	if (all > st->max_rss_shared_kb)
		st->max_rss_shared_kb = all;
	json_object_del(j, ISOLATE_RSS_MEMBER);
}

/* Give the next files to the free slots (or take a cached answer from
 * o->lookup).  0, or an error when no worker could be started. */
static int fill_slots(struct run *r)
{
	const struct pool_opts *o = r->o;
	int rc;
	for (int i = 0; i < r->jobs && r->next < r->n; i++) {
		struct slot *s = &r->slots[i];
		const char *path = r->paths[r->next];
		if (s->busy)
			continue;
		/* a file a test hook targets must reach a worker */
		if (o->lookup && !test_hooked(path)) {
			struct file_result *c = o->lookup(o->data, r->next, path);
			if (c) {
				r->ready[r->next++] = c;
				r->done++;
				r->st.answered++;
				r->findings += c->nfindings;
				progress(&r->prog, &r->st, r->done, r->n, r->findings, 0);
				i--;
				continue;
			}
		}
		if (s->pid && s->files >= WORKER_FILES)
			retire(s, 0, &r->st);
		if (!s->pid && (rc = spawn(r->e, r->slots, r->jobs, i, o)))
			return rc;
		char head[32];
		int hl = snprintf(head, sizeof(head), "%zu\n", strlen(path));
		if (isolate_write_all(s->req, head, (size_t)hl) ||
		    isolate_write_all(s->req, path, strlen(path))) {
			/* the worker is gone: a new one takes the file */
			retire(s, 1, &r->st);
			if ((rc = spawn(r->e, r->slots, r->jobs, i, o)))
				return rc;
			i--;
			continue;
		}
		s->index = r->next++;
		s->busy = 1;
		s->files++;
		r->st.forked++;
		strbuf_reset(&s->out);
		clock_gettime(CLOCK_MONOTONIC, &s->start);
	}
	return 0;
}

/* Hand the results that are ready to o->done, in input order. */
static void emit_ready(struct run *r)
{
	while (r->emitted < r->n && r->ready[r->emitted]) {
		if (r->prog.on && r->prog.shown && !r->prog.lines) {
			/* the callback may print: start it on a clean line */
			fputs("\r\033[K", stderr);
			r->prog.shown = 0;
		}
		r->o->done(r->o->data, r->emitted, r->ready[r->emitted]);
		r->ready[r->emitted++] = NULL;
	}
}

/* The result of busy slot s, when its worker answered (line), died (eof)
 * or ran out of time; NULL while it is still working. */
static struct file_result *slot_result(struct run *r, struct slot *s, int readable)
{
	const struct pool_opts *o = r->o;
	int eof = 0;
	char *nl = NULL;
	if (readable) {
		char buf[65536];
		ssize_t n = read(s->res, buf, sizeof(buf));
		if (n > 0) {
			size_t old = s->out.len;
			strbuf_add(&s->out, buf, (size_t)n);
			nl = memchr(s->out.buf + old, '\n', (size_t)n);
		} else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
			eof = 1;
		}
	}
	size_t idx = s->index;
	struct file_result *res = NULL;
	if (!nl && !eof) {
		if (o->timeout_sec <= 0 || since(&s->start) <= o->timeout_sec)
			return NULL;
		retire(s, 1, &r->st);
		char *why = xasprintf("timed out after %d s (worker killed)", o->timeout_sec);
		res = isolate_failed(r->e, r->paths[idx], why);
		free(why);
		r->st.timed_out++;
		return res;
	}
	if (!nl) {
		/* the worker died on this file */
		int status = retire(s, 0, &r->st);
		char *why;
		if (WIFSIGNALED(status)) {
			r->st.crashed++;
			why = xasprintf("analyzer crashed on this file (signal %d: %s)", WTERMSIG(status),
					strsignal(WTERMSIG(status)));
		} else {
			why = xasprintf("worker exited (status %d) without a result", WEXITSTATUS(status));
		}
		res = isolate_failed(r->e, r->paths[idx], why);
		free(why);
		return res;
	}
	s->busy = 0;
	json_error_t jerr;
	json_t *j = json_loadb(s->out.buf, (size_t)(nl - s->out.buf), 0, &jerr);
	file_peak(r, idx, j);
	if (!j || file_result_from_json(j, &res))
		res = isolate_failed(r->e, r->paths[idx], "worker returned no result");
	json_decref(j);
	if (o->store)
		o->store(o->data, idx, r->paths[idx], res);
	strbuf_reset(&s->out);
	return res;
}

/* Wait (200 ms at most) for the busy workers and take their results.
 * 0, or an error when poll fails. */
static int collect(struct run *r)
{
	struct pollfd pf[r->jobs];
	int map[r->jobs], np = 0;
	for (int i = 0; i < r->jobs; i++)
		if (r->slots[i].busy) {
			pf[np].fd = r->slots[i].res;
			pf[np].events = POLLIN;
			map[np++] = i;
		}
	if (!np)
		return 0;
	if (r->o->idle)
		r->o->idle(r->o->data);
	int pr = poll(pf, (nfds_t)np, 200);
	if (pr < 0 && errno != EINTR)
		return err_set(GA_ETOOL, "poll: %s", strerror(errno));
	for (int k = 0; k < np; k++) {
		struct slot *s = &r->slots[map[k]];
		size_t idx = s->index;
		struct file_result *res =
			slot_result(r, s, pr > 0 && (pf[k].revents & (POLLIN | POLLHUP | POLLERR)));
		if (!res)
			continue;
		r->done++;
		r->findings += res->nfindings;
		r->ready[idx] = res;
		progress(&r->prog, &r->st, r->done, r->n, r->findings, 0);
	}
	if (pr == 0)
		progress(&r->prog, &r->st, r->done, r->n, r->findings, 0); /* keep rate and ETA moving */
	return 0;
}

/* GFPAUDIT_TEST_BALLAST_MB=N: the parent maps and touches N MiB before it
 * forks workers, as a whole tree's first-pass results do before the facts
 * passes (a test of the workers' address-space limit). */
static void test_ballast(void)
{
	static char *ballast;
	const char *mb = getenv("GFPAUDIT_TEST_BALLAST_MB");
	if (ballast || !mb || atol(mb) <= 0)
		return;
	size_t len = (size_t)atol(mb) << 20;
	ballast = xmalloc(len);
	memset(ballast, 1, len);
}

int pool_run(struct engine *e, char *const *paths, size_t n, const struct pool_opts *o)
{
	test_ballast();
	struct run r = { .e = e, .paths = paths, .n = n, .o = o, .jobs = o->jobs < 1 ? 1 : o->jobs,
			 .prog = { .on = !o->quiet && (isatty(2) || o->progress_lines), .lines = !isatty(2) } };
	r.slots = xcalloc((size_t)r.jobs, sizeof(*r.slots));
	r.ready = xcalloc(n ? n : 1, sizeof(*r.ready));
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
	r.prog.start = start;
	for (int i = 0; i < r.jobs; i++)
		strbuf_init(&r.slots[i].out);

	while (r.emitted < n) {
		if (stop_signal) {
			rc = err_set(GA_ETOOL, "interrupted by signal %d (%s): workers stopped",
				     (int)stop_signal, strsignal(stop_signal));
			goto out;
		}
		if ((rc = fill_slots(&r)))
			goto out;
		emit_ready(&r);
		if (r.emitted >= n)
			break;
		if ((rc = collect(&r)))
			goto out;
	}
	progress(&r.prog, &r.st, r.done, n, r.findings, 1);
out:
	for (int i = 0; i < r.jobs; i++) {
		if (r.slots[i].pid)
			retire(&r.slots[i], r.slots[i].busy || rc, &r.st);
		strbuf_release(&r.slots[i].out);
	}
	signal(SIGPIPE, old_pipe);
	for (int k = 0; k < 3; k++)
		sigaction(stops[k], &old_sa[k], NULL);
	for (size_t i = 0; i < n; i++)
		file_result_free(r.ready[i]);
	free(r.ready);
	free(r.slots);
	r.st.wall = since(&start);
	if (o->stats)
		*o->stats = r.st;
	return rc;
}
