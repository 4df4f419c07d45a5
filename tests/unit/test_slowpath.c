/* The slow-path model: recognition on toy trees (tests/data/trees/), the
 * built-in models, simulation, alloc_flags interpretation, and the
 * costly-noretry-compacts rule over a hand-made site. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gfpaudit/check.h"
#include "harness.h"
#include "gfpaudit/slowpath.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

#define TOY "tests/data/trees/toy612"

/* The data paths are relative to the repository root: when run from
 * elsewhere, move there (the binary lives in build/). */
__attribute__((constructor)) static void to_repo_root(void)
{
	struct stat st;
	char exe[4096];
	if (stat(TOY, &st) == 0)
		return;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = 0;
	for (int up = 0; up < 2; up++) {
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
	}
	if (chdir(exe)) { /* the tests will say what is missing */ }
}

/* Line of the "@name" marker comment in a toy file. */
static int marker(const char *file, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	if (strbuf_read_file(&sb, file, 1 << 20))
		return -1;
	char *key = xasprintf("@%s ", name);
	int line = 1, found = -1;
	for (const char *p = sb.buf; *p; p++) {
		if (*p == '\n')
			line++;
		else if (!strncmp(p, key, strlen(key))) {
			found = line;
			break;
		}
	}
	free(key);
	strbuf_release(&sb);
	return found;
}

static bool fact_is(const struct slowpath_model *m, enum sp_fact_id id, const char *file, const char *name)
{
	char *path = xasprintf(TOY "/%s", file);
	int want = marker(path, name);
	free(path);
	const struct sp_fact *f = &m->facts[id];
	if (!f->present || !f->file || strcmp(f->file, file) || f->line != want) {
		fprintf(stderr, "  fact %d: present %d file %s line %d, want %s:%d\n", (int)id, f->present,
			f->file ? f->file : "-", f->line, file, want);
		return false;
	}
	return true;
}

static const uint64_t KERNEL = GFPB(DIRECT_RECLAIM) | GFPB(KSWAPD_RECLAIM) | GFPB(IO) | GFPB(FS);

TEST(slowpath_reads_toy_612)
{
	struct slowpath_model *m = NULL;
	REQUIRE(!slowpath_model_load(TOY, NULL, &m));
	CHECK_EQ_STR(m->name, "tree");
	CHECK(m->reason == NULL);
	CHECK_EQ_STR(m->version, "6.12.0");
	CHECK(m->compaction);
	CHECK(fact_is(m, SPF_CAN_DIRECT_RECLAIM, "mm/page_alloc.c", "can_dr"));
	CHECK(fact_is(m, SPF_KSWAPD, "mm/page_alloc.c", "kswapd"));
	CHECK(fact_is(m, SPF_COMPACT_FIRST, "mm/page_alloc.c", "compact_first"));
	CHECK(fact_is(m, SPF_COSTLY_NORETRY, "mm/page_alloc.c", "costly_noretry"));
	CHECK(fact_is(m, SPF_CN_BAIL_SKIPPED, "mm/page_alloc.c", "bail_skipped"));
	CHECK(fact_is(m, SPF_CN_BAIL_THISNODE, "mm/page_alloc.c", "bail_thisnode"));
	CHECK(fact_is(m, SPF_CN_ASYNC, "mm/page_alloc.c", "async"));
	CHECK(fact_is(m, SPF_RECLAIM_NEEDS_DR, "mm/page_alloc.c", "needs_dr"));
	CHECK(fact_is(m, SPF_RECLAIM, "mm/page_alloc.c", "reclaim"));
	CHECK(fact_is(m, SPF_DRAIN, "mm/page_alloc.c", "drain"));
	CHECK(fact_is(m, SPF_COMPACT_AFTER, "mm/page_alloc.c", "compact_after"));
	CHECK(fact_is(m, SPF_NORETRY_EXIT, "mm/page_alloc.c", "noretry_exit"));
	CHECK(fact_is(m, SPF_COSTLY_EXIT, "mm/page_alloc.c", "costly_exit"));
	CHECK(fact_is(m, SPF_RECLAIM_RETRY, "mm/page_alloc.c", "reclaim_retry"));
	CHECK(fact_is(m, SPF_COMPACT_RETRY, "mm/page_alloc.c", "compact_retry"));
	CHECK(fact_is(m, SPF_OOM, "mm/page_alloc.c", "oom"));
	CHECK(fact_is(m, SPF_OOM_NOT_COSTLY, "mm/page_alloc.c", "oom_costly"));
	CHECK(fact_is(m, SPF_OOM_NOT_MAYFAIL, "mm/page_alloc.c", "oom_mayfail"));
	CHECK(fact_is(m, SPF_NOFAIL_WARN, "mm/page_alloc.c", "nofail_warn"));
	CHECK(fact_is(m, SPF_NOFAIL_NO_RECLAIM, "mm/page_alloc.c", "nofail_fail"));
	CHECK(fact_is(m, SPF_NOFAIL_LOOP, "mm/page_alloc.c", "nofail_loop"));
	CHECK(fact_is(m, SPF_ALLOC_FLAGS_CALL, "mm/page_alloc.c", "af_call"));
	CHECK(fact_is(m, SPF_COMPACTION_IO, "include/linux/gfp.h", "compaction_io"));
	CHECK_EQ_INT(m->nofail_warn_order, 1);
	CHECK_EQ_INT(m->cn_skip, CN_SKIP_NONE);
	/* aliases read from the BUILD_BUG_ONs */
	CHECK(slowpath_is_alias(m, "__GFP_HIGH", "ALLOC_MIN_RESERVE"));
	CHECK(slowpath_is_alias(m, "__GFP_KSWAPD_RECLAIM", "ALLOC_KSWAPD"));
	CHECK(!slowpath_is_alias(m, "__GFP_NOWARN", "ALLOC_KSWAPD"));
	/* values evaluated from the toy headers, not hard-coded */
	CHECK(m->gfp_known);
	CHECK_EQ_INT(m->gfp.value[GFPF_NORETRY], 1 << 16);
	CHECK_EQ_INT(m->gfp.value[GFPF_DIRECT_RECLAIM], 1 << 10);
	CHECK_EQ_INT(m->gfp.value[GFPF_NOLOCKDEP], 0); /* configured out */
	const struct sp_fact *where = NULL;
	CHECK(slowpath_costly_noretry_compacts(m, &where));
	CHECK(where && where->line == marker(TOY "/mm/page_alloc.c", "compact_first"));
	slowpath_model_free(m);
}

TEST(slowpath_simulates_toy_612)
{
	struct slowpath_model *m = NULL;
	REQUIRE(!slowpath_model_load(TOY, NULL, &m));
	struct sp_outcome o;
	/* costly NORETRY: compaction, bail on skipped/deferred, reclaim, async compaction, fail */
	slowpath_simulate(m, gfp_const(KERNEL | GFPB(NORETRY) | GFPB(NOWARN)), 9, &o);
	CHECK_EQ_INT(o.compacts, SP_YES);
	CHECK_EQ_INT(o.reclaims, SP_YES);
	CHECK_EQ_INT(o.retries, SP_NO);
	CHECK_EQ_INT(o.oom, SP_NO);
	CHECK(strstr(o.summary, "gives up if skipped or deferred") != NULL);
	CHECK(strstr(o.summary, "async compaction once") != NULL);
	sp_outcome_release(&o);
	/* no __GFP_IO: no compaction at all (gfp_compaction_allowed) */
	slowpath_simulate(m, gfp_const(GFPB(DIRECT_RECLAIM) | GFPB(NORETRY)), 9, &o);
	CHECK_EQ_INT(o.compacts, SP_NO);
	sp_outcome_release(&o);
	/* GFP_KERNEL order 0: reclaim, retries, OOM */
	slowpath_simulate(m, gfp_const(KERNEL), 0, &o);
	CHECK_EQ_INT(o.compacts, SP_NO);
	CHECK_EQ_INT(o.retries, SP_YES);
	CHECK_EQ_INT(o.oom, SP_YES);
	sp_outcome_release(&o);
	/* costly with RETRY_MAYFAIL: retries, but no OOM killer */
	slowpath_simulate(m, gfp_const(KERNEL | GFPB(RETRY_MAYFAIL)), 5, &o);
	CHECK_EQ_INT(o.retries, SP_YES);
	CHECK_EQ_INT(o.oom, SP_NO);
	sp_outcome_release(&o);
	/* atomic: nothing */
	slowpath_simulate(m, gfp_const(GFPB(HIGH) | GFPB(KSWAPD_RECLAIM)), 2, &o);
	CHECK_EQ_INT(o.compacts, SP_NO);
	CHECK_EQ_INT(o.reclaims, SP_NO);
	CHECK_EQ_INT(o.kswapd, SP_YES);
	sp_outcome_release(&o);
	/* NOFAIL order 2 warns */
	slowpath_simulate(m, gfp_const(KERNEL | GFPB(NOFAIL)), 2, &o);
	CHECK(o.nofail_warns);
	sp_outcome_release(&o);
	slowpath_simulate(m, gfp_const(KERNEL | GFPB(NOFAIL)), 1, &o);
	CHECK(!o.nofail_warns);
	sp_outcome_release(&o);
	slowpath_model_free(m);
}

static bool has_flag(const struct sp_flags *f, const char *name, enum sp_tri want)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->f[i].name, name))
			return f->f[i].set == want;
	return want == SP_NO;
}

TEST(slowpath_alloc_flags_follow_gfp_to_alloc_flags)
{
	struct slowpath_model *m = NULL;
	REQUIRE(!slowpath_model_load(TOY, NULL, &m));
	struct sp_flags f;
	/* GFP_ATOMIC, order 1: MIN_RESERVE (alias of __GFP_HIGH), NON_BLOCK, HIGHATOMIC, no CPUSET */
	slowpath_alloc_flags(m, gfp_const(GFPB(HIGH) | GFPB(KSWAPD_RECLAIM)), 1, &f);
	CHECK(f.from_tree);
	CHECK(has_flag(&f, "ALLOC_MIN_RESERVE", SP_YES));
	CHECK(has_flag(&f, "ALLOC_NON_BLOCK", SP_YES));
	CHECK(has_flag(&f, "ALLOC_HIGHATOMIC", SP_YES));
	CHECK(has_flag(&f, "ALLOC_KSWAPD", SP_YES));
	CHECK(has_flag(&f, "ALLOC_CPUSET", SP_NO));
	CHECK(has_flag(&f, "ALLOC_WMARK_MIN", SP_YES));
	for (size_t i = 0; i < f.n; i++)
		if (!strcmp(f.f[i].name, "ALLOC_HIGHATOMIC"))
			CHECK_EQ_INT(f.f[i].line, marker(TOY "/mm/page_alloc.c", "af_highatomic"));
	sp_flags_release(&f);
	/* GFP_ATOMIC, order 0: no HIGHATOMIC */
	slowpath_alloc_flags(m, gfp_const(GFPB(HIGH) | GFPB(KSWAPD_RECLAIM)), 0, &f);
	CHECK(has_flag(&f, "ALLOC_HIGHATOMIC", SP_NO));
	sp_flags_release(&f);
	/* GFP_NOWAIT, order 3: NON_BLOCK but HIGHATOMIC needs __GFP_HIGH */
	slowpath_alloc_flags(m, gfp_const(GFPB(KSWAPD_RECLAIM)), 3, &f);
	CHECK(has_flag(&f, "ALLOC_NON_BLOCK", SP_YES));
	CHECK(has_flag(&f, "ALLOC_HIGHATOMIC", SP_NO));
	CHECK(has_flag(&f, "ALLOC_CPUSET", SP_YES));
	sp_flags_release(&f);
	/* __GFP_NOMEMALLOC without direct reclaim: no NON_BLOCK */
	slowpath_alloc_flags(m, gfp_const(GFPB(KSWAPD_RECLAIM) | GFPB(NOMEMALLOC)), 3, &f);
	CHECK(has_flag(&f, "ALLOC_NON_BLOCK", SP_NO));
	sp_flags_release(&f);
	/* GFP_KERNEL: no NON_BLOCK; MIN_RESERVE only for realtime tasks (maybe) */
	slowpath_alloc_flags(m, gfp_const(KERNEL), 4, &f);
	CHECK(has_flag(&f, "ALLOC_NON_BLOCK", SP_NO));
	CHECK(has_flag(&f, "ALLOC_MIN_RESERVE", SP_MAYBE));
	CHECK(has_flag(&f, "ALLOC_CMA", SP_NO));
	sp_flags_release(&f);
	/* movable requests may use CMA (gfp_to_alloc_flags_cma through gfp_migratetype) */
	slowpath_alloc_flags(m, gfp_const(KERNEL | GFPB(MOVABLE)), 0, &f);
	CHECK(has_flag(&f, "ALLOC_CMA", SP_YES));
	for (size_t i = 0; i < f.n; i++)
		if (!strcmp(f.f[i].name, "ALLOC_CMA"))
			CHECK_EQ_INT(f.f[i].line, marker(TOY "/mm/page_alloc.c", "cma"));
	sp_flags_release(&f);
	slowpath_model_free(m);
}

/* Copy the toy tree to a temporary one with page_alloc.c edited. */
static char *toy_variant(const char *from, const char *to)
{
	char tmpl[] = "/tmp/gfpaudit-toy-XXXXXX";
	char *dir = mkdtemp(tmpl);
	if (!dir)
		return NULL;
	char *cmd = xasprintf("cp -r " TOY "/. %s/", dir);
	int rc = system(cmd);
	free(cmd);
	if (rc)
		return NULL;
	char *pa = xasprintf("%s/mm/page_alloc.c", dir);
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	if (!strbuf_read_file(&sb, pa, 1 << 20)) {
		const char *p = strstr(sb.buf, from);
		if (p) {
			strbuf_add(&out, sb.buf, (size_t)(p - sb.buf));
			strbuf_adds(&out, to);
			strbuf_adds(&out, p + strlen(from));
			FILE *f = fopen(pa, "w");
			if (f) {
				fwrite(out.buf, 1, out.len, f);
				fclose(f);
			}
		}
	}
	strbuf_release(&sb);
	strbuf_release(&out);
	free(pa);
	return xstrdup(dir);
}

static void rm_tree(char *dir)
{
	if (!dir)
		return;
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd)) { /* best effort */ }
	free(cmd);
	free(dir);
}

TEST(slowpath_recognizes_costly_noretry_skips)
{
	/* the rejected v5 shape: folded into can_direct_reclaim */
	char *d = toy_variant("bool can_direct_reclaim = gfp_mask & __GFP_DIRECT_RECLAIM;",
		"bool can_direct_reclaim = !(order > PAGE_ALLOC_COSTLY_ORDER && (gfp_mask & __GFP_NORETRY) &&\n"
		"		!(gfp_mask & __GFP_THISNODE)) && (gfp_mask & __GFP_DIRECT_RECLAIM);");
	struct slowpath_model *m = NULL;
	REQUIRE(d && !slowpath_model_load(d, NULL, &m));
	CHECK_EQ_STR(m->name, "tree");
	CHECK_EQ_INT(m->cn_skip, CN_SKIP_FLAG);
	CHECK(m->cn_skip_exempt_thisnode);
	CHECK(!slowpath_costly_noretry_compacts(m, NULL));
	/* THISNODE is exempt: THP-style requests still compact */
	struct sp_outcome o;
	slowpath_simulate(m, gfp_const(KERNEL | GFPB(NORETRY) | GFPB(THISNODE)), 9, &o);
	CHECK_EQ_INT(o.compacts, SP_YES);
	sp_outcome_release(&o);
	/* the mask keeps __GFP_DIRECT_RECLAIM, so alloc_flags do not get NON_BLOCK */
	struct sp_flags f;
	slowpath_alloc_flags(m, gfp_const(KERNEL | GFPB(NORETRY)), 9, &f);
	CHECK(has_flag(&f, "ALLOC_NON_BLOCK", SP_NO));
	sp_flags_release(&f);
	slowpath_model_free(m);
	rm_tree(d);

	/* the mask is cleared at entry */
	m = NULL;
	d = toy_variant("	bool can_direct_reclaim = gfp_mask & __GFP_DIRECT_RECLAIM;",
		"	if (order > PAGE_ALLOC_COSTLY_ORDER && (gfp_mask & __GFP_NORETRY))\n"
		"		gfp_mask &= ~__GFP_DIRECT_RECLAIM;\n"
		"	bool can_direct_reclaim = gfp_mask & __GFP_DIRECT_RECLAIM;");
	REQUIRE(d && !slowpath_model_load(d, NULL, &m));
	CHECK_EQ_INT(m->cn_skip, CN_SKIP_MASK);
	CHECK(!slowpath_costly_noretry_compacts(m, NULL));
	slowpath_alloc_flags(m, gfp_const(KERNEL | GFPB(NORETRY)), 9, &f);
	CHECK(has_flag(&f, "ALLOC_NON_BLOCK", SP_YES));
	sp_flags_release(&f);
	slowpath_model_free(m);
	rm_tree(d);

	/* not recognized: a built-in takes over and says why */
	m = NULL;
	d = toy_variant("__alloc_pages_slowpath(gfp_t", "toy_renamed_slowpath(gfp_t");
	REQUIRE(d && !slowpath_model_load(d, NULL, &m));
	CHECK_EQ_STR(m->name, "6.12");
	CHECK(m->reason && strstr(m->reason, "__alloc_pages_slowpath") != NULL);
	char *desc = slowpath_model_describe(m);
	CHECK(strstr(desc, "built-in 6.12") != NULL);
	free(desc);
	slowpath_model_free(m);
	rm_tree(d);
}

TEST(slowpath_builtins)
{
	struct slowpath_model *m = NULL;
	REQUIRE(!slowpath_model_load(NULL, NULL, &m));
	CHECK_EQ_STR(m->name, "6.12");
	CHECK(m->assumed);
	CHECK(m->reason && strstr(m->reason, "no kernel tree") != NULL);
	CHECK(slowpath_costly_noretry_compacts(m, NULL));
	/* the built-in derivation also says HIGHATOMIC needs __GFP_HIGH */
	struct sp_flags f;
	slowpath_alloc_flags(m, gfp_const(GFPB(KSWAPD_RECLAIM)), 2, &f);
	CHECK(!f.from_tree);
	CHECK(has_flag(&f, "ALLOC_HIGHATOMIC", SP_NO));
	CHECK(has_flag(&f, "ALLOC_NON_BLOCK", SP_YES));
	sp_flags_release(&f);
	slowpath_model_free(m);
	m = NULL;
	REQUIRE(!slowpath_model_load(TOY, "later", &m));
	CHECK_EQ_STR(m->name, "later");
	CHECK(!slowpath_costly_noretry_compacts(m, NULL));
	/* non-costly NORETRY still compacts */
	struct sp_outcome o;
	slowpath_simulate(m, gfp_const(KERNEL | GFPB(NORETRY)), 2, &o);
	CHECK(o.compacts != SP_NO);
	sp_outcome_release(&o);
	slowpath_model_free(m);
	m = NULL;
	REQUIRE(!slowpath_model_load(NULL, "6.1", &m));
	CHECK(slowpath_costly_noretry_compacts(m, NULL));
	CHECK_EQ_INT(m->nofail_warn_order, 3);
	slowpath_model_free(m);
	m = NULL;
	CHECK_EQ_INT(slowpath_model_load(NULL, "5.4", &m), GA_EINVAL);
	CHECK(m == NULL);
}

/* ---- the rule, over a hand-made site ---- */

static struct site filemap_like(void)
{
	struct site s;
	site_init(&s);
	s.file = xstrdup("mm/filemap.c");
	s.line = 1944;
	s.col = 12;
	s.function = xstrdup("__filemap_get_folio");
	s.api = xstrdup("filemap_alloc_folio");
	s.order = (struct order_range){ 0, 9, true };
	s.gfp = gfp_unknown();
	s.fallback = FB_ORDER_LOOP;
	/* the attempts above the floor get NORETRY|NOWARN, the floor keeps the mask */
	site_add_attempt(&s, (struct order_range){ 1, 9, true }, ROLE_FALLBACK,
			 (struct gfp_bits){ GFPB(NORETRY) | GFPB(NOWARN), GFP_ALL_BITS }, "order > min_order");
	site_add_attempt(&s, (struct order_range){ 0, 9, true }, ROLE_LAST, gfp_unknown(), "order == min_order");
	return s;
}

static const struct check *rule; /* costly-noretry-compacts, from the check table */

static size_t run_rule(const struct slowpath_model *m, const struct site *s, struct file_result *r)
{
	struct tree_facts facts = { .costly_order = 3, .max_order = 10, .page_shift = 12, .model = m };
	struct check_ctx ctx = { .out = r, .facts = &facts, .file = s->file };
	rule->on_site(rule, s, &ctx);
	return r->nfindings;
}

TEST(rule_costly_noretry_compacts)
{
	rule = check_find("costly-noretry-compacts");
	REQUIRE(rule && rule->on_site);
	struct slowpath_model *m = NULL, *later = NULL;
	REQUIRE(!slowpath_model_load(TOY, NULL, &m) && m);
	REQUIRE(!slowpath_model_load(TOY, "later", &later) && later);
	CHECK(!m->assumed && !later->assumed);
	struct site s = filemap_like();
	struct file_result r;
	file_result_init(&r, "mm/filemap.c");
	REQUIRE_EQ_INT(run_rule(m, &s, &r), 1);
	CHECK(strstr(r.findings[0].message, "orders 4..9") != NULL);
	CHECK(strstr(r.findings[0].message, "mm/page_alloc.c:") != NULL);
	CHECK(strstr(r.findings[0].message, "skipped or deferred") != NULL);
	CHECK(r.findings[0].site.nev > 0);
	file_result_release(&r);
	/* no tree, no --allocator-model: the default model makes no claim */
	struct slowpath_model *dflt = NULL;
	CHECK(!slowpath_model_load(NULL, NULL, &dflt));
	file_result_init(&r, "mm/filemap.c");
	CHECK_EQ_INT(run_rule(dflt, &s, &r), 0);
	file_result_release(&r);
	slowpath_model_free(dflt);
	/* the "later" allocator does not compact for it */
	file_result_init(&r, "mm/filemap.c");
	CHECK_EQ_INT(run_rule(later, &s, &r), 0);
	file_result_release(&r);
	/* the fixed caller: no direct reclaim for the costly attempts */
	s.att[0].gfp.may &= ~GFPB(DIRECT_RECLAIM);
	file_result_init(&r, "mm/filemap.c");
	CHECK_EQ_INT(run_rule(m, &s, &r), 0);
	file_result_release(&r);
	/* no NORETRY on the costly attempts: another rule's business */
	s.att[0].gfp = gfp_unknown();
	file_result_init(&r, "mm/filemap.c");
	CHECK_EQ_INT(run_rule(m, &s, &r), 0);
	file_result_release(&r);
	/* not costly */
	s.att[0].gfp = (struct gfp_bits){ GFPB(NORETRY), GFP_ALL_BITS };
	s.order.hi = 3;
	s.att[0].orders.hi = s.att[1].orders.hi = 3;
	file_result_init(&r, "mm/filemap.c");
	CHECK_EQ_INT(run_rule(m, &s, &r), 0);
	file_result_release(&r);
	site_release(&s);
	slowpath_model_free(m);
	slowpath_model_free(later);
}
