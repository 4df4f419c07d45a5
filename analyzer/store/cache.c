/* The result cache in SQLite (see store.h for what a key covers). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <git2.h>
#include <glib.h>
#include <jansson.h>
#include <sqlite3.h>
#include "gfpaudit/datadir.h"
#include "gfpaudit/store.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/fs.h"
#include "gfpaudit/version.h"
#include "store_impl.h"

/* Contents kept per (path, context): a pre-commit hook alternates between
 * the staged and the committed version of a file. */
#define STORE_KEEP_VERSIONS 4
#define STORE_BATCH 512
/* A write transaction is committed after this many seconds at most, and
 * whenever the caller is about to wait (store_commit): another process
 * waits for the write lock no longer than that. */
#define STORE_TX_SEC 0.25


int store_i_db_err(struct store *s, const char *what)
{
	return err_set(GA_EIO, "cache: %s: %s", what, sqlite3_errmsg(s->db));
}

char *store_default_path(void)
{
	const char *x = getenv("XDG_CACHE_HOME");
	if (x && *x == '/')
		return xasprintf("%s/gfpaudit/cache.sqlite", x);
	const char *h = getenv("HOME");
	if (h && *h)
		return xasprintf("%s/.cache/gfpaudit/cache.sqlite", h);
	return NULL;
}

/* The directory that holds `file`. */
static int mkdirs(const char *file)
{
	const char *slash = strrchr(file, '/');
	if (!slash || slash == file)
		return 0;
	char *dir = xstrndup(file, (size_t)(slash - file));
	int rc = fs_mkdir_p(dir, 0777);
	free(dir);
	if (rc) {
		char *why = xstrdup(err_last());
		rc = err_set(rc, "cache: %s", why);
		free(why);
	}
	return rc;
}

int store_i_exec(struct store *s, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int rc = err_set(GA_EIO, "cache: %s", msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return rc;
	}
	return 0;
}

int store_i_prepare(struct store *s, const char *sql, sqlite3_stmt **st)
{
	return sqlite3_prepare_v2(s->db, sql, -1, st, NULL) == SQLITE_OK ? 0 : store_i_db_err(s, "prepare");
}

/* How long a statement waits for another process's write lock, in ms
 * (GFPAUDIT_TEST_BUSY_MS shortens it for the tests). */
static int busy_ms(void)
{
	const char *e = getenv("GFPAUDIT_TEST_BUSY_MS");
	int v = e && *e ? atoi(e) : 0;
	return v > 0 ? v : 30000;
}

static bool busy_code(int rc)
{
	return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
}

/* exec, retried while another process holds a lock the busy handler does
 * not wait for (a journal-mode switch, a stale WAL snapshot) */
static int exec_retry(struct store *s, const char *sql)
{
	struct timespec t0, now, nap = { 0, 20 * 1000 * 1000 };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		char *msg = NULL;
		int rc = sqlite3_exec(s->db, sql, NULL, NULL, &msg);
		if (rc == SQLITE_OK)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double el = (now.tv_sec - t0.tv_sec) * 1e3 + (now.tv_nsec - t0.tv_nsec) / 1e6;
		if (!busy_code(sqlite3_extended_errcode(s->db)) || el > busy_ms()) {
			int code = err_set(GA_EIO, "cache: %s", msg ? msg : sqlite3_errmsg(s->db));
			sqlite3_free(msg);
			return code;
		}
		sqlite3_free(msg);
		if (sqlite3_get_autocommit(s->db) == 0)
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		nanosleep(&nap, NULL);
	}
}

/* Only regular files (or a new one): '/dev/null' as a cache would leave a
 * world-writable '/dev/null-journal' and keep nothing. */
static int regular_or_absent(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return err_set(GA_EINVAL, "cache: '%s' is not a regular file", path);
	for (const char *suffix = "-wal"; suffix; suffix = !strcmp(suffix, "-wal") ? "-shm" :
	     !strcmp(suffix, "-shm") ? "-journal" : NULL) {
		char *side = xasprintf("%s%s", path, suffix);
		int bad = lstat(side, &st) == 0 && !S_ISREG(st.st_mode);
		free(side);
		if (bad)
			return err_set(GA_EINVAL, "cache: '%s%s' is not a regular file", path, suffix);
	}
	return 0;
}

/* What `FILE --version` says after "gfpaudit " (new string), or NULL. */
static char *version_of(const char *file)
{
	char *argv[] = { (char *)file, (char *)"--version", NULL };
	char *out = NULL;
	gint status = 0;
	if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL))
		return NULL;
	char *v = NULL;
	if (out && !strncmp(out, "gfpaudit ", 9)) {
		v = xstrdup(out + 9);
		v[strcspn(v, "\n")] = 0;
	}
	g_free(out);
	return v;
}

const char *store_i_producer(void)
{
	static char *as_version;
	static bool done;
	if (!done) {
		const char *as = getenv("GFPAUDIT_CACHE_AS");
		as_version = as && *as ? version_of(as) : NULL;
		done = true;
	}
	return as_version ? as_version : gfpaudit_version;
}

/* Each result row has an origin row: the tool version that wrote it and a
 * checksum over its key and its result.  A separate table, so the results
 * table keeps the shape older gfpaudit builds sharing the file write; their
 * rows have no origin that matches, and are analyzed again.  The checksum
 * catches corruption and rows edited or written by anything else; it is no
 * signature (whoever can write the file can recompute it). */
void store_i_row_checksum2(const struct store_key *k, sqlite3_int64 incset, const char *prefix, const char *result,
			   char out[STORE_HASH_HEX])
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "gfpaudit-row %s\n%s\n%s\n%s\n%lld\n", store_i_producer(), k->path, k->context,
		    k->content, (long long)incset);
	size_t plen = prefix ? strlen(prefix) : 0, rlen = result ? strlen(result) : 0;
	/* the git blob id of header, prefix and result (store_hash_buf of
	 * them joined), hashed in place: rows are up to megabytes, and a warm
	 * run checks every row it reads */
	char blob[64];
	int blen = snprintf(blob, sizeof(blob), "blob %zu", sb.len + plen + rlen) + 1;
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA1);
	g_checksum_update(c, (const guchar *)blob, blen);
	g_checksum_update(c, (const guchar *)sb.buf, (gssize)sb.len);
	if (plen)
		g_checksum_update(c, (const guchar *)prefix, (gssize)plen);
	if (rlen)
		g_checksum_update(c, (const guchar *)result, (gssize)rlen);
	snprintf(out, STORE_HASH_HEX, "%s", g_checksum_get_string(c));
	g_checksum_free(c);
	strbuf_release(&sb);
}

void store_i_row_checksum(const struct store_key *k, sqlite3_int64 incset, const char *more, const char *result,
			  char out[STORE_HASH_HEX])
{
	char *prefix = store_i_more_prefix(NULL, more);
	store_i_row_checksum2(k, incset, prefix, result, out);
	free(prefix);
}

/* treefacts_gen counts the changes to a context's tree facts */
#define TREE_GEN_TRIGGER(table, suffix, event, row)                                              \
	"CREATE TRIGGER IF NOT EXISTS " table "_gen_" suffix " AFTER " event " ON " table " BEGIN " \
	"INSERT INTO treefacts_gen VALUES(" row ".context, 1) ON CONFLICT(context) DO UPDATE SET gen=gen+1; END;"

/* The tables, made under the write lock taken up front (two processes
 * creating a fresh cache at once take turns). */
static const char schema_sql[] =
	"BEGIN IMMEDIATE;"
	"CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS incsets(id INTEGER PRIMARY KEY, digest TEXT UNIQUE NOT NULL,"
	"  body TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS results(path TEXT NOT NULL, context TEXT NOT NULL,"
	"  content TEXT NOT NULL, incset INTEGER NOT NULL DEFAULT 0, result TEXT NOT NULL,"
	"  stored INTEGER NOT NULL, PRIMARY KEY(path, context, content, incset));"
	"CREATE TABLE IF NOT EXISTS origins(path TEXT NOT NULL, context TEXT NOT NULL,"
	"  content TEXT NOT NULL, incset INTEGER NOT NULL, producer TEXT NOT NULL, checksum TEXT NOT NULL,"
	"  PRIMARY KEY(path, context, content, incset));"
	"CREATE TABLE IF NOT EXISTS contexts(context TEXT PRIMARY KEY, used INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS stats(dev INTEGER NOT NULL, ino INTEGER NOT NULL,"
	"  size INTEGER NOT NULL, mtime INTEGER NOT NULL, ctime INTEGER NOT NULL,"
	"  content TEXT NOT NULL, PRIMARY KEY(dev, ino));"
	/* judged.c: results judged with the tree's facts, and the
	 * tree's facts (older builds sharing the file ignore both) */
	"CREATE TABLE IF NOT EXISTS judged(path TEXT NOT NULL, context TEXT NOT NULL,"
	"  content TEXT NOT NULL, incset INTEGER NOT NULL, digest TEXT NOT NULL, result TEXT NOT NULL,"
	"  stored INTEGER NOT NULL, producer TEXT NOT NULL, checksum TEXT NOT NULL,"
	"  PRIMARY KEY(path, context, content, incset, digest));"
	/* more.c: the members of a result that only the facts passes read
	 * (its side row; the body last, past what a lookup reads) */
	"CREATE TABLE IF NOT EXISTS results_more(path TEXT NOT NULL, context TEXT NOT NULL,"
	"  content TEXT NOT NULL, incset INTEGER NOT NULL, sum TEXT NOT NULL, body TEXT NOT NULL,"
	"  PRIMARY KEY(path, context, content, incset));"
	"CREATE TABLE IF NOT EXISTS judged_more(path TEXT NOT NULL, context TEXT NOT NULL,"
	"  content TEXT NOT NULL, incset INTEGER NOT NULL, digest TEXT NOT NULL, sum TEXT NOT NULL,"
	"  body TEXT NOT NULL, PRIMARY KEY(path, context, content, incset, digest));"
	"CREATE TABLE IF NOT EXISTS treefacts(context TEXT NOT NULL, path TEXT NOT NULL,"
	"  abs TEXT NOT NULL, content TEXT NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL,"
	"  facts TEXT NOT NULL, PRIMARY KEY(context, path));"
	"CREATE TABLE IF NOT EXISTS treefacts_built(context TEXT PRIMARY KEY, root TEXT NOT NULL,"
	"  files INTEGER NOT NULL, built INTEGER NOT NULL);"
	/* rows copied in by store_tree_import(), not judged here */
	"CREATE TABLE IF NOT EXISTS treefacts_imported(context TEXT NOT NULL, path TEXT NOT NULL,"
	"  PRIMARY KEY(context, path));"
	/* judged.c: a facts pass's record (store.h store_run_get), and
	 * a count of every change to the tree's facts, by any writer
	 * (older builds too: the triggers are the file's) */
	"CREATE TABLE IF NOT EXISTS runs(context TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL,"
	"  stored INTEGER NOT NULL, producer TEXT NOT NULL, checksum TEXT NOT NULL,"
	"  PRIMARY KEY(context, key));"
	"CREATE TABLE IF NOT EXISTS treefacts_gen(context TEXT PRIMARY KEY, gen INTEGER NOT NULL);"
	/* state.c: where the facts passes ended (store.h store_state_get),
	 * and the parts of files changed since, kept beside it */
	"CREATE TABLE IF NOT EXISTS fact_states(context TEXT NOT NULL, head TEXT NOT NULL, stamp TEXT NOT NULL,"
	"  body BLOB NOT NULL, body_sum TEXT NOT NULL, stored INTEGER NOT NULL, producer TEXT NOT NULL,"
	"  checksum TEXT NOT NULL, PRIMARY KEY(context, head));"
	"CREATE TABLE IF NOT EXISTS fact_state_parts(context TEXT NOT NULL, head TEXT NOT NULL, path TEXT NOT NULL,"
	"  body BLOB NOT NULL, producer TEXT NOT NULL, checksum TEXT NOT NULL, PRIMARY KEY(context, head, path));"
	TREE_GEN_TRIGGER("treefacts", "i", "INSERT", "NEW")
	TREE_GEN_TRIGGER("treefacts", "u", "UPDATE", "NEW")
	TREE_GEN_TRIGGER("treefacts", "d", "DELETE", "OLD")
	TREE_GEN_TRIGGER("treefacts_built", "i", "INSERT", "NEW")
	TREE_GEN_TRIGGER("treefacts_built", "u", "UPDATE", "NEW")
	TREE_GEN_TRIGGER("treefacts_built", "d", "DELETE", "OLD")
	"INSERT OR IGNORE INTO meta VALUES('schema', '" STORE_SCHEMA "');"
	"COMMIT;";

int store_open(const char *path, struct store **out)
{
	*out = NULL;
	/* GA_EINVAL: the path cannot be a cache (a special file, a directory
	 * that cannot be made, a file that cannot be opened); GA_EIO: it can,
	 * but the disk does not take what goes in (full, I/O errors) */
	int rc = regular_or_absent(path);
	if (rc)
		return rc;
	if ((rc = mkdirs(path))) {
		char *why = xstrdup(err_last());
		rc = err_set(GA_EINVAL, "%s", why);
		free(why);
		return rc;
	}
	struct store *s = xcalloc(1, sizeof(*s));
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		rc = err_set(GA_EINVAL, "cache: cannot open '%s': %s", path,
			     s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto fail;
	}
	/* shards on one machine share the file: wait for each other's commits */
	sqlite3_busy_timeout(s->db, busy_ms());
	/* the schema goes in under the write lock taken up front, so two
	 * processes creating a fresh cache at once take turns */
	if ((rc = exec_retry(s, "PRAGMA journal_mode=WAL")) || (rc = store_i_exec(s, "PRAGMA synchronous=NORMAL")) ||
	    (rc = exec_retry(s, schema_sql)))
		goto fail;
	sqlite3_stmt *v = NULL;
	if ((rc = store_i_prepare(s, "SELECT v FROM meta WHERE k='schema'", &v)))
		goto fail;
	if (sqlite3_step(v) != SQLITE_ROW || strcmp((const char *)sqlite3_column_text(v, 0), STORE_SCHEMA)) {
		sqlite3_finalize(v);
		rc = err_set(GA_EINVAL, "cache: '%s' was written by another gfpaudit layout; remove it or "
			     "pass --cache with another file", path);
		goto fail;
	}
	sqlite3_finalize(v);
	if ((rc = store_i_prepare(s, "SELECT r.incset, r.result, o.producer, o.checksum, m.sum FROM results r "
			  "LEFT JOIN origins o ON o.path=r.path AND o.context=r.context AND o.content=r.content "
			  "AND o.incset=r.incset LEFT JOIN results_more m ON m.path=r.path AND m.context=r.context "
			  "AND m.content=r.content AND m.incset=r.incset "
			  "WHERE r.path=?1 AND r.context=?2 AND r.content=?3 ORDER BY r.stored DESC, r.rowid DESC", &s->get)) ||
	    (rc = store_i_prepare(s, "INSERT OR REPLACE INTO results VALUES(?1, ?2, ?3, ?4, ?5, ?6)", &s->put)) ||
	    (rc = store_i_prepare(s, "INSERT OR REPLACE INTO origins VALUES(?1, ?2, ?3, ?4, ?5, ?6)", &s->origin_put)) ||
	    (rc = store_i_prepare(s, "DELETE FROM results WHERE path=?1 AND context=?2 AND rowid NOT IN "
			  "(SELECT rowid FROM results WHERE path=?1 AND context=?2 ORDER BY stored DESC, rowid DESC "
			  "LIMIT " G_STRINGIFY(STORE_KEEP_VERSIONS) ");"
			  , &s->prune)) ||
	    (rc = store_i_prepare(s, "DELETE FROM origins WHERE path=?1 AND context=?2 AND NOT EXISTS (SELECT 1 FROM results r "
			  "WHERE r.path=origins.path AND r.context=origins.context AND r.content=origins.content "
			  "AND r.incset=origins.incset)", &s->origin_prune)) ||
	    (rc = store_i_prepare(s, "SELECT body FROM incsets WHERE id=?1", &s->incset_get)) ||
	    (rc = store_i_prepare(s, "INSERT INTO incsets(digest, body) VALUES(?1, ?2) "
			  "ON CONFLICT(digest) DO UPDATE SET digest=digest RETURNING id", &s->incset_put)) ||
	    (rc = store_i_prepare(s, "SELECT content FROM stats WHERE dev=?1 AND ino=?2 AND size=?3 AND mtime=?4 "
			  "AND ctime=?5", &s->stat_get)) ||
	    (rc = store_i_prepare(s, "INSERT OR REPLACE INTO stats VALUES(?1, ?2, ?3, ?4, ?5, ?6)", &s->stat_put)) ||
	    (rc = store_i_judged_prepare(s)) || (rc = store_i_more_prepare(s)))
		goto fail;
	s->header_hash = g_hash_table_new_full(g_str_hash, g_str_equal, free, free);
	s->incset_ok = g_hash_table_new(g_direct_hash, g_direct_equal);
	*out = s;
	return 0;
fail:
	store_close(s);
	return rc;
}

int store_i_commit(struct store *s)
{
	int rc = 0;
	if (s->in_tx) {
		rc = store_i_exec(s, "COMMIT");
		if (rc && sqlite3_get_autocommit(s->db) == 0) {
			/* keep COMMIT's reason (disk full), not ROLLBACK's */
			char *why = xstrdup(err_last());
			store_i_exec(s, "ROLLBACK");
			err_set(rc, "%s", why);
			free(why);
		}
		s->in_tx = 0;
		s->pending = 0;
	}
	return rc;
}

int store_close(struct store *s)
{
	if (!s)
		return 0;
	int rc = store_i_commit(s);
	sqlite3_finalize(s->get);
	sqlite3_finalize(s->put);
	sqlite3_finalize(s->prune);
	sqlite3_finalize(s->origin_put);
	sqlite3_finalize(s->origin_prune);
	sqlite3_finalize(s->incset_get);
	sqlite3_finalize(s->incset_put);
	sqlite3_finalize(s->stat_get);
	sqlite3_finalize(s->stat_put);
	store_i_judged_finalize(s);
	store_i_more_finalize(s);
	sqlite3_close(s->db);
	if (s->header_hash)
		g_hash_table_destroy(s->header_hash);
	if (s->incset_ok)
		g_hash_table_destroy(s->incset_ok);
	free(s);
	return rc;
}

void store_get_stats(const struct store *s, struct store_stats *out)
{
	*out = s->st;
}

/* ---- hashing ---- */

static int libgit2_ready;

void store_hash_buf(const void *data, size_t len, char out[STORE_HASH_HEX])
{
	git_oid oid;
	if (!libgit2_ready) {
		git_libgit2_init(); /* process lifetime; the hash backend needs it */
		libgit2_ready = 1;
	}
	git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB);
	git_oid_tostr(out, STORE_HASH_HEX, &oid);
}

int store_hash_file(const char *path, char out[STORE_HASH_HEX])
{
	struct strbuf sb = STRBUF_INIT;
	int rc = strbuf_read_file(&sb, path, 0);
	if (!rc)
		store_hash_buf(sb.buf, sb.len, out);
	strbuf_release(&sb);
	return rc;
}

static void add_file_hash(struct strbuf *ctx, const char *label, const char *path)
{
	char h[STORE_HASH_HEX];
	if (store_hash_file(path, h))
		strcpy(h, "missing");
	strbuf_addf(ctx, "%s %s %s\n", label, path, h);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file below dir, sorted, with its hash. */
static void add_dir_hash(struct strbuf *ctx, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		strbuf_addf(ctx, "dir %s missing\n", dir);
		return;
	}
	char **names = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			add_dir_hash(ctx, p);
		else
			add_file_hash(ctx, "kmodel", p);
		free(p);
		free(names[i]);
	}
	free(names);
}

/* Every engine option that can change a result must be hashed below: a
 * new field in struct engine_opts trips this until store_context() covers
 * it (then update the size).  verbose only changes stderr. */
_Static_assert(sizeof(struct engine_opts) == 152,
	       "struct engine_opts changed: hash the new option in store_context() (analyzer/store/cache.c)");

int store_context(const struct engine_opts *o, const char *pch_identity, char out[STORE_HASH_HEX])
{
	struct strbuf ctx = STRBUF_INIT;
	char buf[PATH_MAX];
	/* GFPAUDIT_CACHE_AS=FILE (benchmarks only): key the results as FILE's
	 * (its version and its hash), to time this build's main process
	 * against a cache an earlier build filled; the answers then mix both */
	const char *as = getenv("GFPAUDIT_CACHE_AS");
	strbuf_addf(&ctx, "gfpaudit %s schema %s\n", store_i_producer(), STORE_SCHEMA);
	/* a rebuilt binary (a changed rule, a fixed bug) must not reuse results */
	char exe_hash[STORE_HASH_HEX];
	if (store_hash_file(as && *as ? as : "/proc/self/exe", exe_hash))
		strcpy(exe_hash, "missing");
	strbuf_addf(&ctx, "exe /proc/self/exe %s\n", exe_hash);
	/* a file's include list leaves out the headers the PCH supplied: what
	 * they hold is in the PCH's identity */
	strbuf_addf(&ctx, "pch %s\n", pch_identity ? pch_identity : "-");
	/* a run with the fact base records observations and the keys each
	 * file consulted; one without does not: they share no row */
	strbuf_addf(&ctx, "facts %d\n", o->collect_facts ? 1 : 0);
	strbuf_addf(&ctx, "rules %016llx fixes %d model %s\n", (unsigned long long)o->rules, o->fixes ? 1 : 0,
		    o->allocator_model && strcmp(o->allocator_model, "auto") ? o->allocator_model : "auto");
	/* .gfpaudit [severity] lines change what a result holds */
	for (size_t i = 0; i < o->nseverities; i++)
		strbuf_addf(&ctx, "severity %d=%d\n", o->severities[i].rule, o->severities[i].severity);
	for (size_t i = 0; i < o->nskip; i++)
		strbuf_addf(&ctx, "skip %s/%s\n", o->skip_base, o->skip[i]);
	if (o->tree) {
		const char *t = realpath(o->tree, buf) ? buf : o->tree;
		strbuf_addf(&ctx, "tree %s\n", t);
		char *conf = xasprintf("%s/include/generated/autoconf.h", t);
		add_file_hash(&ctx, "config", conf);
		free(conf);
		/* the "auto" allocator model is read from the tree's slow path, and
		 * costly-noretry-compacts reports on other files from it */
		if (!o->allocator_model || !strcmp(o->allocator_model, "auto")) {
			char *pa = xasprintf("%s/mm/page_alloc.c", t);
			add_file_hash(&ctx, "allocator", pa);
			free(pa);
		}
	} else if (!o->compdb) {
		const char *k = o->kmodel_dir ? o->kmodel_dir : datadir_kmodel();
		if (k)
			add_dir_hash(&ctx, k);
	}
	/* review reads the model from its repository, prepared or not */
	if (o->model_tree && (!o->allocator_model || !strcmp(o->allocator_model, "auto"))) {
		char *pa = xasprintf("%s/mm/page_alloc.c", realpath(o->model_tree, buf) ? buf : o->model_tree);
		add_file_hash(&ctx, "model-tree allocator", pa);
		free(pa);
	}
	if (o->compdb) {
		strbuf_addf(&ctx, "compdb %s\n", realpath(o->compdb, buf) ? buf : o->compdb);
		add_file_hash(&ctx, "compdb", o->compdb);
	}
	for (const char **a = o->allocator_files; a && *a; a++)
		add_file_hash(&ctx, "allocators", *a);
	if (o->cc_argv) {
		strbuf_addf(&ctx, "cc %s %s", o->cc_dir ? o->cc_dir : ".", o->cc_file ? o->cc_file : "");
		for (size_t i = 0; i < o->cc_argc; i++)
			strbuf_addf(&ctx, " %s", o->cc_argv[i]);
		strbuf_addc(&ctx, '\n');
	}
	store_hash_buf(ctx.buf, ctx.len, out);
	strbuf_release(&ctx);
	return 0;
}

/* ---- include sets ---- */

static const char *header_hash(struct store *s, const char *path)
{
	const char *h = g_hash_table_lookup(s->header_hash, path);
	if (h)
		return h;
	char buf[STORE_HASH_HEX];
	if (store_hash_file(path, buf))
		buf[0] = 0;
	char *v = xstrdup(buf);
	g_hash_table_insert(s->header_hash, xstrdup(path), v);
	return v;
}

/* what an include set says of a file that does not exist (an absent Kbuild
 * is an input: its creation must re-analyze) */
#define MISSING_FILE_HASH "0000000000000000000000000000000000000000"

/* body: one "HASH PATH" line per header */
int store_i_incset_valid(struct store *s, sqlite3_int64 id)
{
	if (id == 0)
		return 1;
	gpointer memo = g_hash_table_lookup(s->incset_ok, GINT_TO_POINTER((gint)id));
	if (memo)
		return GPOINTER_TO_INT(memo) == 1;
	int ok = 0;
	sqlite3_reset(s->incset_get);
	sqlite3_bind_int64(s->incset_get, 1, id);
	if (sqlite3_step(s->incset_get) == SQLITE_ROW) {
		const char *body = (const char *)sqlite3_column_text(s->incset_get, 0);
		ok = 1;
		for (const char *p = body; ok && p && *p; ) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			if (len > STORE_HASH_HEX) {
				char *path = xstrndup(p + STORE_HASH_HEX, len - STORE_HASH_HEX);
				const char *h = header_hash(s, path);
				ok = !strncmp(*h ? h : MISSING_FILE_HASH, p, STORE_HASH_HEX - 1);
				free(path);
			}
			p = nl ? nl + 1 : NULL;
		}
	}
	sqlite3_reset(s->incset_get);
	g_hash_table_insert(s->incset_ok, GINT_TO_POINTER((gint)id), GINT_TO_POINTER(ok ? 1 : 2));
	return ok;
}

int store_i_incset_store(struct store *s, const char *const *inc, size_t n, sqlite3_int64 *id)
{
	*id = 0;
	if (!n)
		return 0;
	struct strbuf body = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		const char *h = header_hash(s, inc[i]);
		strbuf_addf(&body, "%s %s\n", *h ? h : MISSING_FILE_HASH, inc[i]);
	}
	char digest[STORE_HASH_HEX];
	store_hash_buf(body.buf, body.len, digest);
	sqlite3_reset(s->incset_put);
	sqlite3_bind_text(s->incset_put, 1, digest, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s->incset_put, 2, body.buf, (int)body.len, SQLITE_TRANSIENT);
	int rc = 0;
	if (sqlite3_step(s->incset_put) == SQLITE_ROW)
		*id = sqlite3_column_int64(s->incset_put, 0);
	else
		rc = store_i_db_err(s, "store include set");
	sqlite3_reset(s->incset_put);
	strbuf_release(&body);
	return rc;
}

int store_use_context(struct store *s, const char context[STORE_HASH_HEX])
{
	sqlite3_stmt *q = NULL;
	int rc = store_i_prepare(s, "INSERT OR REPLACE INTO contexts VALUES(?1, ?2)", &q);
	if (rc)
		return rc;
	/* a write transaction from the start: never a read that must upgrade */
	if ((rc = store_i_begin(s))) {
		sqlite3_finalize(q);
		return rc;
	}
	sqlite3_int64 now = (sqlite3_int64)time(NULL);
	sqlite3_bind_text(q, 1, context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, now);
	if (sqlite3_step(q) != SQLITE_DONE)
		rc = store_i_db_err(s, "mark context");
	sqlite3_finalize(q);
	if (rc)
		return rc;
	long long old = (long long)(now - STORE_KEEP_DAYS * 86400LL);
	char *sql = xasprintf(
		"DELETE FROM results WHERE context IN (SELECT context FROM contexts WHERE used < %lld);"
		"DELETE FROM origins WHERE context NOT IN (SELECT context FROM results);"
		"DELETE FROM judged WHERE context IN (SELECT context FROM contexts WHERE used < %lld);"
		"DELETE FROM treefacts WHERE context IN (SELECT context FROM contexts WHERE used < %lld);"
		"DELETE FROM treefacts_built WHERE context IN (SELECT context FROM contexts WHERE used < %lld);"
		"DELETE FROM treefacts_imported WHERE context IN (SELECT context FROM contexts WHERE used < %lld);"
		"DELETE FROM runs WHERE context IN (SELECT context FROM contexts WHERE used < %lld);"
		"DELETE FROM fact_states WHERE context IN (SELECT context FROM contexts WHERE used < %lld);"
		"DELETE FROM fact_state_parts WHERE context IN (SELECT context FROM contexts WHERE used < %lld);"
		"DELETE FROM contexts WHERE used < %lld;",
		old, old, old, old, old, old, old, old, old);
	rc = store_i_exec(s, sql);
	free(sql);
	int crc = store_i_commit(s);
	return rc ? rc : crc;
}

/* ---- content hashes by stat ---- */

static double elapsed(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) + (now.tv_nsec - t->tv_nsec) / 1e9;
}

static sqlite3_int64 ns(const struct timespec *t)
{
	return (sqlite3_int64)t->tv_sec * 1000000000 + t->tv_nsec;
}

static void bind_stat(sqlite3_stmt *q, const struct stat *st)
{
	sqlite3_bind_int64(q, 1, (sqlite3_int64)st->st_dev);
	sqlite3_bind_int64(q, 2, (sqlite3_int64)st->st_ino);
	sqlite3_bind_int64(q, 3, (sqlite3_int64)st->st_size);
	sqlite3_bind_int64(q, 4, ns(&st->st_mtim));
	sqlite3_bind_int64(q, 5, ns(&st->st_ctim));
}

int store_stat_hash(struct store *s, const struct stat *st, char out[STORE_HASH_HEX])
{
	int rc = GA_ENOTFOUND;
	sqlite3_reset(s->stat_get);
	bind_stat(s->stat_get, st);
	if (sqlite3_step(s->stat_get) == SQLITE_ROW) {
		const char *h = (const char *)sqlite3_column_text(s->stat_get, 0);
		if (h && strlen(h) == STORE_HASH_HEX - 1) {
			memcpy(out, h, STORE_HASH_HEX);
			rc = 0;
		}
	}
	sqlite3_reset(s->stat_get);
	return rc;
}

int store_i_begin(struct store *s)
{
	if (s->in_tx)
		return 0;
	int rc = exec_retry(s, "BEGIN IMMEDIATE");
	if (!rc) {
		s->in_tx = 1;
		clock_gettime(CLOCK_MONOTONIC, &s->tx_start);
	}
	return rc;
}

void store_stat_remember(struct store *s, const struct stat *st, const char hash[STORE_HASH_HEX])
{
	time_t now = time(NULL);
	/* "racily clean": a change within the same tick would not show */
	if (st->st_mtim.tv_sec >= now - 2)
		return;
	if (store_i_begin(s))
		return;
	sqlite3_reset(s->stat_put);
	bind_stat(s->stat_put, st);
	sqlite3_bind_text(s->stat_put, 6, hash, -1, SQLITE_TRANSIENT);
	sqlite3_step(s->stat_put);
	sqlite3_reset(s->stat_put);
	s->pending++;
	if (s->pending >= STORE_BATCH || elapsed(&s->tx_start) > STORE_TX_SEC)
		store_i_commit(s);
}

int store_commit(struct store *s)
{
	return s ? store_i_commit(s) : 0;
}

/* ---- results ---- */

int store_get(struct store *s, const struct store_key *k, struct file_result **out)
{
	*out = NULL;
	int rc = GA_ENOTFOUND;
	sqlite3_reset(s->get);
	sqlite3_bind_text(s->get, 1, k->path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s->get, 2, k->context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s->get, 3, k->content, -1, SQLITE_TRANSIENT);
	int step;
	while ((step = sqlite3_step(s->get)) == SQLITE_ROW) {
		sqlite3_int64 inc = sqlite3_column_int64(s->get, 0);
		const char *txt = (const char *)sqlite3_column_text(s->get, 1);
		const char *producer = (const char *)sqlite3_column_text(s->get, 2);
		const char *sum = (const char *)sqlite3_column_text(s->get, 3);
		const char *more = (const char *)sqlite3_column_text(s->get, 4);
		char want[STORE_HASH_HEX];
		store_i_row_checksum(k, inc, more, txt, want);
		if (!store_i_row_trusted(s, inc, producer, sum, want))
			continue; /* analyzed again, and the row replaced */
		/* the facts and what they consulted stay in the side row until the
		 * facts passes need them: a warm run answered by its run record never does */
		if (store_i_result_read(txt, STORE_MORE_RESULTS, k, inc, NULL, more, out) == 0)
			rc = 0;
		else
			err_clear();
		if (!rc) {
			memcpy(s->last_row, want, sizeof(s->last_row));
			break;
		}
	}
	return store_i_lookup_end(s, s->get, rc, step);
}

bool store_i_row_trusted(struct store *s, sqlite3_int64 incset, const char *producer, const char *sum,
			 const char *want)
{
	if (!producer || strcmp(producer, store_i_producer()) || !sum || strcmp(sum, want)) {
		s->st.untrusted++;
		return false;
	}
	if (!store_i_incset_valid(s, incset)) {
		s->st.stale_includes++;
		return false;
	}
	return true;
}

int store_i_lookup_end(struct store *s, sqlite3_stmt *q, int rc, int step)
{
	if (rc && step != SQLITE_ROW && step != SQLITE_DONE)
		rc = store_i_db_err(s, "lookup");
	sqlite3_reset(q);
	if (rc == 0)
		s->st.hits++;
	else if (rc == GA_ENOTFOUND)
		s->st.misses++;
	return rc == GA_ENOTFOUND ? err_set(GA_ENOTFOUND, "not in the cache") : rc;
}

int store_put(struct store *s, const struct store_key *k, const char *const *includes,
	      size_t nincludes, const struct file_result *r)
{
	s->last_row[0] = 0;
	int rc = store_i_begin(s);
	if (rc)
		return rc;
	sqlite3_int64 inc = 0;
	if ((rc = store_i_incset_store(s, includes, nincludes, &inc)))
		return rc;
	struct store_i_row row;
	store_i_split(r, true, &row);
	char *txt = row.keep;
	row.keep = NULL;
	sqlite3_reset(s->put);
	sqlite3_bind_text(s->put, 1, k->path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s->put, 2, k->context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s->put, 3, k->content, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s->put, 4, inc);
	char sum[STORE_HASH_HEX];
	store_i_row_checksum(k, inc, row.sum, txt, sum);
	sqlite3_bind_text(s->put, 5, txt, -1, free);
	sqlite3_bind_int64(s->put, 6, (sqlite3_int64)time(NULL));
	if (sqlite3_step(s->put) != SQLITE_DONE)
		rc = store_i_db_err(s, "store");
	sqlite3_reset(s->put);
	if (!rc)
		rc = store_i_more_put(s, STORE_MORE_RESULTS, k, inc, NULL, &row);
	store_i_row_release(&row);
	if (!rc) {
		sqlite3_reset(s->origin_put);
		sqlite3_bind_text(s->origin_put, 1, k->path, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s->origin_put, 2, k->context, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s->origin_put, 3, k->content, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(s->origin_put, 4, inc);
		sqlite3_bind_text(s->origin_put, 5, store_i_producer(), -1, SQLITE_STATIC);
		sqlite3_bind_text(s->origin_put, 6, sum, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(s->origin_put) != SQLITE_DONE)
			rc = store_i_db_err(s, "store");
		sqlite3_reset(s->origin_put);
	}
	if (!rc) {
		sqlite3_reset(s->prune);
		sqlite3_bind_text(s->prune, 1, k->path, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s->prune, 2, k->context, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(s->prune) != SQLITE_DONE)
			rc = store_i_db_err(s, "prune");
		sqlite3_reset(s->prune);
		sqlite3_reset(s->origin_prune);
		sqlite3_bind_text(s->origin_prune, 1, k->path, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s->origin_prune, 2, k->context, -1, SQLITE_TRANSIENT);
		if (!rc && sqlite3_step(s->origin_prune) != SQLITE_DONE)
			rc = store_i_db_err(s, "prune");
		sqlite3_reset(s->origin_prune);
		if (!rc)
			rc = store_i_more_prune(s, STORE_MORE_RESULTS, k);
	}
	if (!rc)
		memcpy(s->last_row, sum, sizeof(s->last_row));
	s->st.puts++;
	store_i_batch(s);
	return rc;
}

const char *store_last_row(const struct store *s)
{
	return s->last_row;
}

void store_i_batch(struct store *s)
{
	/* short transactions let other processes on the same file go on */
	if (++s->pending >= STORE_BATCH || elapsed(&s->tx_start) > STORE_TX_SEC)
		store_i_commit(s);
}

int store_content_hash(struct store *s, const char *path, char out[STORE_HASH_HEX])
{
	struct stat st;
	int have_stat = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	if (have_stat && store_stat_hash(s, &st, out) == 0)
		return 0;
	int rc = store_hash_file(path, out);
	if (!rc && have_stat)
		store_stat_remember(s, &st, out);
	return rc;
}
