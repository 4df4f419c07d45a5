/* The facts passes: judge files again with the tree's joined facts, to a
 * bounded fixed point, answering from the cache what did not change.
 *
 * After the first pass (every file on its own, recording what it stores and
 * passes: facts.h), the observations of all files are joined.  A file is
 * judged again when the answers to the keys it consulted (its result's
 * consulted/facts_digest) changed and the facts can change a finding: it
 * has a site whose size is unknown or only "possible" (a consumer), or it
 * publishes an observation that is not a constant (a value a fact may
 * bound) into a key that a consumer, or such a publisher feeding one,
 * consults (demand-driven: a publisher nobody downstream reads is left).
 * Each judgement records the keys it consulted; after a pass the
 * observations are joined again and the next pass judges the files whose
 * keys now answer differently.  For the keys a file reads itself, the join
 * keeps its first pass's observations: a file does not feed itself from
 * pass to pass (a field it decrements and reads would shrink each pass).  It stops when no file's keys changed
 * (converged) or after max_passes passes.  Publishers go first in a pass.
 *
 * With a cache, a judgement is stored under the file's first-pass key and
 * the digest of the answers it consulted; a file whose consulted keys
 * answer as they did is taken from the cache without parsing, so a warm
 * run replays the passes of the cold one without a worker.
 */
#ifndef GFPAUDIT_FACTPASS_H
#define GFPAUDIT_FACTPASS_H
#include <stdbool.h>
#include <stddef.h>
#include "gfpaudit/engine.h"
#include "gfpaudit/pool.h"
#include "gfpaudit/result.h"

struct store;

#define FACTPASS_DEFAULT_PASSES 3

struct factpass_opts {
	struct engine *engine;
	struct store *store;                 /* judged results; NULL: no cache */
	const char *context;                 /* the run's cache context (store_context) */
	struct pool_opts pool;               /* jobs, limits, quiet, stats; its callbacks are the pass's */
	int max_passes;                      /* >= 1 */
	struct file_result *const *extra;    /* observations of files not audited (tree facts) */
	size_t nextra;
	/* Judge again every file that publishes an open value, not only those
	 * whose readers are in the run: the run's observations go to the
	 * tree's facts that files outside it read (a shard's facts). */
	bool all_publishers;
	/* The run record (store.h store_run_get): ident[i] identifies file
	 * i's first-pass result (triage_identity: its results row), NULL
	 * when unknown.  When every file's is known, the passes' inputs (the
	 * context, these identities sorted by path, extra_digest, the
	 * options) make a key; a record under it that names `stamp` (the
	 * caller's word on what else must not have changed, "-" for
	 * nothing) answers the passes: each file the passes judged again
	 * takes its judged row by the digest recorded, with no join, and the
	 * results are left without their deferred facts, includes and
	 * consulted keys (result.h; nothing reads them then).  Any miss runs
	 * the passes. */
	const char *const *ident;
	const char *extra_digest;            /* identifies extra[] (treefacts.digest) */
	const char *stamp;
	/* Optional: the last run's state, loaded before the first pass
	 * (factpass_state_load): the passes take it (*preloaded becomes
	 * NULL) and resume from it as from the one they would load. */
	struct factpass_state **preloaded;
	/* Optional: each file a worker judges in pass `pass` (1-based). */
	void (*on_parsed)(void *data, int pass, const char *path);
	void *data;
};

struct factpass_stats {
	size_t keys;        /* keys of the last join */
	size_t passes;      /* passes that judged at least one file */
	size_t judged;      /* judgements (a file judged in two passes counts twice) */
	size_t parsed;      /* of them by a worker */
	size_t cached;      /* of them from the cache */
	size_t reused;      /* of them the first pass's second judgement, made on
			     * its parse against the last run's state with the
			     * file's part replaced (result.h spec): no parse */
	size_t failed;      /* judgements that failed (a crash, a timeout, a
			     * parse error this time): the file keeps its answer
			     * from before, judged with older facts */
	char **failures;    /* "file: reason" of each (new strings; the caller
			     * frees them and the array) */
	size_t nfailures;
	size_t changed;     /* judgements whose findings differ from the file's result before */
	bool converged;     /* the last join left nothing to judge */
	double wall, worker_cpu;
	bool from_record;   /* answered by the run record: no pass ran */
	size_t recorded;    /* of them: files that took a judged row */
	/* A record of this run to keep (factpass_save_record): the passes
	 * converged with no failure and every input known.  New strings. */
	char *record_key, *record_body;
	/* ...and where the passes ended (factstate.h), kept with the record:
	 * the next run whose record misses because a few files changed
	 * resumes from it.  New buffer and string. */
	void *state;
	size_t state_len;
	char *state_head;
	/* ...or, resumed, only the parts of the files it changed (new arrays) */
	char **part_path;
	void **part;
	size_t *part_len, nparts;
	/* Resumed from the state of an earlier run: `resume_changed` files
	 * changed (or came or went) since; the others kept their results, and
	 * only the files whose consulted keys moved were judged again. */
	bool resumed;
	size_t resume_changed;
	/* ...and the tree's facts are as the state's run left them (its stamp
	 * is o->stamp): writing the touched files' parts brings them up to date */
	bool tree_intact;
	/* Files whose result (and so their part in the tree's facts) this run
	 * changed, when resumed: n flags (new array), NULL otherwise. */
	bool *touched;
};

/* files[0..n) are the results of paths[0..n) (analyzed or not); a file
 * judged again has its result replaced (the old one freed).  The engine's
 * fact base is set during the passes and NULL after.  Returns 0 or
 * pool_run's code (interrupted: pool_interrupted()). */
int factpass_run(const struct factpass_opts *o, struct file_result **files, char *const *paths, size_t n,
		 struct factpass_stats *st);

/* Keep st's run record (and state) under o->store with `stamp` (what o->stamp must
 * be for the next run to use it): 0, or the store's error.  No-op when st
 * has none. */
int factpass_save_record(const struct factpass_opts *o, const struct factpass_stats *st, const char *stamp);
/* Free what st holds (failures, the record). */
void factpass_stats_release(struct factpass_stats *st);

/* Where the last run with o's inputs (but the files) left the passes,
 * loaded ahead of factpass_run: 0, or GA_ENOTFOUND when the cache has
 * none (or o's inputs are not known).  factpass_state_facts: its
 * factstate (for engine_set_spec_state). */
struct factpass_state;
struct factstate;
int factpass_state_load(const struct factpass_opts *o, struct factpass_state **out);
struct factstate *factpass_state_facts(const struct factpass_state *ps);
void factpass_state_free(struct factpass_state *ps);

/* The join of the analyzed results of a[] and b[], in path order (the
 * first observation of a key is the one its value names).  New factbase. */
struct factbase;
struct factbase *factpass_join(struct file_result *const *a, size_t na, struct file_result *const *b, size_t nb);


#endif
