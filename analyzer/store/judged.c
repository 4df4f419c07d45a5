/* The result cache's fact tables (store.h): results judged with the tree's
 * facts, and the tree's facts themselves. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>
#include "gfpaudit/store.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/version.h"
#include "store_impl.h"

/* Versions kept per (path, context): each facts pass of a run may judge a
 * file once, and a warm run replays them. */
#define JUDGED_KEEP 8
/* Run records kept per context: runs over different sets of files
 * (subdirectories, shards) share a context. */
#define RUNS_KEEP 16

int store_i_judged_prepare(struct store *s)
{
	int rc;
	/* the facts passes' lookup reads the side row too: fresh() asks about its consulted keys */
	if ((rc = store_i_prepare(s, "SELECT j.incset, j.digest, j.result, j.producer, j.checksum, m.sum, m.body "
				  "FROM judged j LEFT JOIN judged_more m ON m.path=j.path AND m.context=j.context "
				  "AND m.content=j.content AND m.incset=j.incset AND m.digest=j.digest "
				  "WHERE j.path=?1 AND j.context=?2 AND j.content=?3 ORDER BY j.stored DESC, j.rowid DESC",
				  &s->judged_get)) ||
	    (rc = store_i_prepare(s, "INSERT OR REPLACE INTO judged VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
				  &s->judged_put)) ||
	    (rc = store_i_prepare(s, "DELETE FROM judged WHERE path=?1 AND context=?2 AND rowid NOT IN "
				  "(SELECT rowid FROM judged WHERE path=?1 AND context=?2 "
				  "ORDER BY stored DESC, rowid DESC LIMIT " G_STRINGIFY(JUDGED_KEEP) ")",
				  &s->judged_prune)) ||
	    (rc = store_i_prepare(s, "SELECT j.incset, j.result, j.producer, j.checksum, m.sum FROM judged j "
				  "LEFT JOIN judged_more m ON m.path=j.path AND m.context=j.context AND "
				  "m.content=j.content AND m.incset=j.incset AND m.digest=j.digest WHERE j.path=?1 AND "
				  "j.context=?2 AND j.content=?3 AND j.digest=?4 ORDER BY j.stored DESC, j.rowid DESC",
				  &s->judged_by_digest)) ||
	    (rc = store_i_prepare(s, "SELECT body, producer, checksum FROM runs WHERE context=?1 AND key=?2",
				  &s->run_get)) ||
	    (rc = store_i_prepare(s, "INSERT OR REPLACE INTO runs VALUES(?1, ?2, ?3, ?4, ?5, ?6)", &s->run_put)) ||
	    (rc = store_i_prepare(s, "DELETE FROM runs WHERE context=?1 AND rowid NOT IN (SELECT rowid FROM runs "
				  "WHERE context=?1 ORDER BY stored DESC, rowid DESC LIMIT " G_STRINGIFY(RUNS_KEEP) ")",
				  &s->run_prune)) ||
	    (rc = store_i_prepare(s, "SELECT gen FROM treefacts_gen WHERE context=?1", &s->tree_gen)))
		return rc;
	return 0;
}

void store_i_judged_finalize(struct store *s)
{
	sqlite3_finalize(s->judged_get);
	sqlite3_finalize(s->judged_put);
	sqlite3_finalize(s->judged_prune);
	sqlite3_finalize(s->judged_by_digest);
	sqlite3_finalize(s->run_get);
	sqlite3_finalize(s->run_put);
	sqlite3_finalize(s->run_prune);
	sqlite3_finalize(s->tree_gen);
}

/* the row checksum covers the digest too (it is part of the key), and
 * its side row's hash (more.c) */
void store_i_judged_checksum(const struct store_key *k, sqlite3_int64 inc, const char *digest, const char *more,
			     const char *txt, char out[STORE_HASH_HEX])
{
	char *prefix = store_i_more_prefix(digest ? digest : "", more);
	store_i_row_checksum2(k, inc, prefix, txt, out);
	free(prefix);
}

int store_judged_get(struct store *s, const struct store_key *k,
		     bool (*fresh)(void *data, const struct file_result *r), void *data,
		     struct file_result **out)
{
	*out = NULL;
	int rc = GA_ENOTFOUND, step;
	sqlite3_stmt *q = s->judged_get;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, k->path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, k->context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, k->content, -1, SQLITE_TRANSIENT);
	while (rc == GA_ENOTFOUND && (step = sqlite3_step(q)) == SQLITE_ROW) {
		sqlite3_int64 inc = sqlite3_column_int64(q, 0);
		const char *digest = (const char *)sqlite3_column_text(q, 1);
		const char *txt = (const char *)sqlite3_column_text(q, 2);
		const char *producer = (const char *)sqlite3_column_text(q, 3);
		const char *sum = (const char *)sqlite3_column_text(q, 4);
		const char *more = (const char *)sqlite3_column_text(q, 5);
		const char *body = (const char *)sqlite3_column_text(q, 6);
		char want[STORE_HASH_HEX];
		store_i_judged_checksum(k, inc, digest, more, txt, want);
		if (!store_i_row_trusted(s, inc, producer, sum, want))
			continue;
		if (!store_i_more_intact(more, body, (size_t)sqlite3_column_bytes(q, 6))) { /* the side row was changed */
			s->st.untrusted++;
			continue;
		}
		struct file_result *r = NULL;
		if (store_i_result_read(txt, STORE_MORE_JUDGED, k, inc, digest, NULL, &r) == 0 && r->facts_digest &&
		    !strcmp(r->facts_digest, digest)) {
			r->deferred = xstrdup(body);
			if (file_result_load_deferred(r) == 0 && fresh(data, r)) {
				*out = r;
				rc = 0;
				continue;
			}
		}
		err_clear();
		file_result_free(r);
	}
	return store_i_lookup_end(s, q, rc, step);
}

int store_judged_put(struct store *s, const struct store_key *k, const struct file_result *r)
{
	if (!r->facts_digest)
		return err_set(GA_EINVAL, "cache: a judged result without its facts digest");
	int rc = store_i_begin(s);
	if (rc)
		return rc;
	sqlite3_int64 inc = 0;
	if ((rc = store_i_incset_store(s, (const char *const *)r->includes, r->nincludes, &inc)))
		return rc;
	struct store_i_row row;
	store_i_split(r, false, &row);
	char *txt = row.keep;
	row.keep = NULL;
	char sum[STORE_HASH_HEX];
	store_i_judged_checksum(k, inc, r->facts_digest, row.sum, txt, sum);
	sqlite3_stmt *q = s->judged_put;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, k->path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, k->context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, k->content, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 4, inc);
	sqlite3_bind_text(q, 5, r->facts_digest, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 6, txt, -1, free);
	sqlite3_bind_int64(q, 7, (sqlite3_int64)time(NULL));
	sqlite3_bind_text(q, 8, store_i_producer(), -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 9, sum, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(q) != SQLITE_DONE)
		rc = store_i_db_err(s, "store");
	sqlite3_reset(q);
	if (!rc)
		rc = store_i_more_put(s, STORE_MORE_JUDGED, k, inc, r->facts_digest, &row);
	store_i_row_release(&row);
	if (!rc) {
		q = s->judged_prune;
		sqlite3_reset(q);
		sqlite3_bind_text(q, 1, k->path, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(q, 2, k->context, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = store_i_db_err(s, "prune");
		sqlite3_reset(q);
		if (!rc)
			rc = store_i_more_prune(s, STORE_MORE_JUDGED, k);
	}
	s->st.puts++;
	store_i_batch(s);
	return rc;
}

int store_judged_get_digest(struct store *s, const struct store_key *k, const char *digest, struct file_result **out)
{
	*out = NULL;
	int rc = GA_ENOTFOUND, step;
	sqlite3_stmt *q = s->judged_by_digest;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, k->path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, k->context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, k->content, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 4, digest, -1, SQLITE_TRANSIENT);
	while (rc == GA_ENOTFOUND && (step = sqlite3_step(q)) == SQLITE_ROW) {
		sqlite3_int64 inc = sqlite3_column_int64(q, 0);
		const char *txt = (const char *)sqlite3_column_text(q, 1);
		const char *producer = (const char *)sqlite3_column_text(q, 2);
		const char *sum = (const char *)sqlite3_column_text(q, 3);
		const char *more = (const char *)sqlite3_column_text(q, 4);
		char want[STORE_HASH_HEX];
		store_i_judged_checksum(k, inc, digest, more, txt, want);
		if (!store_i_row_trusted(s, inc, producer, sum, want))
			continue;
		struct file_result *r = NULL;
		if (store_i_result_read(txt, STORE_MORE_JUDGED, k, inc, digest, more, &r) == 0 && r->facts_digest &&
		    !strcmp(r->facts_digest, digest)) {
			*out = r;
			rc = 0;
		} else {
			err_clear();
			file_result_free(r);
		}
	}
	return store_i_lookup_end(s, q, rc, step);
}

/* ---- run records ---- */

static void run_checksum(const char *context, const char *key, const char *body, char out[STORE_HASH_HEX])
{
	char *txt = xasprintf("gfpaudit-run %s\n%s\n%s\n%s", store_i_producer(), context, key, body);
	store_hash_buf(txt, strlen(txt), out);
	free(txt);
}

int store_run_get(struct store *s, const char context[STORE_HASH_HEX], const char *key, char **body)
{
	*body = NULL;
	sqlite3_stmt *q = s->run_get;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, key, -1, SQLITE_TRANSIENT);
	int step = sqlite3_step(q), rc = GA_ENOTFOUND;
	if (step == SQLITE_ROW) {
		const char *b = (const char *)sqlite3_column_text(q, 0);
		const char *producer = (const char *)sqlite3_column_text(q, 1);
		const char *sum = (const char *)sqlite3_column_text(q, 2);
		char want[STORE_HASH_HEX];
		run_checksum(context, key, b ? b : "", want);
		if (b && producer && !strcmp(producer, store_i_producer()) && sum && !strcmp(sum, want)) {
			*body = xstrdup(b);
			rc = 0;
		} else {
			s->st.untrusted++;
		}
	} else if (step != SQLITE_DONE) {
		rc = store_i_db_err(s, "run record");
	}
	sqlite3_reset(q);
	return rc == GA_ENOTFOUND ? err_set(GA_ENOTFOUND, "no run record") : rc;
}

int store_run_put(struct store *s, const char context[STORE_HASH_HEX], const char *key, const char *body)
{
	int rc = store_i_begin(s);
	if (rc)
		return rc;
	char sum[STORE_HASH_HEX];
	run_checksum(context, key, body, sum);
	sqlite3_stmt *q = s->run_put;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, body, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 4, (sqlite3_int64)time(NULL));
	sqlite3_bind_text(q, 5, store_i_producer(), -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 6, sum, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(q) != SQLITE_DONE)
		rc = store_i_db_err(s, "run record");
	sqlite3_reset(q);
	if (!rc) {
		q = s->run_prune;
		sqlite3_reset(q);
		sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = store_i_db_err(s, "prune");
		sqlite3_reset(q);
	}
	int crc = store_i_commit(s);
	return rc ? rc : crc;
}

/* ---- the tree's facts ---- */

int store_tree_gen(struct store *s, const char context[STORE_HASH_HEX], long long *gen)
{
	*gen = 0;
	sqlite3_stmt *q = s->tree_gen;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	int step = sqlite3_step(q), rc = 0;
	if (step == SQLITE_ROW)
		*gen = sqlite3_column_int64(q, 0);
	else if (step != SQLITE_DONE)
		rc = store_i_db_err(s, "tree facts");
	sqlite3_reset(q);
	return rc;
}

int store_tree_begin(struct store *s, const char context[STORE_HASH_HEX], const char *root)
{
	int rc = store_i_begin(s);
	sqlite3_stmt *q = NULL;
	for (int t = 0; !rc && t < 2; t++) {
		if ((rc = store_i_prepare(s, t ? "DELETE FROM treefacts_imported WHERE context=?1"
					       : "DELETE FROM treefacts WHERE context=?1", &q)))
			return rc;
		sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = store_i_db_err(s, "tree facts");
		sqlite3_finalize(q);
	}
	if (rc || (rc = store_i_prepare(s, "INSERT OR REPLACE INTO treefacts_built VALUES(?1, ?2, 0, ?3)", &q)))
		return rc;
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, root, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 3, (sqlite3_int64)time(NULL));
	if (sqlite3_step(q) != SQLITE_DONE)
		rc = store_i_db_err(s, "tree facts");
	sqlite3_finalize(q);
	return rc;
}

int store_tree_put(struct store *s, const char context[STORE_HASH_HEX], const struct store_tree_file *f)
{
	int rc = store_i_begin(s);
	sqlite3_stmt *q = NULL;
	if (rc || (rc = store_i_prepare(s, "INSERT OR REPLACE INTO treefacts VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)", &q)))
		return rc;
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, f->path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, f->abs, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 4, f->content, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 5, f->size);
	sqlite3_bind_int64(q, 6, f->mtime);
	sqlite3_bind_text(q, 7, f->facts ? f->facts : "", -1, SQLITE_TRANSIENT);
	if (sqlite3_step(q) != SQLITE_DONE)
		rc = store_i_db_err(s, "tree facts");
	sqlite3_finalize(q);
	/* judged here now, whoever judged it before */
	if (!rc && !(rc = store_i_prepare(s, "DELETE FROM treefacts_imported WHERE context=?1 AND path=?2", &q))) {
		sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(q, 2, f->path, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = store_i_db_err(s, "tree facts");
		sqlite3_finalize(q);
	}
	store_i_batch(s);
	return rc;
}

int store_tree_finish(struct store *s, const char context[STORE_HASH_HEX])
{
	int rc = store_i_begin(s);
	sqlite3_stmt *q = NULL;
	if (rc || (rc = store_i_prepare(s, "UPDATE treefacts_built SET files=(SELECT count(*) FROM treefacts "
					"WHERE context=?1) WHERE context=?1", &q)))
		return rc;
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(q) != SQLITE_DONE)
		rc = store_i_db_err(s, "tree facts");
	sqlite3_finalize(q);
	int crc = store_i_commit(s);
	return rc ? rc : crc;
}

int store_tree_info(struct store *s, const char context[STORE_HASH_HEX], char **root, size_t *files)
{
	sqlite3_stmt *q = NULL;
	int rc = store_i_prepare(s, "SELECT root, files FROM treefacts_built WHERE context=?1", &q);
	if (rc)
		return rc;
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	int step = sqlite3_step(q);
	if (step == SQLITE_ROW) {
		if (root)
			*root = xstrdup((const char *)sqlite3_column_text(q, 0));
		if (files)
			*files = (size_t)sqlite3_column_int64(q, 1);
	} else {
		rc = step == SQLITE_DONE ? err_set(GA_ENOTFOUND, "tree facts not built") : store_i_db_err(s, "tree facts");
	}
	sqlite3_finalize(q);
	return rc;
}

int store_tree_each(struct store *s, const char context[STORE_HASH_HEX],
		    bool (*want)(void *data, const char *abs),
		    int (*fn)(void *data, const struct store_tree_file *f), void *data)
{
	sqlite3_stmt *q = NULL, *fq = NULL;
	/* the facts (most of a row) only of the rows wanted: a whole tree's
	 * audit wants none (it judges every file itself) */
	int rc = store_i_prepare(s, "SELECT path, abs, content, size, mtime, rowid FROM treefacts "
				 "WHERE context=?1 ORDER BY path", &q);
	if (rc || (rc = store_i_prepare(s, "SELECT facts FROM treefacts WHERE rowid=?1", &fq))) {
		sqlite3_finalize(q);
		return rc;
	}
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	int step;
	while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
		struct store_tree_file f = {
			.path = (const char *)sqlite3_column_text(q, 0),
			.abs = (const char *)sqlite3_column_text(q, 1),
			.size = sqlite3_column_int64(q, 3),
			.mtime = sqlite3_column_int64(q, 4),
		};
		snprintf(f.content, sizeof(f.content), "%s", (const char *)sqlite3_column_text(q, 2));
		sqlite3_reset(fq);
		if (!want || want(data, f.abs ? f.abs : "")) {
			sqlite3_bind_int64(fq, 1, sqlite3_column_int64(q, 5));
			int fstep = sqlite3_step(fq);
			if (fstep == SQLITE_ROW)
				f.facts = (const char *)sqlite3_column_text(fq, 0);
			else if (fstep != SQLITE_DONE)
				rc = store_i_db_err(s, "tree facts");
		}
		if (!rc)
			rc = fn(data, &f);
	}
	if (!rc && step != SQLITE_DONE)
		rc = store_i_db_err(s, "tree facts");
	sqlite3_finalize(q);
	sqlite3_finalize(fq);
	return rc;
}

