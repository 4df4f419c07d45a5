/* The result cache: per-file results in SQLite.
 *
 * A stored result is valid for a file when all of these are unchanged:
 *  - the reported path;
 *  - the context: tool version and a hash of the running binary, the engine
 *    options (tree, compile database, rules, fixes, allocator tables), the
 *    tree's configuration (include/generated/autoconf.h) or, without a tree,
 *    the kernel-model headers (see store_context());
 *  - the content of the file (its git blob id, so it matches `git hash-object`);
 *  - the content of every header the file included (file_result.includes,
 *    as the engine reports them).  The list is stored with the result, like
 *    a ccache manifest, and checked on lookup; header hashes are computed
 *    once per run.
 * Several processes may share one database (WAL mode, busy timeout, every
 * write in a BEGIN IMMEDIATE transaction, retried while busy, the schema
 * too); writes are batched and committed at least every quarter second and
 * before the caller waits (store_commit).  A path that exists and is not a
 * regular file (/dev/null, a FIFO) is refused.
 * Each row records the tool version that wrote it and a checksum over its
 * key and result; a row that does not match is analyzed again (this
 * catches corruption and edits, not a forger who recomputes the checksum).
 * Functions return 0 or a negative GA_E* code with err_set().
 */
#ifndef GFPAUDIT_STORE_H
#define GFPAUDIT_STORE_H
#include <stdbool.h>
#include <stddef.h>
#include "gfpaudit/engine.h"
#include "gfpaudit/result.h"

#define STORE_HASH_HEX 41 /* 40 hex digits + NUL */

struct store;

struct store_key {
	const char *path;                /* as reported (lent) */
	char context[STORE_HASH_HEX];    /* store_context() */
	char content[STORE_HASH_HEX];    /* store_hash_buf() of the file's bytes */
};

/* $XDG_CACHE_HOME/gfpaudit/cache.sqlite, or ~/.cache/gfpaudit/cache.sqlite.
 * New string; NULL when neither variable is set. */
char *store_default_path(void);

/* Open (creating the file and its directory) a cache database. */
int store_open(const char *path, struct store **out);
/* Commit the writes batched so far (a no-op when none): call it before
 * anything slow, so no other process waits on our write lock meanwhile. */
int store_commit(struct store *s);
/* Commit pending writes and close; NULL is a no-op.  0, or the code of a
 * commit that failed (those writes are lost; the database stays whole). */
int store_close(struct store *s);

/* The context hash of a run with these options (see the list above). */
int store_context(const struct engine_opts *o, const char *pch_identity, char out[STORE_HASH_HEX]);

/* Mark a context as used now, and drop the results of contexts nobody used
 * for STORE_KEEP_DAYS (old builds of gfpaudit, old configurations), so the
 * default cache does not grow without end. */
#define STORE_KEEP_DAYS 14
int store_use_context(struct store *s, const char context[STORE_HASH_HEX]);

/* Git blob id of a buffer / a file's bytes (hex). */
void store_hash_buf(const void *data, size_t len, char out[STORE_HASH_HEX]);
int store_hash_file(const char *path, char out[STORE_HASH_HEX]);

/* 0 with *out (owned by the caller) on a hit; GA_ENOTFOUND on a miss. */
int store_get(struct store *s, const struct store_key *k, struct file_result **out);
/* Store r under k with the headers it included (paths the process can open;
 * NULL/0 when unknown).  Older contents of the same path and context beyond
 * the few most recent are dropped. */
int store_put(struct store *s, const struct store_key *k, const char *const *includes,
	      size_t nincludes, const struct file_result *r);

/* Content hashes remembered by inode, size and change times, so a warm run
 * need not read unchanged files (git's index does the same).  A file changed
 * less than two seconds before it was remembered is not remembered: its
 * times may not show the next change. */
struct stat;
int store_stat_hash(struct store *s, const struct stat *st, char out[STORE_HASH_HEX]); /* 0 or GA_ENOTFOUND */
void store_stat_remember(struct store *s, const struct stat *st, const char hash[STORE_HASH_HEX]);

/* Hash of a file's bytes, by its inode and times when remembered
 * (store_stat_hash), else read and remembered. */
int store_content_hash(struct store *s, const char *path, char out[STORE_HASH_HEX]);

/* Results judged with the tree's facts (factpass.h).  Keyed like results
 * (path, context, content, include set) and by the digest of the fact-base
 * answers the judgement consulted (file_result.consulted/facts_digest).
 * store_judged_get asks `fresh` about each stored judgement of the file,
 * newest first; the first it accepts (its consulted keys still answer as
 * they did) is returned.  Same returns as store_get / store_put. */
int store_judged_get(struct store *s, const struct store_key *k,
		     bool (*fresh)(void *data, const struct file_result *r), void *data,
		     struct file_result **out);
int store_judged_put(struct store *s, const struct store_key *k, const struct file_result *r);

/* The judged row of k whose consulted answers had `digest`, without asking
 * what they answer now (the caller knows they are the same: a run
 * record).  Same returns as store_get. */
int store_judged_get_digest(struct store *s, const struct store_key *k, const char *digest,
			    struct file_result **out);

/* A result read back by store_get or store_judged_get_digest leaves its
 * includes, facts and consulted keys in the cache (result.h deferred_ref):
 * read them into r.  0 (also when r has them already); GA_EINVAL when they
 * are gone from the cache or changed since (r then has none of them). */
int store_load_deferred(struct store *s, struct file_result *r);

/* The checksum of the results row the last successful store_get read or
 * store_put wrote ("" after a store_put that failed): what identifies a
 * file's first-pass result in a run record. */
const char *store_last_row(const struct store *s);

/* Run records (factpass.h): per context, under a key that digests the
 * inputs of a facts pass, what the pass answered (body: its own text).
 * A few per context are kept, the newest.  store_run_get: 0 with *body (a
 * new string), GA_ENOTFOUND when there is none (or it was written by
 * another version, or its checksum fails).  store_run_put commits. */
int store_run_get(struct store *s, const char context[STORE_HASH_HEX], const char *key, char **body);
int store_run_put(struct store *s, const char context[STORE_HASH_HEX], const char *key, const char *body);

/* Where the facts passes ended (factstate.h), one per context and head (a
 * digest of the passes' inputs but the files): a blob, with the stamp of
 * the tree's facts its run left (factpass.h).  store_state_get: 0 with
 * *blob (new buffer, *len) and *stamp (new string), GA_ENOTFOUND when there
 * is none (or it was written by another version, or its checksum fails).
 * store_state_put replaces it and commits. */
int store_state_get(struct store *s, const char context[STORE_HASH_HEX], const char *head, char **stamp, void **blob,
		    size_t *len);
int store_state_put(struct store *s, const char context[STORE_HASH_HEX], const char *head, const char *stamp,
		    const void *blob, size_t len);
/* The parts kept beside a state (factstate_part_save): fn for each, in path
 * order (*n of them); a part that fails its checksum stops it, GA_ENOTFOUND.
 * store_state_put drops them; store_state_put_parts adds or replaces
 * paths[i]'s and sets the state's stamp, and commits. */
int store_state_parts(struct store *s, const char context[STORE_HASH_HEX], const char *head,
		      int (*fn)(void *data, const void *blob, size_t len), void *data, size_t *n);
int store_state_put_parts(struct store *s, const char context[STORE_HASH_HEX], const char *head, const char *stamp,
			  char *const *paths, void *const *blobs, const size_t *lens, size_t n);

/* A count of the changes to a context's tree facts (rows or their
 * built-mark, by any writer: triggers of the file); 0 when never changed. */
int store_tree_gen(struct store *s, const char context[STORE_HASH_HEX], long long *gen);

/* The tree's facts (`gfpaudit facts`): per file of a tree and context, the
 * observations it publishes, with the content and the size and mtime they
 * were made from.  store_tree_begin drops the context's rows and marks it
 * built from `root`; store_tree_finish counts and commits.  store_tree_info
 * is GA_ENOTFOUND when the context was never built.  store_tree_each calls
 * fn for every row in path order (stops at its first non-zero return);
 * facts is NULL in the rows `want` (NULL: every row) does not want. */
struct store_tree_file {
	const char *path;                /* as reported */
	const char *abs;                 /* real path, to check it is unchanged */
	char content[STORE_HASH_HEX];
	long long size, mtime;           /* mtime in ns */
	const char *facts;               /* file_result JSON (file and facts) */
};
int store_tree_begin(struct store *s, const char context[STORE_HASH_HEX], const char *root);
int store_tree_put(struct store *s, const char context[STORE_HASH_HEX], const struct store_tree_file *f);
int store_tree_finish(struct store *s, const char context[STORE_HASH_HEX]);
int store_tree_info(struct store *s, const char context[STORE_HASH_HEX], char **root, size_t *files);
int store_tree_each(struct store *s, const char context[STORE_HASH_HEX],
		    bool (*want)(void *data, const char *abs),
		    int (*fn)(void *data, const struct store_tree_file *f), void *data);

/* Copy the cache file `src` in (a shard's, another machine's, a CI run's):
 * its tree's facts of every context, and the results and judged results this
 * version wrote whose checksums hold (re-keyed to this cache's include
 * sets; rows are keyed by tool, options, tree and contents, so sharing them
 * is safe).  A tree-facts row the source judged replaces ours, one it
 * imported itself only fills a gap; a context not built here is marked
 * built from the source's root; results we hold already are kept.
 * GA_ENOTFOUND when src is not a file, GA_EINVAL when it is not a cache of
 * this layout. */
struct store_import_stats {
	size_t tree_rows;  /* tree-facts rows of the source */
	size_t results;    /* results copied (new here) */
	size_t judged;     /* judged results copied (new here) */
	size_t skipped;    /* rows of another version, or whose checksum fails */
};
int store_import(struct store *s, const char *src, struct store_import_stats *st);

struct store_stats {
	size_t hits, misses, puts;
	size_t stale_includes; /* rows rejected because a header changed */
	size_t untrusted;      /* rows rejected: another tool version, or a
				* checksum that does not match (edited, corrupt) */
};
void store_get_stats(const struct store *s, struct store_stats *out);

#endif
