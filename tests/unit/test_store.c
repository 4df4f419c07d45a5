/* The result cache: keys, include manifests, pruning, default path, context. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "harness.h"
#include <sqlite3.h>
#include "gfpaudit/store.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/provenance.h"

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/gfpaudit-unit-XXXXXX";
	return xstrdup(mkdtemp(tmpl));
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static struct file_result *result_with_sites(const char *file, int nsites)
{
	struct file_result *r = xcalloc(1, sizeof(*r));
	file_result_init(r, file);
	for (int i = 0; i < nsites; i++) {
		struct site *s = file_result_add_site(r);
		s->file = xstrdup(file);
		s->line = 10 + i;
		s->api = xstrdup("alloc_pages");
	}
	return r;
}

static void key(struct store_key *k, const char *path, const char *ctx, const char *content)
{
	k->path = path;
	store_hash_buf(ctx, strlen(ctx), k->context);
	store_hash_buf(content, strlen(content), k->content);
}

TEST(store_hash_is_git_blob_id)
{
	char h[STORE_HASH_HEX];
	store_hash_buf("hello\n", 6, h);
	CHECK_EQ_STR(h, "ce013625030ba8dba906f756967f9e9ca394464a");
}

TEST(store_put_get_and_misses)
{
	char *d = tmpdir(), *db = xasprintf("%s/sub/dir/c.sqlite", d);
	struct store *s;
	CHECK_EQ_INT(store_open(db, &s), 0);
	struct store_key k;
	key(&k, "mm/a.c", "ctx1", "int a;");
	struct file_result *r = result_with_sites("mm/a.c", 2), *got = NULL;
	CHECK_EQ_INT(store_get(s, &k, &got), GA_ENOTFOUND);
	CHECK_EQ_INT(store_put(s, &k, NULL, 0, r), 0);
	CHECK_EQ_INT(store_get(s, &k, &got), 0);
	CHECK(got && got->nsites == 2 && got->sites[1].line == 11);
	file_result_free(got);
	got = NULL;
	struct store_key k2 = k;
	store_hash_buf("int b;", 6, k2.content);
	CHECK_EQ_INT(store_get(s, &k2, &got), GA_ENOTFOUND);
	k2 = k;
	store_hash_buf("ctx2", 4, k2.context);
	CHECK_EQ_INT(store_get(s, &k2, &got), GA_ENOTFOUND);
	k2 = k;
	k2.path = "mm/b.c";
	CHECK_EQ_INT(store_get(s, &k2, &got), GA_ENOTFOUND);
	struct store_stats st;
	store_get_stats(s, &st);
	CHECK_EQ_INT(st.hits, 1);
	CHECK_EQ_INT(st.misses, 4);
	store_close(s);
	/* committed and readable by another connection */
	CHECK_EQ_INT(store_open(db, &s), 0);
	CHECK_EQ_INT(store_get(s, &k, &got), 0);
	file_result_free(got);
	store_close(s);
	file_result_free(r);
	free(db);
	free(d);
}

TEST(store_checks_included_headers)
{
	char *d = tmpdir(), *db = xasprintf("%s/c.sqlite", d), *h = xasprintf("%s/x.h", d);
	write_file(h, "#define X 1\n");
	const char *inc[] = { h };
	struct store *s;
	CHECK_EQ_INT(store_open(db, &s), 0);
	struct store_key k;
	key(&k, "a.c", "ctx", "#include \"x.h\"\n");
	struct file_result *r = result_with_sites("a.c", 1), *got = NULL;
	CHECK_EQ_INT(store_put(s, &k, inc, 1, r), 0);
	CHECK_EQ_INT(store_get(s, &k, &got), 0);
	file_result_free(got);
	got = NULL;
	store_close(s);
	/* the header changes: the next run must not use the result */
	write_file(h, "#define X 2\n");
	CHECK_EQ_INT(store_open(db, &s), 0);
	CHECK_EQ_INT(store_get(s, &k, &got), GA_ENOTFOUND);
	struct store_stats st;
	store_get_stats(s, &st);
	CHECK_EQ_INT(st.stale_includes, 1);
	/* stored again against the new header, it hits */
	CHECK_EQ_INT(store_put(s, &k, inc, 1, r), 0);
	store_close(s);
	CHECK_EQ_INT(store_open(db, &s), 0);
	CHECK_EQ_INT(store_get(s, &k, &got), 0);
	file_result_free(got);
	store_close(s);
	file_result_free(r);
	unlink(h);
	free(h);
	free(db);
	free(d);
}

TEST(store_keeps_few_versions_per_path)
{
	char *d = tmpdir(), *db = xasprintf("%s/c.sqlite", d);
	struct store *s;
	CHECK_EQ_INT(store_open(db, &s), 0);
	struct file_result *r = result_with_sites("a.c", 0), *got = NULL;
	struct store_key k[6];
	for (int i = 0; i < 6; i++) {
		char c[16];
		snprintf(c, sizeof(c), "v%d", i);
		key(&k[i], "a.c", "ctx", c);
		CHECK_EQ_INT(store_put(s, &k[i], NULL, 0, r), 0);
	}
	/* all six within a second or two ("stored" has second resolution):
	 * the four stored last are kept, not any four of a tie (t09 in CI:
	 * a kbuild edit undone found its earlier result pruned) */
	CHECK_EQ_INT(store_get(s, &k[0], &got), GA_ENOTFOUND);
	CHECK_EQ_INT(store_get(s, &k[1], &got), GA_ENOTFOUND);
	for (int i = 2; i < 6; i++) {
		CHECK_EQ_INT(store_get(s, &k[i], &got), 0);
		file_result_free(got);
		got = NULL;
	}
	store_close(s);
	file_result_free(r);
	free(db);
	free(d);
}

/* A result's includes, facts and consulted keys stay in its side row
 * (results_more) until asked for: a warm run never reads them. */
TEST(store_result_facts_in_a_side_row)
{
	char *d = tmpdir(), *db = xasprintf("%s/c.sqlite", d);
	struct store *s;
	CHECK_EQ_INT(store_open(db, &s), 0);
	struct store_key k;
	key(&k, "mm/a.c", "ctx", "int a;");
	struct file_result *r = result_with_sites("mm/a.c", 1), *got = NULL;
	file_result_add_fact(r, "field:s.n", iv_range(4096, 4096), SRCB(CONST), 7);
	r->facts_digest = xstrdup("d1");
	r->consulted = xcalloc(1, sizeof(char *));
	r->consulted[r->nconsulted++] = xstrdup("param:f#1");
	CHECK_EQ_INT(store_put(s, &k, NULL, 0, r), 0);
	CHECK_EQ_INT(store_get(s, &k, &got), 0);
	CHECK(got && got->nsites == 1 && got->nfacts == 0 && got->nconsulted == 0 && got->deferred_ref);
	CHECK_EQ_INT(file_result_load_deferred(got), GA_EINVAL); /* not without the cache */
	err_clear();
	CHECK_EQ_INT(store_load_deferred(s, got), 0);
	CHECK(got->nfacts == 1 && !strcmp(got->facts[0].key, "field:s.n") && got->facts[0].iv.lo == 4096);
	CHECK(got->nconsulted == 1 && !strcmp(got->consulted[0], "param:f#1"));
	CHECK_EQ_INT(store_load_deferred(s, got), 0); /* loaded: a no-op */
	file_result_free(got);
	store_close(s);
	sqlite3 *raw;
	/* a side row changed: its main row is not trusted */
	REQUIRE(sqlite3_open(db, &raw) == SQLITE_OK);
	sqlite3_exec(raw, "UPDATE results_more SET body=replace(body, '4096', '8'), "
			  "sum='0000000000000000000000000000000000000000'", NULL, NULL, NULL);
	sqlite3_close(raw);
	CHECK_EQ_INT(store_open(db, &s), 0);
	CHECK_EQ_INT(store_get(s, &k, &got), GA_ENOTFOUND);
	err_clear();
	/* stored again; gone: not trusted either */
	CHECK_EQ_INT(store_put(s, &k, NULL, 0, r), 0);
	CHECK_EQ_INT(store_get(s, &k, &got), 0);
	file_result_free(got);
	store_close(s);
	REQUIRE(sqlite3_open(db, &raw) == SQLITE_OK);
	sqlite3_exec(raw, "DELETE FROM results_more", NULL, NULL, NULL);
	sqlite3_close(raw);
	CHECK_EQ_INT(store_open(db, &s), 0);
	CHECK_EQ_INT(store_get(s, &k, &got), GA_ENOTFOUND);
	err_clear();
	/* pruned with the main rows (four versions a path) */
	for (int i = 0; i < 6; i++) {
		char c[16];
		snprintf(c, sizeof(c), "v%d", i);
		key(&k, "mm/a.c", "ctx", c);
		CHECK_EQ_INT(store_put(s, &k, NULL, 0, r), 0);
	}
	store_close(s);
	REQUIRE(sqlite3_open(db, &raw) == SQLITE_OK);
	sqlite3_stmt *q = NULL;
	REQUIRE(sqlite3_prepare_v2(raw, "SELECT (SELECT count(*) FROM results_more), (SELECT count(*) FROM results)",
				   -1, &q, NULL) == SQLITE_OK);
	REQUIRE(sqlite3_step(q) == SQLITE_ROW);
	CHECK_EQ_INT(sqlite3_column_int(q, 0), 4);
	CHECK_EQ_INT(sqlite3_column_int(q, 1), 4);
	sqlite3_finalize(q);
	sqlite3_close(raw);
	file_result_free(r);
	free(db);
	free(d);
}

TEST(store_default_path_follows_xdg)
{
	char *old_x = getenv("XDG_CACHE_HOME") ? xstrdup(getenv("XDG_CACHE_HOME")) : NULL;
	char *old_h = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;
	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	char *p = store_default_path();
	CHECK_EQ_STR(p, "/x/cache/gfpaudit/cache.sqlite");
	free(p);
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/home/u", 1);
	p = store_default_path();
	CHECK_EQ_STR(p, "/home/u/.cache/gfpaudit/cache.sqlite");
	free(p);
	if (old_x)
		setenv("XDG_CACHE_HOME", old_x, 1);
	if (old_h)
		setenv("HOME", old_h, 1);
	else
		unsetenv("HOME");
	free(old_x);
	free(old_h);
}

TEST(store_context_covers_options)
{
	char *d = tmpdir(), *alloc = xasprintf("%s/extra.tbl", d);
	write_file(alloc, "my_alloc pages order=order\n");
	const char *files[] = { alloc, NULL };
	struct engine_opts o = { .rules = 3, .kmodel_dir = d };
	char a[STORE_HASH_HEX], b[STORE_HASH_HEX];
	store_context(&o, NULL, a);
	store_context(&o, NULL, b);
	CHECK_EQ_STR(a, b);
	o.rules = 1;
	store_context(&o, NULL, b);
	CHECK(strcmp(a, b) != 0);
	o.rules = 3;
	/* the PCH's contents are not in any file's include list */
	store_context(&o, "pch-a", a);
	store_context(&o, "pch-b", b);
	CHECK(strcmp(a, b) != 0);
	store_context(&o, NULL, a);
	o.allocator_files = files;
	store_context(&o, NULL, b);
	CHECK(strcmp(a, b) != 0);
	store_context(&o, NULL, a);
	write_file(alloc, "my_alloc pages order=ord\n");
	store_context(&o, NULL, b);
	CHECK(strcmp(a, b) != 0);
	/* kernel-model headers are part of the context without a tree */
	o.allocator_files = NULL;
	store_context(&o, NULL, a);
	char *hdr = xasprintf("%s/gfp.h", d);
	write_file(hdr, "#define GFP_KERNEL 0xcc0\n");
	store_context(&o, NULL, b);
	CHECK(strcmp(a, b) != 0);
	unlink(hdr);
	unlink(alloc);
	free(hdr);
	free(alloc);
	free(d);
}

#include <sys/stat.h>
#include <sys/time.h>

TEST(store_remembers_hashes_by_stat)
{
	char *d = tmpdir(), *db = xasprintf("%s/c.sqlite", d), *f = xasprintf("%s/a.c", d);
	write_file(f, "int a;\n");
	struct timeval old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	utimes(f, old);
	struct stat st;
	stat(f, &st);
	struct store *s;
	CHECK_EQ_INT(store_open(db, &s), 0);
	char h[STORE_HASH_HEX], h2[STORE_HASH_HEX];
	CHECK_EQ_INT(store_stat_hash(s, &st, h), GA_ENOTFOUND);
	store_hash_file(f, h);
	store_stat_remember(s, &st, h);
	store_close(s);
	CHECK_EQ_INT(store_open(db, &s), 0);
	CHECK_EQ_INT(store_stat_hash(s, &st, h2), 0);
	CHECK_EQ_STR(h2, h);
	/* same size, mtime put back: the inode's change time still tells */
	sleep(1);
	write_file(f, "int b;\n");
	utimes(f, old);
	struct stat st2;
	stat(f, &st2);
	CHECK(st2.st_size == st.st_size && st2.st_mtim.tv_sec == st.st_mtim.tv_sec);
	CHECK_EQ_INT(store_stat_hash(s, &st2, h2), GA_ENOTFOUND);
	/* a file changed just now is not remembered (its times may not move again) */
	write_file(f, "int c;\n");
	stat(f, &st2);
	store_hash_file(f, h);
	store_stat_remember(s, &st2, h);
	CHECK_EQ_INT(store_stat_hash(s, &st2, h2), GA_ENOTFOUND);
	store_close(s);
	unlink(f);
	free(f);
	free(db);
	free(d);
}

TEST(store_drops_contexts_unused_for_long)
{
	char *d = tmpdir(), *db = xasprintf("%s/c.sqlite", d);
	struct store *s;
	CHECK_EQ_INT(store_open(db, &s), 0);
	struct store_key old, cur;
	key(&old, "a.c", "old build", "int a;");
	key(&cur, "a.c", "this build", "int a;");
	struct file_result *r = result_with_sites("a.c", 1), *got = NULL;
	CHECK_EQ_INT(store_use_context(s, old.context), 0);
	CHECK_EQ_INT(store_put(s, &old, NULL, 0, r), 0);
	CHECK_EQ_INT(store_use_context(s, cur.context), 0);
	CHECK_EQ_INT(store_put(s, &cur, NULL, 0, r), 0);
	store_close(s);
	/* the old build was last used long ago */
	sqlite3 *raw;
	sqlite3_open(db, &raw);
	char *sql = xasprintf("UPDATE contexts SET used = used - %d WHERE context = '%s'",
			      (STORE_KEEP_DAYS + 1) * 86400, old.context);
	CHECK_EQ_INT(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
	free(sql);
	sqlite3_close(raw);
	CHECK_EQ_INT(store_open(db, &s), 0);
	CHECK_EQ_INT(store_use_context(s, cur.context), 0);
	CHECK_EQ_INT(store_get(s, &old, &got), GA_ENOTFOUND);
	CHECK_EQ_INT(store_get(s, &cur, &got), 0);
	file_result_free(got);
	store_close(s);
	file_result_free(r);
	free(db);
	free(d);
}

/* Several processes open one fresh cache at once (the README's GNU parallel
 * recipe on its first run), each marking its context and storing results:
 * none may fail with "database is locked". */
TEST(store_concurrent_fresh_open)
{
	char *d = tmpdir();
	int failures = 0;
	for (int round = 0; round < 10; round++) {
		char *db = xasprintf("%s/c%d.sqlite", d, round);
		pid_t kids[8];
		for (int k = 0; k < 8; k++) {
			kids[k] = fork();
			if (kids[k] == 0) {
				struct store *s;
				char ctx[STORE_HASH_HEX];
				store_hash_buf("ctx", 3, ctx);
				if (store_open(db, &s) || store_use_context(s, ctx))
					{ fprintf(stderr, "child: %s\n", err_last()); _exit(1); }
				for (int i = 0; i < 20; i++) {
					struct store_key key_;
					char path[32];
					snprintf(path, sizeof(path), "mm/f%d-%d.c", k, i);
					key(&key_, path, "ctx", path);
					struct file_result *r = result_with_sites(path, 1);
					int rc = store_put(s, &key_, NULL, 0, r);
					file_result_free(r);
					if (rc)
						_exit(2);
				}
				int rc = store_close(s);
				_exit(rc ? 3 : 0);
			}
		}
		for (int k = 0; k < 8; k++) {
			int st = 0;
			waitpid(kids[k], &st, 0);
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				failures++;
		}
		free(db);
	}
	CHECK_EQ_INT(failures, 0);
	free(d);
}
