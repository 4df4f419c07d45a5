/* One file analyzed in a child process of its own (isolate.h), and the
 * pieces the pool's workers share with it: the limits a child runs under,
 * the analysis of one file answered as one line of JSON, a failed result.
 * Test hooks (GFPAUDIT_TEST_CRASH/HANG/HOG/SPIN, pool.h) act here, and
 * GFPAUDIT_TEST_CRASH_JUDGED=SUBSTR: GFPAUDIT_TEST_CRASH in the facts passes only. */
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gfpaudit/facts.h"
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <jansson.h>
#include "gfpaudit/isolate.h"
#include "gfpaudit/pipeline.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

/* ASan reserves terabytes of address space: RLIMIT_AS would kill it */
#if defined(__SANITIZE_ADDRESS__)
#define ISOLATE_NO_AS_LIMIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ISOLATE_NO_AS_LIMIT 1
#endif
#endif

/* This process's resident set now, in KiB (0 if unknown). */
long isolate_rss_now_kb(void)
{
	unsigned long long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &size, &res) != 2)
		res = 0;
	fclose(f);
	return (long)(res * (unsigned long long)sysconf(_SC_PAGESIZE) / 1024);
}

static long rss_base_kb;

static long file_start_kb;

long isolate_file_start_kb(void)
{
	return file_start_kb;
}

void isolate_peak_reset(void)
{
	file_start_kb = isolate_rss_now_kb();
	/* "5": the peak resident set (VmHWM) becomes the resident set now
	 * (proc(5) clear_refs); where /proc refuses, the peak runs on */
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (!f)
		return;
	fputs("5", f);
	fclose(f);
}

long isolate_peak_kb(void)
{
	long kb = 0;
	char line[128];
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

long isolate_rss_base_kb(void)
{
	return rss_base_kb;
}

#ifndef ISOLATE_NO_AS_LIMIT
/* The address space this process maps now, in bytes (0 if unknown). */
static unsigned long long mapped_bytes(void)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &pages) != 1)
		pages = 0;
	fclose(f);
	return pages * (unsigned long long)sysconf(_SC_PAGESIZE);
}
#endif

/* In the worker: the address-space limit, once, on top of what the fork
 * inherited: a worker forked for the facts passes shares the parent's
 * heap (every file's first-pass result, gigabytes on a whole tree), and
 * a limit counted from zero left it no room to parse anything. */
static void limit_memory(long mb)
{
#ifndef ISOLATE_NO_AS_LIMIT
	if (mb > 0) {
		rlim_t lim = ((rlim_t)mb << 20) + (rlim_t)mapped_bytes();
		struct rlimit rl = { lim, lim };
		setrlimit(RLIMIT_AS, &rl);
	}
#else
	(void)mb;
#endif
}

/* In the worker, before each file: at most `sec` more seconds of CPU
 * (SIGXCPU), on top of what the worker used so far.  Only the soft limit
 * moves, so it can be raised again for the next file. */
static void limit_cpu(int sec)
{
	if (sec <= 0)
		return;
	struct rusage ru;
	struct rlimit rl;
	if (getrusage(RUSAGE_SELF, &ru) < 0 || getrlimit(RLIMIT_CPU, &rl) < 0)
		return;
	rlim_t want = (rlim_t)ru.ru_utime.tv_sec + (rlim_t)ru.ru_stime.tv_sec + (rlim_t)sec + 2;
	if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max)
		want = rl.rlim_max;
	rl.rlim_cur = want;
	setrlimit(RLIMIT_CPU, &rl);
}

static double since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) + (now.tv_nsec - t->tv_nsec) / 1e9;
}

int isolate_write_all(int fd, const char *s, size_t len)
{
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, s + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

/* Between files a worker keeps up to KEEP_MB of freed heap for the next
 * file: pages handed back would be faulted in and zeroed again by the next
 * parse, which on a whole tree was a third of the workers' CPU (bench/
 * session20.md).  Blocks up to 32 MB come from the heap, not from a
 * mapping of their own, and the heap is trimmed only above KEEP_MB free.
 * GFPAUDIT_MALLOC=trim hands everything back before each file instead
 * (the worker's resident set then follows each file's own). */
#define KEEP_MB 160
static int malloc_keep = -1;

static void give_back(void)
{
	if (malloc_keep < 0) {
		const char *m = getenv("GFPAUDIT_MALLOC");
		malloc_keep = !(m && !strcmp(m, "trim"));
		if (malloc_keep) {
			mallopt(M_MMAP_THRESHOLD, 32 << 20);
			mallopt(M_TRIM_THRESHOLD, KEEP_MB << 20);
		}
	}
	if (!malloc_keep) {
		malloc_trim(0);
		return;
	}
	struct mallinfo2 mi = mallinfo2();
	if (mi.fordblks > (size_t)KEEP_MB << 20)
		malloc_trim((size_t)KEEP_MB << 20);
}

void isolate_analyze_one(struct engine *e, const char *path, const struct unsaved_file *uf, size_t nuf,
			int fd, int cpu_sec)
{
	limit_cpu(cpu_sec);
	struct file_result *r = NULL;
	const char *crash = getenv("GFPAUDIT_TEST_CRASH");
	const char *hang = getenv("GFPAUDIT_TEST_HANG");
	/* test hooks: make the worker for a matching file die or hang */
	if (crash && *crash && strstr(path, crash))
		abort();
	/* the same in the facts passes only (a joined fact base is set): the
	 * first pass, and the cache, answer the file as usual */
	const char *crash_judged = getenv("GFPAUDIT_TEST_CRASH_JUDGED");
	if (crash_judged && *crash_judged && strstr(path, crash_judged) && factbase_size(engine_facts(e)))
		abort();
	if (hang && *hang && strstr(path, hang))
		for (;;)
			pause();
	const char *spin = getenv("GFPAUDIT_TEST_SPIN");
	if (spin && *spin && strstr(path, spin))
		for (volatile unsigned long i = 0;; i++)
			; /* burns CPU until RLIMIT_CPU (or the parent) ends it */
	const char *hog = getenv("GFPAUDIT_TEST_HOG");
	if (hog && *hog && strstr(path, hog)) {
		/* up to 1 GiB, touched: the worker's memory limit must stop it
		 * first (malloc fails: xmalloc aborts) */
		for (int i = 0; i < 16; i++) {
			char *p = malloc(64u << 20);
			if (!p)
				abort();
			memset(p, 1, 64u << 20);
		}
	}
	/* what the last file freed goes back to the system above KEEP_MB:
	 * else a worker keeps the heap of its largest file for the next ones */
	give_back();
	isolate_peak_reset();
	int rc = pipeline_analyze_file(e, path, uf, nuf, &r);
	long peak = isolate_peak_kb();
	if (rc) {
		char *rep = engine_report_path(e, path);
		file_result_free(r);
		r = xcalloc(1, sizeof(*r));
		file_result_init(r, rep);
		r->status = FILE_FAILED;
		r->reason = xstrdup(err_last());
		free(rep);
	}
	json_t *j = file_result_to_json(r);
	/* beside the result on the wire (pool.c takes it off): this file's
	 * peak, the worker's own and with the parent's shared pages */
	json_object_set_new(j, ISOLATE_RSS_MEMBER, json_pack("[I,I]", (json_int_t)(peak > rss_base_kb ? peak - rss_base_kb : 0),
							     (json_int_t)peak));
	char *s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	file_result_free(r);
	/* compact JSON has no raw newline: it ends the answer */
	if (!s || isolate_write_all(fd, s, strlen(s)) || isolate_write_all(fd, "\n", 1))
		_exit(4);
	free(s);
}

struct file_result *isolate_failed(struct engine *e, const char *path, const char *why)
{
	struct file_result *r = xcalloc(1, sizeof(*r));
	char *rep = engine_report_path(e, path);
	file_result_init(r, rep);
	free(rep);
	r->status = FILE_FAILED;
	r->reason = xstrdup(why);
	return r;
}

/* In a new child: die with the parent whatever kills it (even SIGKILL),
 * default stop signals, the address-space limit. */
void isolate_child_setup(pid_t parent, long mem_limit_mb)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(4); /* it died before the line above */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	limit_memory(mem_limit_mb);
	rss_base_kb = isolate_rss_now_kb();
}

int isolate_start(struct engine *e, const char *path, const struct unsaved_file *uf, size_t nuf,
		     const struct isolate_limits *lim, struct isolate_child *c)
{
	int p[2];
	memset(c, 0, sizeof(*c));
	c->pid = -1;
	c->fd = -1;
	c->timeout_sec = lim ? lim->timeout_sec : 0;
	if (pipe(p) < 0)
		return err_set(GA_ETOOL, "pipe: %s", strerror(errno));
	pid_t parent = getpid();
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return err_set(GA_ETOOL, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(p[0]);
		isolate_child_setup(parent, lim ? lim->mem_limit_mb : 0);
		isolate_analyze_one(e, path, uf, nuf, p[1], c->timeout_sec);
		_exit(0);
	}
	close(p[1]);
	c->pid = pid;
	c->fd = p[0];
	c->path = xstrdup(path);
	clock_gettime(CLOCK_MONOTONIC, &c->start);
	return 0;
}

void isolate_cancel(struct isolate_child *c)
{
	if (c->pid > 0) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
	}
	if (c->fd >= 0)
		close(c->fd);
	free(c->path);
	c->path = NULL;
	c->pid = -1;
	c->fd = -1;
}

int isolate_finish(struct engine *e, struct isolate_child *c, struct file_result **out)
{
	struct strbuf sb = STRBUF_INIT;
	char *why = NULL;
	int status = 0;
	*out = NULL;
	if (c->pid <= 0)
		return err_set(GA_EINVAL, "no analysis running");
	for (;;) {
		int wait_ms = 200;
		if (c->timeout_sec > 0) {
			double left = c->timeout_sec - since(&c->start);
			if (left <= 0) {
				why = xasprintf("timed out after %d s (analysis killed)", c->timeout_sec);
				kill(c->pid, SIGKILL);
				break;
			}
			if (left * 1000 < wait_ms)
				wait_ms = (int)(left * 1000) + 1;
		}
		struct pollfd pf = { .fd = c->fd, .events = POLLIN };
		int pr = poll(&pf, 1, wait_ms);
		if (pr < 0 && errno != EINTR) {
			why = xasprintf("poll: %s", strerror(errno));
			kill(c->pid, SIGKILL);
			break;
		}
		if (pr <= 0)
			continue;
		char buf[65536];
		ssize_t n = read(c->fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		strbuf_add(&sb, buf, (size_t)n);
	}
	close(c->fd);
	c->fd = -1;
	waitpid(c->pid, &status, 0);
	c->pid = -1;
	char *nl = sb.len ? memchr(sb.buf, '\n', sb.len) : NULL;
	if (!why && nl) {
		json_t *j = json_loadb(sb.buf, (size_t)(nl - sb.buf), 0, NULL);
		if (!j || file_result_from_json(j, out))
			*out = NULL;
		json_decref(j);
		if (!*out)
			why = xstrdup("the analysis returned no result");
	} else if (!why) {
		if (WIFSIGNALED(status))
			why = xasprintf("analyzer crashed on this file (signal %d: %s)", WTERMSIG(status),
					strsignal(WTERMSIG(status)));
		else
			why = xasprintf("the analysis exited (status %d) without a result", WEXITSTATUS(status));
	}
	if (why) {
		file_result_free(*out);
		*out = isolate_failed(e, c->path, why);
		free(why);
	}
	strbuf_release(&sb);
	free(c->path);
	c->path = NULL;
	return 0;
}

int isolate_analyze(struct engine *e, const char *path, const struct unsaved_file *uf, size_t nuf,
			  const struct isolate_limits *lim, struct file_result **out)
{
	struct isolate_child c;
	int rc = isolate_start(e, path, uf, nuf, lim, &c);
	if (rc)
		return rc;
	return isolate_finish(e, &c, out);
}
