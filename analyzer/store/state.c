/* Where the facts passes ended: one blob per context and head, and the
 * parts of the files changed since, beside it (store.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sqlite3.h>
#include "gfpaudit/store.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "store_impl.h"

/* what a state row is filed as, who wrote it and the hash of its blob */
static void state_checksum(const char *context, const char *head, const char *stamp, const char *body_sum,
			   char out[STORE_HASH_HEX])
{
	char *txt = xasprintf("gfpaudit-state %s\n%s\n%s\n%s\n%s", store_i_producer(), context, head, stamp, body_sum);
	store_hash_buf(txt, strlen(txt), out);
	free(txt);
}

static void part_checksum(const char *context, const char *head, const char *path, const void *blob, size_t len,
			  char out[STORE_HASH_HEX])
{
	char inner[STORE_HASH_HEX];
	store_hash_buf(blob, len, inner);
	char *txt = xasprintf("gfpaudit-state-part %s\n%s\n%s\n%s\n%s", store_i_producer(), context, head, path, inner);
	store_hash_buf(txt, strlen(txt), out);
	free(txt);
}

int store_state_get(struct store *s, const char context[STORE_HASH_HEX], const char *head, char **stamp, void **blob,
		    size_t *len)
{
	*blob = NULL;
	*len = 0;
	*stamp = NULL;
	sqlite3_stmt *q;
	int rc = store_i_prepare(s, "SELECT body, producer, checksum, stamp, body_sum FROM fact_states "
				 "WHERE context=?1 AND head=?2", &q);
	if (rc)
		return rc;
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, head, -1, SQLITE_TRANSIENT);
	int step = sqlite3_step(q);
	rc = GA_ENOTFOUND;
	if (step == SQLITE_ROW) {
		const void *b = sqlite3_column_blob(q, 0);
		size_t n = (size_t)sqlite3_column_bytes(q, 0);
		const char *producer = (const char *)sqlite3_column_text(q, 1);
		const char *sum = (const char *)sqlite3_column_text(q, 2);
		const char *st = (const char *)sqlite3_column_text(q, 3);
		const char *bsum = (const char *)sqlite3_column_text(q, 4);
		char want[STORE_HASH_HEX], have[STORE_HASH_HEX];
		if (b && n && producer && !strcmp(producer, store_i_producer()) && sum && st && bsum) {
			state_checksum(context, head, st, bsum, want);
			store_hash_buf(b, n, have);
			if (!strcmp(sum, want) && !strcmp(bsum, have)) {
				*blob = xcalloc(n + 1, 1);
				memcpy(*blob, b, n);
				*len = n;
				*stamp = xstrdup(st);
				rc = 0;
			}
		}
		if (rc)
			s->st.untrusted++;
	} else if (step != SQLITE_DONE) {
		rc = store_i_db_err(s, "facts state");
	}
	sqlite3_finalize(q);
	return rc == GA_ENOTFOUND ? err_set(GA_ENOTFOUND, "no facts state") : rc;
}

int store_state_parts(struct store *s, const char context[STORE_HASH_HEX], const char *head,
		      int (*fn)(void *data, const void *blob, size_t len), void *data, size_t *n)
{
	*n = 0;
	sqlite3_stmt *q;
	int rc = store_i_prepare(s, "SELECT path, body, producer, checksum FROM fact_state_parts "
				 "WHERE context=?1 AND head=?2 ORDER BY path", &q);
	if (rc)
		return rc;
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, head, -1, SQLITE_TRANSIENT);
	int step;
	while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(q, 0);
		const void *b = sqlite3_column_blob(q, 1);
		size_t len = (size_t)sqlite3_column_bytes(q, 1);
		const char *producer = (const char *)sqlite3_column_text(q, 2);
		const char *sum = (const char *)sqlite3_column_text(q, 3);
		char want[STORE_HASH_HEX];
		if (!path || !b || !producer || strcmp(producer, store_i_producer()) || !sum) {
			rc = err_set(GA_ENOTFOUND, "facts state: a part of another build");
			break;
		}
		part_checksum(context, head, path, b, len, want);
		if (strcmp(sum, want)) {
			s->st.untrusted++;
			rc = err_set(GA_ENOTFOUND, "facts state: a part that fails its checksum");
			break;
		}
		rc = fn(data, b, len);
		(*n)++;
	}
	if (!rc && step != SQLITE_DONE)
		rc = store_i_db_err(s, "facts state");
	sqlite3_finalize(q);
	return rc;
}

static int exec_bound(struct store *s, const char *sql, const char *context, const char *head)
{
	sqlite3_stmt *q;
	int rc = store_i_prepare(s, sql, &q);
	if (rc)
		return rc;
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, head, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(q) != SQLITE_DONE)
		rc = store_i_db_err(s, "facts state");
	sqlite3_finalize(q);
	return rc;
}

int store_state_put(struct store *s, const char context[STORE_HASH_HEX], const char *head, const char *stamp,
		    const void *blob, size_t len)
{
	if (len > (size_t)INT32_MAX)
		return err_set(GA_EINVAL, "facts state: %zu bytes, too large to keep", len);
	int rc = store_i_begin(s);
	sqlite3_stmt *q = NULL;
	if (rc || (rc = exec_bound(s, "DELETE FROM fact_state_parts WHERE context=?1 AND head=?2", context, head)) ||
	    (rc = store_i_prepare(s, "INSERT OR REPLACE INTO fact_states VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", &q))) {
		if (!rc)
			store_i_commit(s);
		return rc;
	}
	char bsum[STORE_HASH_HEX], sum[STORE_HASH_HEX];
	store_hash_buf(blob, len, bsum);
	state_checksum(context, head, stamp, bsum, sum);
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, head, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, stamp, -1, SQLITE_TRANSIENT);
	sqlite3_bind_blob(q, 4, blob, (int)len, SQLITE_STATIC);
	sqlite3_bind_text(q, 5, bsum, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 6, (sqlite3_int64)time(NULL));
	sqlite3_bind_text(q, 7, store_i_producer(), -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 8, sum, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(q) != SQLITE_DONE)
		rc = store_i_db_err(s, "facts state");
	sqlite3_finalize(q);
	int crc = store_i_commit(s);
	return rc ? rc : crc;
}

int store_state_put_parts(struct store *s, const char context[STORE_HASH_HEX], const char *head, const char *stamp,
			  char *const *paths, void *const *blobs, const size_t *lens, size_t n)
{
	int rc = store_i_begin(s);
	if (rc)
		return rc;
	/* the state row takes the new stamp: its checksum again over its blob's hash */
	sqlite3_stmt *q = NULL;
	char *bsum = NULL;
	if (!(rc = store_i_prepare(s, "SELECT body_sum FROM fact_states WHERE context=?1 AND head=?2", &q))) {
		sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(q, 2, head, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0))
			bsum = xstrdup((const char *)sqlite3_column_text(q, 0));
		else
			rc = err_set(GA_ENOTFOUND, "no facts state to add parts to");
		sqlite3_finalize(q);
	}
	if (!rc && !(rc = store_i_prepare(s, "UPDATE fact_states SET stamp=?3, checksum=?4, stored=?5 "
					  "WHERE context=?1 AND head=?2", &q))) {
		char sum[STORE_HASH_HEX];
		state_checksum(context, head, stamp, bsum, sum);
		sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(q, 2, head, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(q, 3, stamp, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(q, 4, sum, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(q, 5, (sqlite3_int64)time(NULL));
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = store_i_db_err(s, "facts state");
		sqlite3_finalize(q);
	}
	free(bsum);
	if (!rc)
		rc = store_i_prepare(s, "INSERT OR REPLACE INTO fact_state_parts VALUES(?1, ?2, ?3, ?4, ?5, ?6)", &q);
	for (size_t i = 0; !rc && i < n; i++) {
		char sum[STORE_HASH_HEX];
		part_checksum(context, head, paths[i], blobs[i], lens[i], sum);
		sqlite3_reset(q);
		sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(q, 2, head, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(q, 3, paths[i], -1, SQLITE_TRANSIENT);
		sqlite3_bind_blob(q, 4, blobs[i], (int)lens[i], SQLITE_STATIC);
		sqlite3_bind_text(q, 5, store_i_producer(), -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 6, sum, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = store_i_db_err(s, "facts state");
	}
	if (q)
		sqlite3_finalize(q);
	int crc = store_i_commit(s);
	return rc ? rc : crc;
}
