/* Analysis in a child process: what `check`, `review` and `cc` do with
 * staged, mailed or foreign content, and what the pool's workers (pool.h)
 * are made of. */
#ifndef GFPAUDIT_ISOLATE_H
#define GFPAUDIT_ISOLATE_H
#include <stddef.h>
#include <time.h>
#include <sys/types.h>
#include "gfpaudit/engine.h"

/* One file analyzed in a forked child of its own, under the limits the
 * pool's workers have (pool.h) (dies with the parent, RLIMIT_AS, RLIMIT_CPU and a
 * wall-clock timeout): what `check` and `review` do with staged or mailed
 * content, so a file that crashes, hangs or exhausts the analyzer costs
 * that file (a FILE_FAILED result with the reason), never the run.  The
 * child inherits `uf` (unsaved contents) and the engine.  The test hooks
 * above apply.  A negative code only when it cannot fork. */
struct isolate_limits {
	int timeout_sec;     /* 0: none */
	long mem_limit_mb;   /* 0: none */
};
struct isolate_child {
	pid_t pid;
	int fd;
	int timeout_sec;
	struct timespec start;
	char *path;
};
int isolate_analyze(struct engine *e, const char *path, const struct unsaved_file *uf, size_t nuf,
			  const struct isolate_limits *lim, struct file_result **out);
/* The same in two steps, to run one child while the caller does something
 * else (the old side of a change beside its new side): start, then finish
 * (waits; always fills *out on 0) or cancel (kills it). */
int isolate_start(struct engine *e, const char *path, const struct unsaved_file *uf, size_t nuf,
		     const struct isolate_limits *lim, struct isolate_child *c);
int isolate_finish(struct engine *e, struct isolate_child *c, struct file_result **out);
void isolate_cancel(struct isolate_child *c);
/* Defaults for check and review (audit: --timeout, 300 s). */
#define ISOLATE_TIMEOUT_SEC 300

/* Default address-space limit of a child or worker in MiB, on top of the
 * address space it inherits from its parent at the fork: the largest 6.12
 * file needs about 450 MiB resident, libclang maps more than it touches. */
#define ISOLATE_MEM_LIMIT_MB 4096

/* The pieces the pool's workers share.  In a new child: die with the
 * parent (PR_SET_PDEATHSIG, even SIGKILL), default stop signals, the
 * address-space limit (none under ASan). */
void isolate_child_setup(pid_t parent, long mem_limit_mb);
/* The resident set in KiB: now, and (in a child) at its setup, which is
 * the parent's pages the fork shares (copy-on-write, counted in the
 * child's RSS though not copied): a worker's own memory is its peak less
 * that base. */
long isolate_rss_now_kb(void);
long isolate_rss_base_kb(void);
/* The peak resident set (VmHWM) in KiB (0 if unknown), and its reset to
 * the resident set now: a worker resets it before each file, so the
 * peak after it is that file's (with what the worker holds from the
 * files before).  The main process never resets it (a bench's
 * /usr/bin/time reads it at the exit).  isolate_analyze_one sends it
 * beside the result, as ISOLATE_RSS_MEMBER: [own KiB, with shared KiB]. */
long isolate_peak_kb(void);
void isolate_peak_reset(void);
/* The resident set at the last reset (0: none): what the worker held
 * when the file began. */
long isolate_file_start_kb(void);
#define ISOLATE_RSS_MEMBER "worker_rss_kb"
/* In a child: analyze one file (after the per-file CPU limit and the test
 * hooks) and write its result as one line of JSON to fd. */
void isolate_analyze_one(struct engine *e, const char *path, const struct unsaved_file *uf, size_t nuf,
			 int fd, int cpu_sec);
/* write(2) all of s (EINTR retried): 0 or -1. */
int isolate_write_all(int fd, const char *s, size_t len);
/* A FILE_FAILED result for path with the reason. */
struct file_result *isolate_failed(struct engine *e, const char *path, const char *why);

#endif
