/* Worker processes: analyze files in forked children, -j at a time, each
 * child taking files one by one (and replaced after a few dozen), so a
 * libclang crash or hang costs one file.  Results come back as JSON over a
 * pipe (result.h) and are handed to the callback in input order.
 * Test hooks (environment): GFPAUDIT_TEST_CRASH=SUBSTR makes the worker of a
 * file whose path contains SUBSTR abort; GFPAUDIT_TEST_HANG=SUBSTR makes it
 * hang (ended by the per-file timeout); GFPAUDIT_TEST_HOG=SUBSTR makes it
 * allocate up to 1 GiB (stopped by the worker's memory limit);
 * GFPAUDIT_TEST_SPIN=SUBSTR makes it burn CPU (stopped by RLIMIT_CPU even
 * when the parent cannot act); GFPAUDIT_TEST_CRASH_JUDGED=SUBSTR makes it
 * abort in the facts passes only (isolate.c; the cache still answers). */
#ifndef GFPAUDIT_POOL_H
#define GFPAUDIT_POOL_H
#include <stddef.h>
#include "gfpaudit/engine.h"
#include "gfpaudit/isolate.h"

struct pool_opts {
	int jobs;            /* worker processes at once (>= 1) */
	int timeout_sec;     /* per file, wall clock (and CPU: RLIMIT_CPU); 0 = none */
	long mem_limit_mb;   /* RLIMIT_AS of each worker in MiB; 0 = none */
	int quiet;           /* no progress line */
	/* progress on stderr that is not a terminal: a plain line every 5 s
	 * (for CI logs; nothing for a shorter run); a terminal always gets the
	 * one rewritten line */
	int progress_lines;
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
	long max_rss_kb;    /* peak resident set of any one worker, less the
			     * parent's pages its fork shared (its own memory) */
	long max_rss_shared_kb; /* the same with those pages (ru_maxrss) */
	char max_rss_file[256]; /* the file a worker was on at max_rss_kb ("": not known) */
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

/* Default RLIMIT_AS of a worker (isolate.h). */
#define POOL_MEM_LIMIT_MB ISOLATE_MEM_LIMIT_MB

#endif
