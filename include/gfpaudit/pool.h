/* Worker processes: analyze files in forked children, -j at a time, each
 * child taking files one by one (and replaced after a few dozen), so a
 * libclang crash or hang costs one file.  Results come back as JSON over a
 * pipe (result.h) and are handed to the callback in input order.
 * Test hooks (environment): GFPAUDIT_TEST_CRASH=SUBSTR makes the worker of a
 * file whose path contains SUBSTR abort; GFPAUDIT_TEST_HANG=SUBSTR makes it
 * hang (ended by the per-file timeout); GFPAUDIT_TEST_HOG=SUBSTR makes it
 * allocate up to 1 GiB (stopped by the worker's memory limit);
 * GFPAUDIT_TEST_SPIN=SUBSTR makes it burn CPU (stopped by RLIMIT_CPU even
 * when the parent cannot act). */
#ifndef GFPAUDIT_POOL_H
#define GFPAUDIT_POOL_H
#include <stddef.h>
#include <time.h>
#include <sys/types.h>
#include "gfpaudit/engine.h"

struct pool_opts {
	int jobs;            /* worker processes at once (>= 1) */
	int timeout_sec;     /* per file, wall clock (and CPU: RLIMIT_CPU); 0 = none */
	long mem_limit_mb;   /* RLIMIT_AS of each worker in MiB; 0 = none */
	int quiet;           /* no progress line */
	/* Called in the parent for each finished file, in input order. Takes
	 * ownership of r. */
	void (*done)(void *data, size_t index, struct file_result *r);
	void *data;
	/* Optional: before forking, may answer a file from elsewhere (cache).
	 * Return a result to use it, NULL to analyze. */
	struct file_result *(*lookup)(void *data, size_t index, const char *path);
	/* Optional: called in the parent with each result a worker returned
	 * (never for a crash or a timeout: they may not happen again), for the
	 * cache, which decides what to keep. */
	void (*store)(void *data, size_t index, const char *path, const struct file_result *r);
	/* Optional: called in the parent before it waits for the workers (the
	 * cache commits, so other processes are not kept waiting). */
	void (*idle)(void *data);
	/* Optional out: what the run cost. */
	struct pool_stats *stats;
};

struct pool_stats {
	size_t answered;    /* files lookup answered (no worker) */
	size_t forked;      /* files sent to a worker */
	size_t crashed, timed_out;
	long max_rss_kb;    /* peak resident set of any one worker */
	double worker_cpu;  /* user + system seconds of all workers */
	double wall;        /* seconds in pool_run */
};

/* Analyze paths[0..n) with the engine. Returns 0 or a negative code when
 * the pool itself failed (cannot fork/pipe) or was interrupted.  Workers
 * die with the parent (PR_SET_PDEATHSIG).  While it runs, SIGINT, SIGTERM
 * and SIGHUP stop it: the workers are killed and reaped and it returns
 * GA_ETOOL; pool_interrupted() then gives the signal, which the caller
 * re-raises once it has closed what it keeps (the cache). */
int pool_run(struct engine *e, char *const *paths, size_t n, const struct pool_opts *o);
int pool_interrupted(void);

/* One file analyzed in a forked child of its own, under the limits the
 * pool's workers have (dies with the parent, RLIMIT_AS, RLIMIT_CPU and a
 * wall-clock timeout): what `check` and `review` do with staged or mailed
 * content, so a file that crashes, hangs or exhausts the analyzer costs
 * that file (a FILE_FAILED result with the reason), never the run.  The
 * child inherits `uf` (unsaved contents) and the engine.  The test hooks
 * above apply.  A negative code only when it cannot fork. */
struct pool_limits {
	int timeout_sec;     /* 0: none */
	long mem_limit_mb;   /* 0: none */
};
struct pool_child {
	pid_t pid;
	int fd;
	int timeout_sec;
	struct timespec start;
	char *path;
};
int pool_analyze_isolated(struct engine *e, const char *path, const struct unsaved_file *uf, size_t nuf,
			  const struct pool_limits *lim, struct file_result **out);
/* The same in two steps, to run one child while the caller does something
 * else (the old side of a change beside its new side): start, then finish
 * (waits; always fills *out on 0) or cancel (kills it). */
int pool_child_start(struct engine *e, const char *path, const struct unsaved_file *uf, size_t nuf,
		     const struct pool_limits *lim, struct pool_child *c);
int pool_child_finish(struct engine *e, struct pool_child *c, struct file_result **out);
void pool_child_cancel(struct pool_child *c);
/* Defaults for check and review (audit: --timeout, 300 s). */
#define POOL_CHILD_TIMEOUT_SEC 300

/* Default RLIMIT_AS of a worker: the largest 6.12 file needs about 450 MiB
 * resident, libclang maps more than it touches. */
#define POOL_MEM_LIMIT_MB 4096

#endif
