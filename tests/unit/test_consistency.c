/* The gfp/alloc_flags consistency rules against the corpus cases' own
 * "// warn: rule-id" markers (the corpus files are the expectations), and
 * against the toy 6.12-shaped slow path. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "gfpaudit/consistency.h"
#include "gfpaudit/slowpath.h"
#include "gfpaudit/strbuf.h"

struct mark {
	int line;
	char rule[64];
};

/* "// warn: rule-id" markers of a file. */
static size_t read_marks(const char *path, struct mark *out, size_t max)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	if (strbuf_read_file(&sb, path, 1 << 20))
		return 0;
	int line = 1;
	for (char *p = sb.buf; *p; p++) {
		if (*p == '\n') {
			line++;
			continue;
		}
		if (strncmp(p, "// warn: ", 9) || n >= max)
			continue;
		char *e = p + 9;
		size_t k = 0;
		while (*e && *e != '\n' && *e != ' ' && k < sizeof(out[n].rule) - 1)
			out[n].rule[k++] = *e++;
		out[n].rule[k] = 0;
		out[n++].line = line;
	}
	strbuf_release(&sb);
	return n;
}

static bool ours(const char *rule)
{
	return !strcmp(rule, "gfp-derived-divergence") || !strcmp(rule, "stale-alloc-flags") ||
	       !strcmp(rule, "gfp-alloc-flags-mix");
}

/* Findings must be exactly the markers (per line and rule). */
static int compare(const char *path, const struct cons_result *r)
{
	struct mark m[64];
	size_t n = read_marks(path, m, 64);
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		if (!ours(m[i].rule))
			continue;
		bool found = false;
		for (size_t k = 0; k < r->n; k++)
			found |= r->f[k].line == m[i].line && !strcmp(cons_rule_id(r->f[k].rule), m[i].rule);
		if (!found) {
			fprintf(stderr, "  %s:%d: expected %s, not reported\n", path, m[i].line, m[i].rule);
			bad++;
		}
	}
	for (size_t k = 0; k < r->n; k++) {
		bool expected = false;
		for (size_t i = 0; i < n; i++)
			expected |= r->f[k].line == m[i].line && !strcmp(cons_rule_id(r->f[k].rule), m[i].rule);
		if (!expected) {
			fprintf(stderr, "  %s:%d: unexpected %s: %s\n", path, r->f[k].line,
				cons_rule_id(r->f[k].rule), r->f[k].message);
			bad++;
		}
	}
	return bad;
}

TEST(consistency_corpus_markers)
{
	struct slowpath_model *m = NULL;
	CHECK(!slowpath_model_load(NULL, NULL, &m)); /* built-in: the aliases */
	DIR *d = opendir("corpus");
	CHECK(d != NULL);
	int files = 0;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "mm-", 3) || !strstr(de->d_name, ".c"))
			continue;
		char *path = xasprintf("corpus/%s", de->d_name);
		struct cons_opts o = { CONS_DIVERGENCE | CONS_STALE | CONS_MIX, m, false, NULL, NULL };
		struct cons_result r;
		CHECK(!consistency_check(path, NULL, 0, &o, &r));
		CHECK_EQ_INT(compare(path, &r), 0);
		cons_result_release(&r);
		free(path);
		files++;
	}
	if (d)
		closedir(d);
	CHECK(files >= 6);
	slowpath_model_free(m);
}

TEST(consistency_messages_are_specific)
{
	struct slowpath_model *m = NULL;
	REQUIRE(!slowpath_model_load("tests/data/trees/toy612", NULL, &m));
	struct cons_opts o = { CONS_DIVERGENCE | CONS_STALE | CONS_MIX, m, false, NULL, NULL };
	struct cons_result r;
	CHECK(!consistency_check("corpus/mm-divergence-folded.c", NULL, 0, &o, &r));
	REQUIRE_EQ_INT(r.n, 1);
	CHECK_EQ_STR(r.f[0].subject, "can_direct_reclaim");
	CHECK(strstr(r.f[0].message, "'cheap_fallback'") != NULL);
	CHECK(strstr(r.f[0].message, "'gfp_to_alloc_flags'") != NULL);
	CHECK(strstr(r.f[0].message, "change the mask") != NULL);
	CHECK(r.f[0].nev >= 2);
	cons_result_release(&r);
	CHECK(!consistency_check("corpus/mm-alloc-flags-mix.c", NULL, 0, &o, &r));
	bool cpuset_as_io = false, nowarn = false;
	for (size_t i = 0; i < r.n; i++) {
		/* values from the toy tree: ALLOC_CPUSET (0x40) is __GFP_IO there */
		cpuset_as_io |= !strcmp(r.f[i].subject, "ALLOC_CPUSET") && strstr(r.f[i].message, "__GFP_IO");
		nowarn |= !strcmp(r.f[i].subject, "__GFP_NOWARN") && strstr(r.f[i].message, "no ALLOC_* flag");
		/* never claims reserve access */
		CHECK(strstr(r.f[i].message, "reserve") == NULL);
	}
	CHECK(cpuset_as_io);
	CHECK(nowarn);
	cons_result_release(&r);
	slowpath_model_free(m);
}

TEST(consistency_toy_slowpath)
{
	const char *toy = "tests/data/trees/toy612/mm/page_alloc.c";
	struct slowpath_model *m = NULL;
	REQUIRE(!slowpath_model_load("tests/data/trees/toy612", NULL, &m));
	struct cons_opts o = { CONS_DIVERGENCE | CONS_STALE | CONS_MIX, m, false, NULL, NULL };
	struct cons_result r;
	/* the toy as written: consistent */
	CHECK(!consistency_check(toy, NULL, 0, &o, &r));
	CHECK_EQ_INT(r.n, 0);
	for (size_t i = 0; i < r.n; i++)
		fprintf(stderr, "  unexpected: %d %s\n", r.f[i].line, r.f[i].message);
	cons_result_release(&r);
	/* folded into can_direct_reclaim: the divergence */
	struct strbuf sb = STRBUF_INIT, v = STRBUF_INIT;
	REQUIRE(!strbuf_read_file(&sb, toy, 1 << 20));
	const char *from = "bool can_direct_reclaim = gfp_mask & __GFP_DIRECT_RECLAIM;";
	const char *p = strstr(sb.buf, from);
	REQUIRE(p != NULL);
	strbuf_add(&v, sb.buf, (size_t)(p - sb.buf));
	strbuf_adds(&v, "bool can_direct_reclaim = !(order > PAGE_ALLOC_COSTLY_ORDER && "
		    "(gfp_mask & __GFP_NORETRY)) && (gfp_mask & __GFP_DIRECT_RECLAIM);");
	strbuf_adds(&v, p + strlen(from));
	CHECK(!consistency_check(toy, v.buf, v.len, &o, &r));
	REQUIRE_EQ_INT(r.n, 1);
	CHECK_EQ_INT(r.f[0].rule, CONS_DIVERGENCE);
	CHECK_EQ_STR(r.f[0].function, "__alloc_pages_slowpath");
	cons_result_release(&r);
	strbuf_release(&sb);
	strbuf_release(&v);
	slowpath_model_free(m);
}
