/* Inside the result cache (analyzer/store/): what its files share.  Not
 * for the rest of the analyzer, which goes through store.h. */
#ifndef GFPAUDIT_STORE_IMPL_H
#define GFPAUDIT_STORE_IMPL_H
#include <time.h>
#include <glib.h>
#include <sqlite3.h>
#include "gfpaudit/store.h"

/* The layout of the tables (meta 'schema'; another is refused).  Bump
 * when the table layout or the meaning of a column changes. */
#define STORE_SCHEMA "1"

struct store {
	sqlite3 *db;
	sqlite3_stmt *get, *put, *prune, *incset_get, *incset_put, *stat_get, *stat_put;
	sqlite3_stmt *origin_put, *origin_prune;
	sqlite3_stmt *judged_get, *judged_put, *judged_prune; /* judged.c */
	sqlite3_stmt *judged_by_digest, *run_get, *run_put, *run_prune, *tree_gen; /* judged.c */
	sqlite3_stmt *more_put[2], *more_get[2], *more_prune[2]; /* more.c: by STORE_MORE_* */
	char last_row[STORE_HASH_HEX]; /* store_last_row() */
	int in_tx;
	size_t pending;
	struct timespec tx_start;
	GHashTable *header_hash;  /* path -> hex hash ("" when unreadable) */
	GHashTable *incset_ok;    /* incset id -> GINT_TO_POINTER(1 ok / 2 stale) */
	struct store_stats st;
};

/* set err_last() to "cache: WHAT: sqlite's message"; returns GA_EIO */
int store_i_db_err(struct store *s, const char *what);
int store_i_prepare(struct store *s, const char *sql, sqlite3_stmt **st);
int store_i_exec(struct store *s, const char *sql);
/* the write transaction: begun on the first write, committed in batches */
int store_i_begin(struct store *s);
int store_i_commit(struct store *s);
/* the include set of a row: stored once, checked against header hashes */
int store_i_incset_valid(struct store *s, sqlite3_int64 id);
int store_i_incset_store(struct store *s, const char *const *inc, size_t n, sqlite3_int64 *id);
/* the checksum of a results row (key, include set, its side row's hash
 * `more` (NULL: none; more.c), result text) */
void store_i_row_checksum(const struct store_key *k, sqlite3_int64 incset, const char *more, const char *result,
			  char out[STORE_HASH_HEX]);
/* the same over prefix then result (either NULL: "") */
void store_i_row_checksum2(const struct store_key *k, sqlite3_int64 incset, const char *prefix, const char *result,
			   char out[STORE_HASH_HEX]);
/* the version rows are written and trusted under: this build's, or with
 * GFPAUDIT_CACHE_AS=FILE (benchmarks) FILE's `--version` */
const char *store_i_producer(void);
/* whether a row read back may be used: written by this version, its
 * checksum is WANT (what its key and body hash to), its include set still
 * holds; counts the rows that may not (untrusted, stale includes) */
bool store_i_row_trusted(struct store *s, sqlite3_int64 incset, const char *producer, const char *sum,
			 const char *want);
/* the end of a lookup: reset Q, count the hit or miss, set err_last() for a
 * miss; RC is 0 or GA_ENOTFOUND unless the step loop failed (STEP) */
int store_i_lookup_end(struct store *s, sqlite3_stmt *q, int rc, int step);
/* the checksum of a judged row (its digest is part of the key) */
void store_i_judged_checksum(const struct store_key *k, sqlite3_int64 inc, const char *digest, const char *more,
			     const char *txt, char out[STORE_HASH_HEX]);
/* judged.c: its statements, prepared with the others / finalized */
int store_i_judged_prepare(struct store *s);
void store_i_judged_finalize(struct store *s);
/* more.c: the side rows (results_more, judged_more) that keep a result's
 * includes, facts and consulted keys apart from the row a warm run reads */
#define STORE_MORE_RESULTS 0
#define STORE_MORE_JUDGED 1
struct store_i_row {
	char *keep;                 /* the result's JSON without those members */
	char *more;                 /* an object of those members (maybe empty) */
	char sum[STORE_HASH_HEX];   /* store_hash_buf() of `more` */
};
int store_i_more_prepare(struct store *s);
void store_i_more_finalize(struct store *s);
/* r's texts for a row (drop_spec: without its second judgement) */
void store_i_split(const struct file_result *r, bool drop_spec, struct store_i_row *out);
void store_i_row_release(struct store_i_row *row);
/* the checksum prefix of a row whose side row has `sum` (NULL: none);
 * digest: a judged row's (NULL for a results row).  New string. */
char *store_i_more_prefix(const char *digest, const char *sum);
/* write the side row of k (table STORE_MORE_*; digest: judged rows') */
int store_i_more_put(struct store *s, int table, const struct store_key *k, sqlite3_int64 inc, const char *digest,
		     const struct store_i_row *row);
/* whether a side row's body (len bytes) still hashes to its sum */
bool store_i_more_intact(const char *sum, const char *body, size_t len);
/* drop the side rows of k's path and context whose main row is gone */
int store_i_more_prune(struct store *s, int table, const struct store_key *k);
/* the result of a main row's text; with sum, its side row stays in the
 * cache until store_load_deferred (r->deferred_ref names it) */
int store_i_result_read(const char *keep, int table, const struct store_key *k, sqlite3_int64 inc,
			const char *digest, const char *sum, struct file_result **out);
/* commit when the batch is big or old enough */
void store_i_batch(struct store *s);

#endif
