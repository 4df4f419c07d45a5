/* Worker processes (see pool.h).  Each child analyzes one file, writes its
 * result as JSON to a pipe and exits; the parent polls the pipes, enforces
 * the per-file timeout and turns a crash or a hang into a failed result. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <jansson.h>
#include "gfpaudit/pool.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct slot {
	pid_t pid;
	int fd;
	size_t index;
	struct strbuf out;
	struct timespec start;
	int busy;
};

static double since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) + (now.tv_nsec - t->tv_nsec) / 1e9;
}

static int test_hooked(const char *path)
{
	const char *crash = getenv("GFPAUDIT_TEST_CRASH"), *hang = getenv("GFPAUDIT_TEST_HANG");
	return (crash && *crash && strstr(path, crash)) || (hang && *hang && strstr(path, hang));
}

static void child(struct engine *e, const char *path, int fd)
{
	struct file_result *r = NULL;
	const char *crash = getenv("GFPAUDIT_TEST_CRASH");
	const char *hang = getenv("GFPAUDIT_TEST_HANG");
	/* test hooks: make the worker for a matching file die or hang */
	if (crash && *crash && strstr(path, crash))
		abort();
	if (hang && *hang && strstr(path, hang))
		for (;;)
			pause();
	int rc = engine_analyze_file(e, path, NULL, 0, &r);
	if (rc) {
		char *rep = engine_report_path(e, path);
		r = xcalloc(1, sizeof(*r));
		file_result_init(r, rep);
		r->status = FILE_FAILED;
		r->reason = xstrdup(err_last());
		free(rep);
	}
	json_t *j = file_result_to_json(r);
	char *s = json_dumps(j, JSON_COMPACT);
	size_t len = strlen(s), off = 0;
	while (off < len) {
		ssize_t w = write(fd, s + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(4);
		off += (size_t)w;
	}
	_exit(0);
}

static struct file_result *failed(struct engine *e, const char *path, const char *why)
{
	struct file_result *r = xcalloc(1, sizeof(*r));
	char *rep = engine_report_path(e, path);
	file_result_init(r, rep);
	free(rep);
	r->status = FILE_FAILED;
	r->reason = xstrdup(why);
	return r;
}

struct progress {
	int on;
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
	p->last = now;
	p->shown = 1;
	double el = since(&p->start), rate = el > 0 ? done / el : 0;
	char eta[32] = "?", took[32];
	if (rate > 0)
		fmt_secs(eta, sizeof(eta), (n - done) / rate);
	fmt_secs(took, sizeof(took), el);
	fprintf(stderr, "\r\033[K[%zu/%zu] %3.0f%%, %zu answered without parsing, %.1f files/s, %s %s, "
		"%zu finding%s", done, n, n ? 100.0 * done / n : 100.0, st->answered, rate,
		final ? "took" : "eta", final ? took : eta, findings, findings == 1 ? "" : "s");
	if (final)
		fputc('\n', stderr);
}

static void account(struct pool_stats *st, const struct rusage *ru)
{
	if (ru->ru_maxrss > st->max_rss_kb)
		st->max_rss_kb = ru->ru_maxrss;
	st->worker_cpu += ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
			  ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

int pool_run(struct engine *e, char *const *paths, size_t n, const struct pool_opts *o)
{
	int jobs = o->jobs < 1 ? 1 : o->jobs;
	struct slot *slots = xcalloc((size_t)jobs, sizeof(*slots));
	struct file_result **ready = xcalloc(n ? n : 1, sizeof(*ready));
	size_t next = 0, emitted = 0, done = 0, findings = 0;
	struct pool_stats st = { 0 };
	struct progress prog = { .on = !o->quiet && isatty(2) };
	struct timespec start;
	struct rusage ru;
	int rc = 0;
	clock_gettime(CLOCK_MONOTONIC, &start);
	prog.start = start;
	for (int i = 0; i < jobs; i++)
		strbuf_init(&slots[i].out);

	while (emitted < n) {
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
			int p[2];
			if (pipe(p) < 0) {
				rc = err_set(GA_ETOOL, "pipe: %s", strerror(errno));
				goto out;
			}
			fflush(NULL);
			pid_t pid = fork();
			if (pid < 0) {
				close(p[0]);
				close(p[1]);
				rc = err_set(GA_ETOOL, "fork: %s", strerror(errno));
				goto out;
			}
			if (pid == 0) {
				close(p[0]);
				child(e, paths[next], p[1]);
			}
			close(p[1]);
			slots[i].pid = pid;
			slots[i].fd = p[0];
			slots[i].index = next++;
			slots[i].busy = 1;
			st.forked++;
			strbuf_reset(&slots[i].out);
			clock_gettime(CLOCK_MONOTONIC, &slots[i].start);
		}
		/* emit what is ready, in order */
		while (emitted < n && ready[emitted]) {
			if (prog.on && prog.shown) {
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
				pf[np].fd = slots[i].fd;
				pf[np].events = POLLIN;
				map[np++] = i;
			}
		if (!np)
			continue;
		int pr = poll(pf, (nfds_t)np, 200);
		if (pr < 0 && errno != EINTR) {
			rc = err_set(GA_ETOOL, "poll: %s", strerror(errno));
			goto out;
		}
		for (int k = 0; k < np; k++) {
			struct slot *s = &slots[map[k]];
			int finished = 0;
			if (pr > 0 && (pf[k].revents & (POLLIN | POLLHUP | POLLERR))) {
				char buf[65536];
				ssize_t r = read(s->fd, buf, sizeof(buf));
				if (r > 0)
					strbuf_add(&s->out, buf, (size_t)r);
				else if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
					finished = 1;
			}
			if (!finished && o->timeout_sec > 0 && since(&s->start) > o->timeout_sec) {
				kill(s->pid, SIGKILL);
				if (wait4(s->pid, NULL, 0, &ru) > 0)
					account(&st, &ru);
				close(s->fd);
				char *why = xasprintf("timed out after %d s (worker killed)", o->timeout_sec);
				ready[s->index] = failed(e, paths[s->index], why);
				free(why);
				s->busy = 0;
				done++;
				st.timed_out++;
				progress(&prog, &st, done, n, findings, 0);
				continue;
			}
			if (!finished)
				continue;
			close(s->fd);
			int status = 0;
			if (wait4(s->pid, &status, 0, &ru) > 0)
				account(&st, &ru);
			s->busy = 0;
			done++;
			struct file_result *res = NULL;
			if (WIFSIGNALED(status)) {
				st.crashed++;
				char *why = xasprintf("analyzer crashed on this file (signal %d: %s)",
						      WTERMSIG(status), strsignal(WTERMSIG(status)));
				res = failed(e, paths[s->index], why);
				free(why);
			} else {
				json_error_t jerr;
				json_t *j = json_loadb(s->out.buf, s->out.len, 0, &jerr);
				if (!j || file_result_from_json(j, &res))
					res = failed(e, paths[s->index], "worker returned no result");
				json_decref(j);
				if (o->store && res->status != FILE_FAILED)
					o->store(o->data, s->index, paths[s->index], res);
			}
			findings += res->nfindings;
			ready[s->index] = res;
			progress(&prog, &st, done, n, findings, 0);
		}
		if (pr == 0)
			progress(&prog, &st, done, n, findings, 0); /* keep rate and ETA moving */
	}
	progress(&prog, &st, done, n, findings, 1);
out:
	for (int i = 0; i < jobs; i++) {
		if (slots[i].busy) {
			kill(slots[i].pid, SIGKILL);
			waitpid(slots[i].pid, NULL, 0);
			close(slots[i].fd);
		}
		strbuf_release(&slots[i].out);
	}
	for (size_t i = 0; i < n; i++)
		file_result_free(ready[i]);
	free(ready);
	free(slots);
	st.wall = since(&start);
	if (o->stats)
		*o->stats = st;
	return rc;
}
