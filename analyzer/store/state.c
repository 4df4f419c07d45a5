/* Where the facts passes ended: one blob per context and head (store.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sqlite3.h>
#include "gfpaudit/store.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "store_impl.h"

/* the blob's hash, under what it is filed as and who wrote it */
static void state_checksum(const char *context, const char *head, const char *stamp, const void *blob, size_t len,
			   char out[STORE_HASH_HEX])
{
	char inner[STORE_HASH_HEX];
	store_hash_buf(blob, len, inner);
	char *txt = xasprintf("gfpaudit-state %s\n%s\n%s\n%s\n%s", store_i_producer(), context, head, stamp, inner);
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
	int rc = store_i_prepare(s, "SELECT body, producer, checksum, stamp FROM states WHERE context=?1 AND head=?2",
				 &q);
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
		char want[STORE_HASH_HEX];
		if (b && n && producer && !strcmp(producer, store_i_producer()) && sum && st) {
			state_checksum(context, head, st, b, n, want);
			if (!strcmp(sum, want)) {
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

int store_state_put(struct store *s, const char context[STORE_HASH_HEX], const char *head, const char *stamp,
		    const void *blob, size_t len)
{
	if (len > (size_t)INT32_MAX)
		return err_set(GA_EINVAL, "facts state: %zu bytes, too large to keep", len);
	int rc = store_i_begin(s);
	if (rc)
		return rc;
	sqlite3_stmt *q;
	if ((rc = store_i_prepare(s, "INSERT OR REPLACE INTO states VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)", &q)))
		return rc;
	char sum[STORE_HASH_HEX];
	state_checksum(context, head, stamp, blob, len, sum);
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, head, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, stamp, -1, SQLITE_TRANSIENT);
	sqlite3_bind_blob(q, 4, blob, (int)len, SQLITE_STATIC);
	sqlite3_bind_int64(q, 5, (sqlite3_int64)time(NULL));
	sqlite3_bind_text(q, 6, store_i_producer(), -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 7, sum, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(q) != SQLITE_DONE)
		rc = store_i_db_err(s, "facts state");
	sqlite3_finalize(q);
	int crc = store_i_commit(s);
	return rc ? rc : crc;
}
