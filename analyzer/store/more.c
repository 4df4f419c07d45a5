/* The side rows of the result cache (store.h store_load_deferred): the
 * members of a result that only the facts passes and the tree's facts
 * read — its includes, facts and consulted keys, 98 % of a whole-tree
 * cache's bytes — kept apart from the rows a warm run reads.
 *
 * A results or judged row holds the rest of the result's JSON; its side
 * row (results_more, judged_more: the same key) holds those members and
 * their hash, and the main row's checksum covers that hash.  So a main
 * row whose side row is gone or replaced is not trusted, and a side row
 * is checked against the hash when it is read.  The body is the last
 * column: reading the hash does not read the body's overflow pages. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "gfpaudit/err.h"
#include "gfpaudit/store.h"
#include "gfpaudit/strbuf.h"
#include "store_impl.h"

int store_i_more_prepare(struct store *s)
{
	int rc;
	if ((rc = store_i_prepare(s, "INSERT OR REPLACE INTO results_more VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
				  &s->more_put[0])) ||
	    (rc = store_i_prepare(s, "INSERT OR REPLACE INTO judged_more VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
				  &s->more_put[1])) ||
	    (rc = store_i_prepare(s, "SELECT sum, body FROM results_more WHERE path=?1 AND context=?2 AND "
				  "content=?3 AND incset=?4", &s->more_get[0])) ||
	    (rc = store_i_prepare(s, "SELECT sum, body FROM judged_more WHERE path=?1 AND context=?2 AND "
				  "content=?3 AND incset=?4 AND digest=?5", &s->more_get[1])) ||
	    (rc = store_i_prepare(s, "DELETE FROM results_more WHERE path=?1 AND context=?2 AND NOT EXISTS "
				  "(SELECT 1 FROM results r WHERE r.path=results_more.path AND "
				  "r.context=results_more.context AND r.content=results_more.content AND "
				  "r.incset=results_more.incset)", &s->more_prune[0])) ||
	    (rc = store_i_prepare(s, "DELETE FROM judged_more WHERE path=?1 AND context=?2 AND NOT EXISTS "
				  "(SELECT 1 FROM judged j WHERE j.path=judged_more.path AND "
				  "j.context=judged_more.context AND j.content=judged_more.content AND "
				  "j.incset=judged_more.incset AND j.digest=judged_more.digest)", &s->more_prune[1])))
		return rc;
	return 0;
}

void store_i_more_finalize(struct store *s)
{
	for (int i = 0; i < 2; i++) {
		sqlite3_finalize(s->more_put[i]);
		sqlite3_finalize(s->more_get[i]);
		sqlite3_finalize(s->more_prune[i]);
	}
}

void store_i_split(const struct file_result *r, bool drop_spec, struct store_i_row *out)
{
	json_t *j = file_result_to_json(r);
	/* the first parse's second judgement is kept only when the facts pass
	 * takes it (as a judged row): most are not, and it is as big again */
	if (drop_spec)
		json_object_del(j, "speculative");
	json_t *m = file_result_json_take_deferrable(j);
	out->keep = json_dumps(j, JSON_COMPACT);
	out->more = json_dumps(m, JSON_COMPACT);
	store_hash_buf(out->more, strlen(out->more), out->sum);
	json_decref(j);
	json_decref(m);
}

void store_i_row_release(struct store_i_row *row)
{
	free(row->keep);
	free(row->more);
	row->keep = row->more = NULL;
}

bool store_i_more_intact(const char *sum, const char *body, size_t len)
{
	char got[STORE_HASH_HEX];
	if (!sum || !body)
		return false;
	store_hash_buf(body, len, got);
	return !strcmp(got, sum);
}

char *store_i_more_prefix(const char *digest, const char *sum)
{
	return digest ? xasprintf("judged %s\nmore %s\n", digest, sum ? sum : "-")
		      : xasprintf("more %s\n", sum ? sum : "-");
}

int store_i_more_put(struct store *s, int table, const struct store_key *k, sqlite3_int64 inc, const char *digest,
		     const struct store_i_row *row)
{
	sqlite3_stmt *q = s->more_put[table];
	int n = 0;
	sqlite3_reset(q);
	sqlite3_bind_text(q, ++n, k->path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, ++n, k->context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, ++n, k->content, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, ++n, inc);
	if (table == STORE_MORE_JUDGED)
		sqlite3_bind_text(q, ++n, digest, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, ++n, row->sum, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, ++n, row->more, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(q) == SQLITE_DONE ? 0 : store_i_db_err(s, "store");
	sqlite3_reset(q);
	return rc;
}

int store_i_more_prune(struct store *s, int table, const struct store_key *k)
{
	sqlite3_stmt *q = s->more_prune[table];
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, k->path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, k->context, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(q) == SQLITE_DONE ? 0 : store_i_db_err(s, "prune");
	sqlite3_reset(q);
	return rc;
}

int store_i_result_read(const char *keep, int table, const struct store_key *k, sqlite3_int64 inc,
			const char *digest, const char *sum, struct file_result **out)
{
	*out = NULL;
	json_error_t jerr;
	json_t *j = json_loads(keep ? keep : "", 0, &jerr);
	int rc = j ? file_result_from_json(j, out) : err_set(GA_EINVAL, "file result: %s", jerr.text);
	json_decref(j);
	/* the side row's key, its hash; the path last (any byte but NUL) */
	if (!rc && sum)
		(*out)->deferred_ref = xasprintf("%d %lld %s %s %s %s\n%s", table, (long long)inc, k->context,
						 k->content, digest ? digest : "-", sum, k->path);
	return rc;
}

int store_load_deferred(struct store *s, struct file_result *r)
{
	if (!r->deferred_ref || r->deferred)
		return file_result_load_deferred(r);
	int table = -1, at = 0;
	long long inc = 0;
	char ctx[STORE_HASH_HEX] = "", content[STORE_HASH_HEX] = "", digest[STORE_HASH_HEX + 8] = "",
	     want[STORE_HASH_HEX] = "";
	if (!s || sscanf(r->deferred_ref, "%d %lld %40s %40s %47s %40s\n%n", &table, &inc, ctx, content, digest, want,
			 &at) != 6 || !at || table < 0 || table > 1)
		return err_set(GA_EINVAL, "cache: %s: a result without the way to its facts", r->file);
	sqlite3_stmt *q = s->more_get[table];
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, r->deferred_ref + at, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, ctx, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, content, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 4, inc);
	if (table == STORE_MORE_JUDGED)
		sqlite3_bind_text(q, 5, digest, -1, SQLITE_TRANSIENT);
	int rc = GA_EINVAL;
	if (sqlite3_step(q) == SQLITE_ROW) {
		const char *sum = (const char *)sqlite3_column_text(q, 0);
		const char *body = (const char *)sqlite3_column_text(q, 1);
		if (sum && !strcmp(sum, want) && store_i_more_intact(sum, body, (size_t)sqlite3_column_bytes(q, 1))) {
			r->deferred = xstrdup(body);
			rc = 0;
		}
	}
	sqlite3_reset(q);
	if (rc)
		return err_set(rc, "cache: %s: its facts are gone from the cache or were changed", r->file);
	return file_result_load_deferred(r);
}
