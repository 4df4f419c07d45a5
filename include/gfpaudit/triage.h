/* Triage: before a file goes to a worker, answer it without parsing when
 * possible: from the result cache (store.h), or, when the lexical prefilter
 * (prefilter.h) proves it names no allocator, as analyzed with no sites.
 * Front ends wire triage_lookup/triage_store into pool_opts.lookup/store.
 */
#ifndef GFPAUDIT_TRIAGE_H
#define GFPAUDIT_TRIAGE_H
#include <stdbool.h>
#include <stddef.h>
#include "gfpaudit/engine.h"
#include "gfpaudit/result.h"

/* The reason a prefiltered file carries (status analyzed, no sites). */
#define TRIAGE_PREFILTER_REASON "prefilter: no allocation call"

struct triage_opts {
	struct engine *engine;          /* reported paths (lent) */
	const struct engine_opts *eo;   /* cache context; tree and allocator tables */
	const char *cache_path;         /* NULL: no cache */
	bool prefilter;
};

struct triage_stats {
	size_t cached;        /* answered by the cache */
	size_t prefiltered;   /* answered (fresh or cached) as "no allocation call" */
	size_t stored;        /* fresh results written to the cache */
	size_t store_failed;  /* results the cache could not take (disk full, I/O) */
	char store_error[160]; /* the first such error */
	size_t learned;       /* wrapper names the prefilter learned from headers */
	double learn_sec;     /* time to learn them */
	double lookup_sec;    /* reading, hashing, cache lookups, prefiltering */
};

struct triage;
struct store;

/* GA_EINVAL when the path cannot be a cache (special file, cannot be
 * created or opened), GA_EIO when the disk does not take it (full, I/O);
 * err_last() says why. */
int triage_new(const struct triage_opts *o, struct triage **out);
void triage_free(struct triage *t);

/* For pool_opts.lookup / pool_opts.store. */
struct file_result *triage_lookup(struct triage *t, size_t index, const char *path);
void triage_store(struct triage *t, size_t index, const char *path, const struct file_result *r);

/* Commit what the cache holds uncommitted (pool_opts.idle). */
void triage_idle(struct triage *t);
void triage_get_stats(const struct triage *t, struct triage_stats *out);
/* The cache it reads and writes (NULL: none) and the context of this
 * run's rows in it (lent, for the facts pass: factpass.h). */
struct store *triage_cache(const struct triage *t);
const char *triage_context(const struct triage *t);
/* What identifies the result of file `index` (of the last pool run): the
 * checksum of its results row (read or written), "failed" for a failure
 * not kept; NULL when the cache holds no row for it (lent). */
const char *triage_identity(const struct triage *t, size_t index);
/* Count prefiltered results in an already built list (for merged reports). */
bool triage_is_prefiltered(const struct file_result *r);

#endif
