/* The fact base's read record and digests (facts.h), the judged rows and
 * the tree's facts in the cache (store.h), what the facts passes judge
 * again (factpass.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include <jansson.h>
#include <sqlite3.h>
#include "gfpaudit/facts.h"
#include "gfpaudit/factpass.h"
#include "gfpaudit/factstate.h"
#include "gfpaudit/provenance.h"
#include "gfpaudit/store.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/version.h"
#include "../../analyzer/store/store_impl.h"

static struct file_result *result_with_fact(const char *file, const char *key, long long v, unsigned src)
{
	struct file_result *r = xcalloc(1, sizeof(*r));
	file_result_init(r, file);
	r->status = FILE_ANALYZED;
	file_result_add_fact(r, key, iv_const(v), src, 7);
	return r;
}

TEST(facts_track_records_each_key_asked_once_sorted)
{
	struct factbase *fb = factbase_new();
	struct file_result *a = result_with_fact("a.c", "field:s.x", 8, SRCB(CONST));
	factbase_add_result(fb, a);
	struct fact_value v;
	CHECK(!factbase_get(fb, "field:s.y", &v)); /* not tracked yet */
	factbase_track(fb, true);
	CHECK(factbase_get(fb, "field:s.x", &v));
	CHECK(!factbase_get(fb, "field:s.absent", &v));
	CHECK(factbase_get(fb, "field:s.x", &v));
	size_t n;
	char **keys = factbase_reads(fb, &n);
	REQUIRE_EQ_INT(n, 2);
	CHECK_EQ_STR(keys[0], "field:s.absent");
	CHECK_EQ_STR(keys[1], "field:s.x");
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	factbase_track(fb, false);
	factbase_get(fb, "field:s.z", &v);
	CHECK(factbase_reads(fb, &n) == NULL && n == 0);
	factbase_free(fb);
	file_result_free(a);
}

/* frees.h/callers.h read which files observed a key, and the best caller */
TEST(facts_count_files_and_name_one_in_another)
{
	struct factbase *fb = factbase_new();
	struct file_result *a = result_with_fact("a.c", "frees:struct s", 0, SRCB(CONST));
	file_result_add_fact(a, "frees:struct s", iv_const(0), SRCB(CONST), 9);
	struct file_result *b = result_with_fact("b.c", "frees:struct s", 0, SRCB(CONST));
	factbase_add_result(fb, a);
	struct fact_value v;
	REQUIRE(factbase_get(fb, "frees:struct s", &v));
	CHECK_EQ_INT(v.nfiles, 1);
	CHECK(v.where2 == NULL);
	CHECK_EQ_INT(v.nobs, 2);
	char *k1[] = { "frees:struct s" };
	char d1[FACTBASE_DIGEST_HEX + 1], d2[FACTBASE_DIGEST_HEX + 1];
	factbase_digest(fb, k1, 1, d1);
	factbase_add_result(fb, b);
	REQUIRE(factbase_get(fb, "frees:struct s", &v));
	CHECK_EQ_INT(v.nfiles, 2);
	CHECK_EQ_STR(v.where, "a.c:7");
	CHECK_EQ_STR(v.where2, "b.c:7");
	factbase_digest(fb, k1, 1, d2);
	CHECK(strcmp(d1, d2) != 0); /* another file's free changes the answer */
	/* callers: the best one (the largest constant) and where */
	struct file_result *c = result_with_fact("c.c", "fails:f", 3, SRCB(CONST));
	file_result_add_fact(c, "fails:f", iv_const(1), SRCB(CONST), 12);
	factbase_add_result(fb, c);
	REQUIRE(factbase_get(fb, "fails:f", &v));
	CHECK(v.iv.known && v.iv.lo == 1 && v.iv.hi == 3);
	CHECK(v.has_cmax && v.cmax == 3);
	CHECK_EQ_STR(v.cmax_where, "c.c:7");
	factbase_free(fb);
	file_result_free(a);
	file_result_free(b);
	file_result_free(c);
}

TEST(facts_digest_changes_with_the_answers_only)
{
	char *keys[] = { "field:s.x", "field:s.absent" };
	char d1[FACTBASE_DIGEST_HEX + 1], d2[FACTBASE_DIGEST_HEX + 1], d3[FACTBASE_DIGEST_HEX + 1];
	struct file_result *a = result_with_fact("a.c", "field:s.x", 8, SRCB(CONST));
	struct file_result *b = result_with_fact("b.c", "field:t.other", 99, SRCB(CONST));
	struct file_result *a16 = result_with_fact("a.c", "field:s.x", 16, SRCB(CONST));
	struct factbase *fb = factbase_new();
	factbase_add_result(fb, a);
	factbase_digest(fb, keys, 2, d1);
	factbase_add_result(fb, b); /* a key nobody asked for */
	factbase_digest(fb, keys, 2, d2);
	CHECK_EQ_STR(d1, d2);
	factbase_free(fb);
	fb = factbase_new();
	factbase_add_result(fb, a16);
	factbase_digest(fb, keys, 2, d3);
	CHECK(strcmp(d1, d3) != 0);
	/* an absent key that appears changes it too */
	struct file_result *c = result_with_fact("c.c", "field:s.absent", 1, SRCB(CONST));
	factbase_add_result(fb, c);
	char d4[FACTBASE_DIGEST_HEX + 1];
	factbase_digest(fb, keys, 2, d4);
	CHECK(strcmp(d3, d4) != 0);
	/* a digest is no read */
	factbase_track(fb, true);
	factbase_digest(fb, keys, 2, d4);
	size_t n;
	CHECK(factbase_reads(fb, &n) == NULL);
	factbase_free(fb);
	file_result_free(a);
	file_result_free(a16);
	file_result_free(b);
	file_result_free(c);
}

TEST(facts_consulted_keys_survive_the_wire_form)
{
	struct file_result *r = result_with_fact("a.c", "param:f#1", 3, SRCB(CONST));
	r->consulted = xcalloc(2, sizeof(char *));
	r->consulted[r->nconsulted++] = xstrdup("field:s.x");
	r->facts_digest = xstrdup("abc");
	json_t *j = file_result_to_json(r);
	struct file_result *back = NULL;
	REQUIRE_EQ_INT(file_result_from_json(j, &back), 0);
	REQUIRE_EQ_INT(back->nconsulted, 1);
	CHECK_EQ_STR(back->consulted[0], "field:s.x");
	CHECK_EQ_STR(back->facts_digest, "abc");
	json_decref(j);
	file_result_free(r);
	file_result_free(back);
}

/* Read back with its facts deferred (the cache keeps them in a side row):
 * none parsed until asked for, then the same as read whole; the wire form
 * keeps them meanwhile. */
TEST(facts_deferred_until_loaded)
{
	struct file_result *r = result_with_fact("a \\\"b\".c", "param:f#1", 3, SRCB(CONST));
	r->consulted = xcalloc(2, sizeof(char *));
	r->consulted[r->nconsulted++] = xstrdup("field:s.x\"}]");
	r->facts_digest = xstrdup("abc");
	r->includes = xcalloc(2, sizeof(char *));
	r->includes[r->nincludes++] = xstrdup("/k/include/linux/slab.h");
	json_t *j = file_result_to_json(r);
	json_t *keep = json_deep_copy(j);
	json_t *more = file_result_json_take_deferrable(keep);
	CHECK(json_object_get(keep, "facts") == NULL);
	CHECK(json_object_get(keep, "includes") == NULL);
	CHECK(json_object_get(keep, "consulted") == NULL);
	CHECK(json_object_get(keep, "facts_digest") != NULL);
	CHECK_EQ_INT(json_object_size(more), 3);
	struct file_result *d = NULL;
	REQUIRE_EQ_INT(file_result_from_json(keep, &d), 0);
	CHECK_EQ_STR(d->file, r->file);
	CHECK_EQ_STR(d->facts_digest, "abc");
	CHECK_EQ_INT(d->nfacts, 0);
	CHECK_EQ_INT(d->nconsulted, 0);
	CHECK_EQ_INT(d->nincludes, 0);
	/* in the cache still: loading it without the store is an error */
	d->deferred_ref = xstrdup("0 0 x y - z\na.c");
	CHECK_EQ_INT(file_result_load_deferred(d), GA_EINVAL);
	err_clear();
	d->deferred = json_dumps(more, JSON_COMPACT);
	json_t *jd = file_result_to_json(d); /* the wire form: as it was */
	CHECK(json_equal(j, jd));
	json_decref(jd);
	REQUIRE_EQ_INT(file_result_load_deferred(d), 0);
	CHECK(d->deferred == NULL && d->deferred_ref == NULL);
	REQUIRE_EQ_INT(d->nfacts, 1);
	CHECK_EQ_STR(d->facts[0].key, "param:f#1");
	REQUIRE_EQ_INT(d->nconsulted, 1);
	CHECK_EQ_STR(d->consulted[0], "field:s.x\"}]");
	REQUIRE_EQ_INT(d->nincludes, 1);
	CHECK_EQ_STR(d->includes[0], "/k/include/linux/slab.h");
	/* not an object: an error, and none of them */
	struct file_result *w = xcalloc(1, sizeof(*w));
	file_result_init(w, "w.c");
	w->deferred = xstrdup("[1]");
	CHECK_EQ_INT(file_result_load_deferred(w), GA_EINVAL);
	err_clear();
	CHECK_EQ_INT(w->nfacts, 0);
	file_result_free(w);
	file_result_free(d);
	json_decref(keep);
	json_decref(more);
	json_decref(j);
	file_result_free(r);
}

TEST(file_result_facts_eligible_files)
{
	struct file_result *konst = result_with_fact("a.c", "field:s.x", 8, SRCB(CONST));
	konst->facts_digest = xstrdup("d");
	CHECK(!file_result_facts_eligible(konst)); /* a constant publisher, no open site */
	struct file_result *open = xcalloc(1, sizeof(*open));
	file_result_init(open, "b.c");
	open->status = FILE_ANALYZED;
	open->facts_digest = xstrdup("d");
	file_result_add_fact(open, "param:f#0", iv_unknown(), SRCB(UNKNOWN), 3);
	CHECK(file_result_facts_eligible(open));
	free(open->facts_digest);
	open->facts_digest = NULL; /* judged without a fact base: nothing to compare */
	CHECK(!file_result_facts_eligible(open));
	file_result_free(konst);
	file_result_free(open);
}

static bool accept_digest_ok(void *data, const struct file_result *r)
{
	return !strcmp(r->facts_digest, (const char *)data);
}

TEST(store_judged_rows_by_digest)
{
	char tmpl[] = "/tmp/gfpaudit-unit-XXXXXX";
	char *d = mkdtemp(tmpl), *db = xasprintf("%s/c.sqlite", d);
	struct store *s;
	REQUIRE_EQ_INT(store_open(db, &s), 0);
	struct store_key k = { .path = "a.c" };
	store_hash_buf("ctx", 3, k.context);
	store_hash_buf("int a;", 6, k.content);
	struct file_result *r = result_with_fact("a.c", "field:s.x", 8, SRCB(CONST)), *got = NULL;
	CHECK(store_judged_put(s, &k, r) != 0); /* no digest: refused */
	err_clear();
	r->facts_digest = xstrdup("one");
	CHECK_EQ_INT(store_judged_put(s, &k, r), 0);
	free(r->facts_digest);
	r->facts_digest = xstrdup("two");
	CHECK_EQ_INT(store_judged_put(s, &k, r), 0);
	CHECK_EQ_INT(store_judged_get(s, &k, accept_digest_ok, "one", &got), 0);
	CHECK(got && !strcmp(got->facts_digest, "one"));
	file_result_free(got);
	CHECK_EQ_INT(store_judged_get(s, &k, accept_digest_ok, "two", &got), 0);
	file_result_free(got);
	CHECK_EQ_INT(store_judged_get(s, &k, accept_digest_ok, "three", &got), GA_ENOTFOUND);
	struct store_key other = k;
	store_hash_buf("ctx2", 4, other.context);
	CHECK_EQ_INT(store_judged_get(s, &other, accept_digest_ok, "one", &got), GA_ENOTFOUND);
	err_clear();
	/* the facts live in the side row: read with the row, or asked for */
	CHECK_EQ_INT(store_judged_get(s, &k, accept_digest_ok, "one", &got), 0);
	CHECK(got && got->nfacts == 1 && got->deferred_ref == NULL);
	file_result_free(got);
	CHECK_EQ_INT(store_judged_get_digest(s, &k, "one", &got), 0);
	CHECK(got && got->nfacts == 0 && got->deferred_ref != NULL);
	CHECK_EQ_INT(store_load_deferred(s, got), 0);
	CHECK(got && got->nfacts == 1 && got->facts[0].iv.hi == 8);
	file_result_free(got);
	CHECK_EQ_INT(store_judged_get_digest(s, &k, "one", &got), 0);
	/* a side row edited by hand is not trusted: not read with the row,
	 * and not loaded for a result read before the edit */
	store_close(s);
	sqlite3 *raw;
	REQUIRE(sqlite3_open(db, &raw) == SQLITE_OK);
	sqlite3_exec(raw, "UPDATE judged_more SET body=replace(body, '8', '9')", NULL, NULL, NULL);
	sqlite3_close(raw);
	REQUIRE_EQ_INT(store_open(db, &s), 0);
	CHECK_EQ_INT(store_load_deferred(s, got), GA_EINVAL);
	err_clear();
	CHECK(got && got->nfacts == 0);
	file_result_free(got);
	CHECK_EQ_INT(store_judged_get(s, &k, accept_digest_ok, "one", &got), GA_ENOTFOUND);
	err_clear();
	/* so is a main row, and one whose side row is gone */
	CHECK_EQ_INT(store_judged_put(s, &k, r), 0); /* "two" again: trusted */
	CHECK_EQ_INT(store_judged_get(s, &k, accept_digest_ok, "two", &got), 0);
	file_result_free(got);
	store_close(s);
	REQUIRE(sqlite3_open(db, &raw) == SQLITE_OK);
	sqlite3_exec(raw, "UPDATE judged SET result=replace(result, 'a.c', 'b.c') WHERE digest='two'", NULL, NULL, NULL);
	sqlite3_close(raw);
	REQUIRE_EQ_INT(store_open(db, &s), 0);
	CHECK_EQ_INT(store_judged_get(s, &k, accept_digest_ok, "two", &got), GA_ENOTFOUND);
	err_clear();
	CHECK_EQ_INT(store_judged_put(s, &k, r), 0);
	store_close(s);
	REQUIRE(sqlite3_open(db, &raw) == SQLITE_OK);
	sqlite3_exec(raw, "DELETE FROM judged_more WHERE digest='two'", NULL, NULL, NULL);
	sqlite3_close(raw);
	REQUIRE_EQ_INT(store_open(db, &s), 0);
	CHECK_EQ_INT(store_judged_get_digest(s, &k, "two", &got), GA_ENOTFOUND);
	err_clear();
	store_close(s);
	file_result_free(r);
	free(db);
}

static bool want_none(void *data, const char *abs);
static int count_no_facts(void *data, const struct store_tree_file *f);

static int count_rows(void *data, const struct store_tree_file *f)
{
	(*(int *)data)++;
	return f->facts ? 0 : -1;
}

TEST(store_tree_facts_rebuild_replaces)
{
	char tmpl[] = "/tmp/gfpaudit-unit-XXXXXX";
	char *d = mkdtemp(tmpl), *db = xasprintf("%s/c.sqlite", d);
	struct store *s;
	REQUIRE_EQ_INT(store_open(db, &s), 0);
	char ctx[STORE_HASH_HEX];
	store_hash_buf("ctx", 3, ctx);
	size_t files = 0;
	CHECK_EQ_INT(store_tree_info(s, ctx, NULL, &files), GA_ENOTFOUND);
	err_clear();
	struct store_tree_file f = { .path = "a.c", .abs = "/x/a.c", .facts = "{}" };
	CHECK_EQ_INT(store_tree_begin(s, ctx, "/x"), 0);
	CHECK_EQ_INT(store_tree_put(s, ctx, &f), 0);
	f.path = "b.c";
	CHECK_EQ_INT(store_tree_put(s, ctx, &f), 0);
	CHECK_EQ_INT(store_tree_finish(s, ctx), 0);
	char *root = NULL;
	CHECK_EQ_INT(store_tree_info(s, ctx, &root, &files), 0);
	CHECK_EQ_STR(root, "/x");
	CHECK_EQ_INT(files, 2);
	free(root);
	CHECK_EQ_INT(store_tree_begin(s, ctx, "/y"), 0);
	CHECK_EQ_INT(store_tree_put(s, ctx, &f), 0);
	CHECK_EQ_INT(store_tree_finish(s, ctx), 0);
	int n = 0;
	CHECK_EQ_INT(store_tree_each(s, ctx, NULL, count_rows, &n), 0);
	CHECK_EQ_INT(n, 1);
	/* rows not wanted come without their facts */
	n = 0;
	CHECK_EQ_INT(store_tree_each(s, ctx, want_none, count_no_facts, &n), 0);
	CHECK_EQ_INT(n, 1);
	store_close(s);
	free(db);
}

static bool want_none(void *data, const char *abs)
{
	(void)data;
	(void)abs;
	return false;
}

static int count_no_facts(void *data, const struct store_tree_file *f)
{
	(*(int *)data)++;
	return f->facts ? -1 : 0;
}

/* A row's checksum, hashed in place, is the blob id of the row's text
 * joined (what older builds of this version wrote). */
TEST(store_row_checksum_is_the_blob_id)
{
	struct store_key k = { .path = "a.c" };
	store_hash_buf("ctx", 3, k.context);
	store_hash_buf("content", 7, k.content);
	char got[STORE_HASH_HEX], want[STORE_HASH_HEX];
	char *all = xasprintf("gfpaudit-row %s\n%s\n%s\n%s\n%lld\njudged d\n{\"file\":\"a.c\"}", gfpaudit_version,
			      k.path, k.context, k.content, 7LL);
	store_hash_buf(all, strlen(all), want);
	store_i_row_checksum2(&k, 7, "judged d\n", "{\"file\":\"a.c\"}", got);
	CHECK_EQ_STR(got, want);
	free(all);
	all = xasprintf("gfpaudit-row %s\n%s\n%s\n%s\n%lld\nmore -\n", gfpaudit_version, k.path, k.context,
			k.content, 0LL);
	store_hash_buf(all, strlen(all), want);
	store_i_row_checksum(&k, 0, NULL, NULL, got);
	CHECK_EQ_STR(got, want);
	free(all);
}

/* Run records: kept per context and key, refused when edited; the tree's
 * facts count their changes, whoever makes them. */
TEST(store_run_record_and_tree_gen)
{
	char tmpl[] = "/tmp/gfpaudit-unit-XXXXXX";
	char *d = mkdtemp(tmpl), *db = xasprintf("%s/c.sqlite", d);
	struct store *s;
	REQUIRE_EQ_INT(store_open(db, &s), 0);
	char ctx[STORE_HASH_HEX], other[STORE_HASH_HEX];
	store_hash_buf("ctx", 3, ctx);
	store_hash_buf("other", 5, other);
	char *body = NULL;
	CHECK_EQ_INT(store_run_get(s, ctx, "k1", &body), GA_ENOTFOUND);
	err_clear();
	CHECK_EQ_INT(store_run_put(s, ctx, "k1", "stamp -\njudged 0 abc\n"), 0);
	CHECK_EQ_INT(store_run_get(s, ctx, "k1", &body), 0);
	CHECK_EQ_STR(body, "stamp -\njudged 0 abc\n");
	free(body);
	CHECK_EQ_INT(store_run_get(s, other, "k1", &body), GA_ENOTFOUND);
	err_clear();
	CHECK_EQ_INT(store_run_get(s, ctx, "k2", &body), GA_ENOTFOUND);
	err_clear();
	long long g0 = -1, g1 = -1, g2 = -1;
	CHECK_EQ_INT(store_tree_gen(s, ctx, &g0), 0);
	CHECK_EQ_INT(g0, 0);
	struct store_tree_file f = { .path = "a.c", .abs = "/x/a.c", .facts = "{}" };
	CHECK_EQ_INT(store_tree_begin(s, ctx, "/x"), 0);
	CHECK_EQ_INT(store_tree_put(s, ctx, &f), 0);
	CHECK_EQ_INT(store_tree_finish(s, ctx), 0);
	CHECK_EQ_INT(store_tree_gen(s, ctx, &g1), 0);
	CHECK(g1 > g0);
	CHECK_EQ_INT(store_tree_gen(s, other, &g2), 0);
	CHECK_EQ_INT(g2, 0);
	store_close(s);
	/* another writer (raw SQL, an older build): counted too; an edited
	 * record is refused */
	sqlite3 *raw = NULL;
	REQUIRE(sqlite3_open(db, &raw) == SQLITE_OK);
	sqlite3_exec(raw, "UPDATE treefacts SET facts='{\"x\":1}'; UPDATE runs SET body='stamp -\n'", NULL, NULL, NULL);
	sqlite3_close(raw);
	REQUIRE_EQ_INT(store_open(db, &s), 0);
	CHECK_EQ_INT(store_tree_gen(s, ctx, &g2), 0);
	CHECK(g2 > g1);
	CHECK_EQ_INT(store_run_get(s, ctx, "k1", &body), GA_ENOTFOUND);
	err_clear();
	store_close(s);
	free(db);
}

/* Do a and b answer alike for keys[] (the digests' text and the values)? */
static bool same_answers(struct factbase *a, struct factbase *b, char *const *keys, size_t n)
{
	bool same = true;
	for (size_t k = 0; k < n; k++) {
		char da[FACTBASE_DIGEST_HEX + 1], db[FACTBASE_DIGEST_HEX + 1];
		factbase_digest(a, &keys[k], 1, da);
		factbase_digest(b, &keys[k], 1, db);
		same = same && !strcmp(da, db);
		struct fact_value va, vb;
		bool ha = factbase_get(a, keys[k], &va), hb = factbase_get(b, keys[k], &vb);
		same = same && ha == hb;
		if (ha && hb)
			same = same && va.iv.known == vb.iv.known && va.iv.lo == vb.iv.lo && va.iv.hi == vb.iv.hi &&
			       va.nobs == vb.nobs && va.nfiles == vb.nfiles && !strcmp(va.where, vb.where) &&
			       !strcmp(va.where2 ? va.where2 : "-", vb.where2 ? vb.where2 : "-");
	}
	return same;
}

static void state_add(struct factstate *fs, const struct file_result *r, const char *ident)
{
	const struct fact_obs **obs = xcalloc(r->nfacts + 1, sizeof(*obs));
	for (size_t k = 0; k < r->nfacts; k++)
		obs[k] = &r->facts[k];
	struct factstate_file f = { .path = r->file, .ident = ident, .wanted = true, .obs = obs, .nobs = r->nfacts,
				    .consulted = r->consulted, .nconsulted = r->nconsulted };
	factstate_set(fs, &f);
	free(obs);
}

TEST(factstate_answers_as_the_join_and_survives_its_blob)
{
	/* b.c, then a.c, then c.c: the state keeps path order, as the join */
	struct file_result *b = result_with_fact("b.c", "field:s.x", 100, SRCB(CONST));
	file_result_add_fact(b, "param:f#1", iv_range(1, 9), SRCB(USER), 12);
	struct file_result *a = result_with_fact("a.c", "field:s.x", 40000, SRCB(CONST));
	file_result_add_fact(a, "field:s.*", iv_unknown(), SRCB(DEVICE), 3);
	struct file_result *c = result_with_fact("c.c", "field:t.y", 5, SRCB(CONST));
	char *cons[] = { "field:s.x", "param:f#1" };
	c->consulted = xcalloc(3, sizeof(char *));
	c->consulted[0] = xstrdup(cons[0]);
	c->consulted[1] = xstrdup(cons[1]);
	c->nconsulted = 2;
	char *keys[] = { "field:s.x", "field:s.*", "param:f#1", "field:t.y", "field:none.z" };
	struct factbase *join = factbase_new();
	factbase_add_result(join, a);
	factbase_add_result(join, b);
	factbase_add_result(join, c);
	struct factstate *fs = factstate_new();
	state_add(fs, b, "idb");
	state_add(fs, a, "ida");
	state_add(fs, c, "idc");
	struct factbase *src = factbase_new();
	factstate_source(fs, src);
	CHECK(same_answers(join, src, keys, 5));
	CHECK_EQ_INT(factbase_size(src), 4);
	/* readers: c.c consulted field:s.x; the wildcard field:s.* covers it */
	size_t nr;
	size_t *rd = factstate_readers(fs, "field:s.*", &nr);
	REQUIRE(nr == 1);
	struct factstate_file f;
	REQUIRE(factstate_file(fs, rd[0], &f));
	CHECK_EQ_STR(f.path, "c.c");
	free(rd);
	rd = factstate_readers(fs, "field:t.y", &nr);
	CHECK_EQ_INT(nr, 0);
	free(rd);
	/* the blob and back */
	void *blob;
	size_t len;
	factstate_save(fs, &blob, &len);
	struct factstate *back;
	REQUIRE(factstate_load(blob, len, &back) == 0);
	struct factbase *src2 = factbase_new();
	factstate_source(back, src2);
	CHECK(same_answers(join, src2, keys, 5));
	long at = factstate_find(back, "a.c");
	REQUIRE(at >= 0 && factstate_file(back, (size_t)at, &f));
	CHECK_EQ_STR(f.ident, "ida");
	CHECK(f.digest == NULL && f.wanted);
	/* a.c changes: its new part replaces the old; b.c goes */
	struct file_result *a2 = result_with_fact("a.c", "field:s.x", 64, SRCB(CONST));
	state_add(back, a2, "ida2");
	CHECK(factstate_drop(back, "b.c"));
	struct factbase *join2 = factbase_new();
	factbase_add_result(join2, a2);
	factbase_add_result(join2, c);
	factbase_free(src2);
	src2 = factbase_new();
	factstate_source(back, src2);
	CHECK(same_answers(join2, src2, keys, 5));
	CHECK(!same_answers(join, src2, keys, 5)); /* the change shows */
	/* the same change as parts beside the first blob: a.c's new part, b.c gone */
	void *pa, *pb;
	size_t la, lb;
	factstate_part_save(back, "a.c", &pa, &la);
	factstate_part_save(back, "b.c", &pb, &lb);
	struct factstate *again;
	REQUIRE(factstate_load(blob, len, &again) == 0);
	CHECK(factstate_part_load(again, pa, la) == 0);
	CHECK(factstate_part_load(again, pb, lb) == 0);
	CHECK(factstate_part_load(again, pa, la / 2) != 0);
	err_clear();
	struct factbase *src3 = factbase_new();
	factstate_source(again, src3);
	CHECK(same_answers(join2, src3, keys, 5));
	at = factstate_find(again, "a.c");
	REQUIRE(at >= 0 && factstate_file(again, (size_t)at, &f));
	CHECK_EQ_STR(f.ident, "ida2");
	CHECK(factstate_find(again, "b.c") < 0 || !factstate_file(again, (size_t)factstate_find(again, "b.c"), &f));
	factbase_free(src3);
	factstate_free(again);
	free(pa);
	free(pb);
	/* a blob that is not one: refused, never read past its end */
	struct factstate *bad;
	CHECK(factstate_load(blob, len / 2, &bad) != 0 && !bad);
	((char *)blob)[0] = 'X';
	CHECK(factstate_load(blob, len, &bad) != 0 && !bad);
	err_clear();
	free(blob);
	factbase_free(src);
	factbase_free(src2);
	factbase_free(join);
	factbase_free(join2);
	factstate_free(fs);
	factstate_free(back);
	file_result_free(a);
	file_result_free(a2);
	file_result_free(b);
	file_result_free(c);
}

/* The overlay: the state's join with one file's part replaced answers as
 * the join with that file's new result in its place (path order kept: the
 * first observation names a key's value), and leaves the state as it was. */
TEST(factstate_overlay_answers_as_the_join_with_the_file_replaced)
{
	struct file_result *a = result_with_fact("a.c", "field:s.x", 40000, SRCB(CONST));
	struct file_result *b = result_with_fact("b.c", "field:s.x", 100, SRCB(CONST));
	file_result_add_fact(b, "param:f#1", iv_range(1, 9), SRCB(USER), 12);
	struct file_result *c = result_with_fact("c.c", "field:s.x", 7, SRCB(CONST));
	/* b.c's new result: another value for s.x, f#1 gone, a key of its own */
	struct file_result *b2 = result_with_fact("b.c", "field:s.x", 65536, SRCB(USER));
	file_result_add_fact(b2, "field:u.z", iv_range(2, 3), SRCB(CONST), 4);
	char *keys[] = { "field:s.x", "param:f#1", "field:u.z", "field:s.*" };
	struct factstate *fs = factstate_new();
	state_add(fs, c, "idc");
	state_add(fs, a, "ida");
	state_add(fs, b, "idb");
	struct factbase *want = factbase_new();
	factbase_add_result(want, a);
	factbase_add_result(want, b2);
	factbase_add_result(want, c);
	struct factstate_overlay *ov = factstate_overlay_new(fs, b2);
	struct factbase *over = factbase_new();
	factstate_overlay_source(ov, over);
	CHECK(same_answers(want, over, keys, 4));
	/* a file the state has not: its part goes in its place too */
	struct file_result *bb = result_with_fact("bb.c", "field:s.x", 1, SRCB(CONST));
	struct factbase *want2 = factbase_new();
	factbase_add_result(want2, a);
	factbase_add_result(want2, b);
	factbase_add_result(want2, bb);
	factbase_add_result(want2, c);
	struct factstate_overlay *ov2 = factstate_overlay_new(fs, bb);
	struct factbase *over2 = factbase_new();
	factstate_overlay_source(ov2, over2);
	CHECK(same_answers(want2, over2, keys, 4));
	/* the first file in path order: its part stays first (it names the value) */
	struct file_result *a2 = result_with_fact("a.c", "field:s.x", 50000, SRCB(REMOTE));
	struct factbase *want3 = factbase_new();
	factbase_add_result(want3, a2);
	factbase_add_result(want3, b);
	factbase_add_result(want3, c);
	struct factstate_overlay *ov3 = factstate_overlay_new(fs, a2);
	struct factbase *over3 = factbase_new();
	factstate_overlay_source(ov3, over3);
	CHECK(same_answers(want3, over3, keys, 4));
	factbase_free(over3);
	factbase_free(want3);
	factstate_overlay_free(ov3);
	file_result_free(a2);
	/* the state itself is unchanged */
	struct factbase *old = factbase_new(), *src = factbase_new();
	factbase_add_result(old, a);
	factbase_add_result(old, b);
	factbase_add_result(old, c);
	factstate_source(fs, src);
	CHECK(same_answers(old, src, keys, 4));
	CHECK(!same_answers(old, over, keys, 4)); /* the replacement shows */
	factbase_free(src);
	factbase_free(old);
	factbase_free(over2);
	factbase_free(want2);
	factstate_overlay_free(ov2);
	factbase_free(over);
	factbase_free(want);
	factstate_overlay_free(ov);
	factstate_free(fs);
	file_result_free(a);
	file_result_free(b);
	file_result_free(b2);
	file_result_free(bb);
	file_result_free(c);
}
