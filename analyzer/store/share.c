/* Copying another cache in (store.h store_import): a shard's, another
 * machine's, a CI run's.  Rows are keyed by the tool, the options, the tree
 * and the contents (store.h), so rows of a cache made elsewhere are right
 * here whenever their keys match; the rest are never looked up. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gfpaudit/err.h"
#include "gfpaudit/store.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/version.h"
#include "store_impl.h"

/* The attached source's schema, or NULL (new string). */
static char *attached_schema(struct store *s)
{
	sqlite3_stmt *q = NULL;
	if (sqlite3_prepare_v2(s->db, "SELECT v FROM src.meta WHERE k='schema'", -1, &q, NULL) != SQLITE_OK) {
		sqlite3_finalize(q);
		return NULL;
	}
	char *v = sqlite3_step(q) == SQLITE_ROW ? xstrdup((const char *)sqlite3_column_text(q, 0)) : NULL;
	sqlite3_finalize(q);
	return v;
}

static bool attached_has(struct store *s, const char *table)
{
	sqlite3_stmt *q = NULL;
	bool has = false;
	if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM src.sqlite_master WHERE name=?1", -1, &q, NULL) ==
	    SQLITE_OK) {
		sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
		has = sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0) > 0;
	}
	sqlite3_finalize(q);
	return has;
}

/* The tree's facts.  A row the source judged replaces ours; a row it
 * imported itself only fills a gap: after a round of shard builds against
 * one imported cache, each file's row comes from the shard that judged it.
 * Both are marked imported here. */
static int import_tree_facts(struct store *s, struct store_import_stats *st)
{
	sqlite3_stmt *q = NULL;
	int rc = store_i_prepare(s, "SELECT count(*) FROM src.treefacts", &q);
	if (rc)
		return rc;
	if (sqlite3_step(q) == SQLITE_ROW)
		st->tree_rows = (size_t)sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	bool marks = attached_has(s, "treefacts_imported");
	if ((rc = store_i_exec(s, marks ? "CREATE TEMP TABLE src_judged AS SELECT t.context, t.path FROM src.treefacts t "
				      "WHERE NOT EXISTS (SELECT 1 FROM src.treefacts_imported i "
				      "  WHERE i.context=t.context AND i.path=t.path);"
				    /* a cache of an older gfpaudit: it judged every row */
				    : "CREATE TEMP TABLE src_judged AS SELECT context, path FROM src.treefacts;")))
		return rc;
	return store_i_exec(s, "INSERT OR IGNORE INTO treefacts_imported SELECT context, path FROM src_judged;"
			    "INSERT OR IGNORE INTO treefacts_imported SELECT t.context, t.path FROM src.treefacts t "
			    "WHERE NOT EXISTS (SELECT 1 FROM treefacts d WHERE d.context=t.context AND d.path=t.path);"
			    "INSERT OR REPLACE INTO treefacts SELECT t.* FROM src.treefacts t JOIN src_judged j "
			    "  ON j.context=t.context AND j.path=t.path;"
			    "INSERT OR IGNORE INTO treefacts SELECT * FROM src.treefacts;"
			    "DROP TABLE src_judged;"
			    "INSERT OR IGNORE INTO treefacts_built SELECT * FROM src.treefacts_built;"
			    "INSERT OR IGNORE INTO contexts SELECT * FROM src.contexts;"
			    "UPDATE treefacts_built SET files=(SELECT count(*) FROM treefacts t "
			    "WHERE t.context=treefacts_built.context);");
}

/* The include set `digest` of the source under this cache's id (0: none). */
static int incset_copy(struct store *s, const char *digest, const char *body, sqlite3_int64 *id)
{
	sqlite3_stmt *q = s->incset_put;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, digest, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, body, -1, SQLITE_TRANSIENT);
	int rc = 0;
	if (sqlite3_step(q) == SQLITE_ROW)
		*id = sqlite3_column_int64(q, 0);
	else
		rc = store_i_db_err(s, "import include set");
	sqlite3_reset(q);
	return rc;
}

/* Results (judged: the judged table) written by this version whose
 * checksum holds, re-keyed to this cache's include-set ids.  A row we
 * have already is kept. */
static int import_rows(struct store *s, bool judged, size_t *copied, size_t *skipped)
{
	/* a cache without side rows (more.c) was written by an older version:
	 * none of its rows is this version's */
	if (!attached_has(s, judged ? "judged_more" : "results_more"))
		return 0;
	const char *sel = judged
		? "SELECT r.path, r.context, r.content, r.incset, r.result, r.stored, r.producer, r.checksum, "
		  "i.digest, i.body, r.digest, m.sum, m.body FROM src.judged r LEFT JOIN src.incsets i ON i.id=r.incset "
		  "LEFT JOIN src.judged_more m ON m.path=r.path AND m.context=r.context AND m.content=r.content "
		  "AND m.incset=r.incset AND m.digest=r.digest"
		: "SELECT r.path, r.context, r.content, r.incset, r.result, r.stored, o.producer, o.checksum, "
		  "i.digest, i.body, NULL, m.sum, m.body FROM src.results r JOIN src.origins o ON o.path=r.path "
		  "AND o.context=r.context AND o.content=r.content AND o.incset=r.incset "
		  "LEFT JOIN src.incsets i ON i.id=r.incset LEFT JOIN src.results_more m ON m.path=r.path "
		  "AND m.context=r.context AND m.content=r.content AND m.incset=r.incset";
	const char *ins = judged ? "INSERT OR IGNORE INTO judged VALUES(?1, ?2, ?3, ?4, ?11, ?5, ?6, ?7, ?8)"
				 : "INSERT OR IGNORE INTO results VALUES(?1, ?2, ?3, ?4, ?5, ?6)";
	sqlite3_stmt *q = NULL, *put = NULL, *origin = NULL;
	int rc = store_i_prepare(s, sel, &q);
	if (rc || (rc = store_i_prepare(s, ins, &put)) ||
	    (!judged && (rc = store_i_prepare(s, "INSERT OR IGNORE INTO origins VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
					      &origin))))
		goto out;
	int step = SQLITE_DONE;
	while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
		struct store_key k = { .path = (const char *)sqlite3_column_text(q, 0) };
		snprintf(k.context, sizeof(k.context), "%s", (const char *)sqlite3_column_text(q, 1));
		snprintf(k.content, sizeof(k.content), "%s", (const char *)sqlite3_column_text(q, 2));
		sqlite3_int64 inc = sqlite3_column_int64(q, 3), here = 0;
		bool copy = false;
		const char *txt = (const char *)sqlite3_column_text(q, 4);
		const char *producer = (const char *)sqlite3_column_text(q, 6);
		const char *sum = (const char *)sqlite3_column_text(q, 7);
		const char *idigest = (const char *)sqlite3_column_text(q, 8);
		const char *ibody = (const char *)sqlite3_column_text(q, 9);
		const char *fdigest = judged ? (const char *)sqlite3_column_text(q, 10) : NULL;
		const char *msum = (const char *)sqlite3_column_text(q, 11);
		const char *mbody = (const char *)sqlite3_column_text(q, 12);
		char want[STORE_HASH_HEX];
		if (judged)
			store_i_judged_checksum(&k, inc, fdigest ? fdigest : "", msum, txt, want);
		else
			store_i_row_checksum(&k, inc, msum, txt, want);
		if (!k.path || !txt || !producer || strcmp(producer, store_i_producer()) || !sum || strcmp(sum, want) ||
		    (inc && (!idigest || !ibody)) || !store_i_more_intact(msum, mbody, (size_t)sqlite3_column_bytes(q, 12))) {
			(*skipped)++;
			continue;
		}
		if (inc && (rc = incset_copy(s, idigest, ibody, &here)))
			break;
		if (judged)
			store_i_judged_checksum(&k, here, fdigest, msum, txt, want);
		else
			store_i_row_checksum(&k, here, msum, txt, want);
		sqlite3_stmt *w[2] = { put, origin };
		for (int i = 0; !rc && i < 2 && w[i]; i++) {
			sqlite3_reset(w[i]);
			sqlite3_bind_text(w[i], 1, k.path, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(w[i], 2, k.context, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(w[i], 3, k.content, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int64(w[i], 4, here);
			if (i == 1) {
				sqlite3_bind_text(w[i], 5, producer, -1, SQLITE_TRANSIENT);
				sqlite3_bind_text(w[i], 6, want, -1, SQLITE_TRANSIENT);
			} else {
				sqlite3_bind_text(w[i], 5, txt, -1, SQLITE_TRANSIENT);
				sqlite3_bind_int64(w[i], 6, sqlite3_column_int64(q, 5));
				if (judged) {
					sqlite3_bind_text(w[i], 7, producer, -1, SQLITE_TRANSIENT);
					sqlite3_bind_text(w[i], 8, want, -1, SQLITE_TRANSIENT);
					sqlite3_bind_text(w[i], 11, fdigest, -1, SQLITE_TRANSIENT);
				}
			}
			if (sqlite3_step(w[i]) != SQLITE_DONE)
				rc = store_i_db_err(s, "import");
			else if (i == 0 && (copy = sqlite3_changes(s->db) > 0))
				(*copied)++;
		}
		if (!rc && copy) { /* its side row, under the same key */
			struct store_i_row row = { .more = (char *)mbody };
			snprintf(row.sum, sizeof(row.sum), "%s", msum);
			rc = store_i_more_put(s, judged ? STORE_MORE_JUDGED : STORE_MORE_RESULTS, &k, here, fdigest, &row);
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = store_i_db_err(s, "import");
out:
	sqlite3_finalize(q);
	sqlite3_finalize(put);
	sqlite3_finalize(origin);
	return rc;
}

int store_import(struct store *s, const char *src, struct store_import_stats *st)
{
	memset(st, 0, sizeof(*st));
	struct stat sb;
	if (stat(src, &sb) || !S_ISREG(sb.st_mode))
		return err_set(GA_ENOTFOUND, "cache: %s: no such cache file", src);
	/* ATTACH is refused inside a transaction */
	int rc = store_i_commit(s);
	sqlite3_stmt *q = NULL;
	if (rc || (rc = store_i_prepare(s, "ATTACH DATABASE ?1 AS src", &q)))
		return rc;
	sqlite3_bind_text(q, 1, src, -1, SQLITE_TRANSIENT);
	int step = sqlite3_step(q);
	sqlite3_finalize(q);
	if (step != SQLITE_DONE)
		return err_set(GA_EINVAL, "cache: '%s' is not a gfpaudit cache (%s)", src, sqlite3_errmsg(s->db));
	char *schema = attached_schema(s);
	if (!schema || strcmp(schema, STORE_SCHEMA))
		rc = err_set(GA_EINVAL, "cache: '%s' is not a gfpaudit cache of this layout (%s)", src,
			     schema ? "another schema" : "no gfpaudit tables");
	free(schema);
	if (!rc && !(rc = store_i_begin(s)) && !(rc = import_tree_facts(s, st)) &&
	    !(rc = import_rows(s, false, &st->results, &st->skipped)) && attached_has(s, "judged"))
		rc = import_rows(s, true, &st->judged, &st->skipped);
	if (!rc)
		rc = store_i_commit(s);
	/* keep the first error's message, not the clean-up's */
	char *why = rc ? xstrdup(err_last()) : NULL;
	if (s->in_tx) {
		store_i_exec(s, "ROLLBACK");
		s->in_tx = 0;
	}
	int drc = store_i_exec(s, "DETACH DATABASE src");
	if (why)
		err_set(rc, "%s", why);
	free(why);
	return rc ? rc : drc;
}
