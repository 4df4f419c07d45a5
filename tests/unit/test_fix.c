/* fix/: edits, the diff printer, the libgit2 applier and every fix shape on
 * hand-made sites (byte ranges computed here from the case text).
 *
 * With GFPAUDIT_FIX_DUMP=DIR each diff produced here is also written as
 * DIR/NNN.{path,orig,diff,want} so tests/t70-fixes.sh can check it with the
 * real `git apply`. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "harness.h"
#include "gfpaudit/fix.h"
#include "gfpaudit/site.h"
#include "gfpaudit/err.h"
#include "gfpaudit/datadir.h"

static int dump_seq;

static void dump_case(const char *path, const char *orig, size_t olen, const char *diff,
		      const char *want, size_t wlen)
{
	const char *dir = getenv("GFPAUDIT_FIX_DUMP");
	if (!dir || !*dir)
		return;
	mkdir(dir, 0777);
	const char *ext[] = { "path", "orig", "diff", "want" };
	const char *data[] = { path, orig, diff, want };
	size_t lens[] = { strlen(path), olen, strlen(diff), wlen };
	dump_seq++;
	for (int i = 0; i < 4; i++) {
		char *p = xasprintf("%s/%03d.%s", dir, dump_seq, ext[i]);
		FILE *f = fopen(p, "wb");
		if (f) {
			fwrite(data[i], 1, lens[i], f);
			fclose(f);
		}
		free(p);
	}
}

/* Diff a -> b, apply it with libgit2 and compare; 1 when it round-trips. */
static int roundtrip(const char *path, const char *a, size_t alen, const char *b, size_t blen,
		     struct strbuf *diff)
{
	struct strbuf out = STRBUF_INIT;
	strbuf_reset(diff);
	fix_diff(path, a, alen, b, blen, diff);
	int ok;
	if (alen == blen && !memcmp(a, b, alen)) {
		ok = diff->len == 0;
	} else {
		int rc = fix_patch_apply(diff->buf, diff->len, path, a, alen, &out);
		ok = !rc && out.len == blen && !memcmp(out.buf, b, blen);
		if (!ok)
			fprintf(stderr, "  roundtrip failed (%s): %s\n%s", rc ? "apply" : "content",
				rc ? err_last() : "", diff->buf);
		else
			dump_case(path, a, alen, diff->buf, b, blen);
	}
	strbuf_release(&out);
	return ok;
}

/* ---- edits ---------------------------------------------------------- */

TEST(fix_edits_apply_and_map)
{
	const char *t = "abcdefghij";
	struct fix_edits e;
	struct strbuf out = STRBUF_INIT;
	fix_edits_init(&e);
	fix_edits_replace(&e, 2, 4, "XY Z");   /* cd -> XY Z */
	fix_edits_insert(&e, 0, ">");
	fix_edits_delete(&e, 8, 9);           /* i */
	fix_edits_insert(&e, 4, "+");         /* after the replacement */
	CHECK_EQ_INT(fix_edits_apply(&e, t, strlen(t), &out), 0);
	CHECK_EQ_STR(out.buf, ">abXY Z+efghj");
	CHECK_EQ_INT(fix_edits_map(&e, 0), 1);   /* the insertion at 0 goes before */
	CHECK_EQ_INT(fix_edits_map(&e, 2), 3);   /* start of a replaced range */
	CHECK_EQ_INT(fix_edits_map(&e, 3), 3);   /* inside it */
	CHECK_EQ_INT(fix_edits_map(&e, 5), 9);   /* f */
	CHECK_EQ_INT(fix_edits_map(&e, 9), 12);  /* j, after the deletion */
	fix_edits_release(&e);

	fix_edits_init(&e);
	fix_edits_replace(&e, 2, 5, "x");
	fix_edits_replace(&e, 4, 6, "y");
	CHECK_EQ_INT(fix_edits_apply(&e, t, strlen(t), &out), GA_EINVAL);
	fix_edits_release(&e);
	fix_edits_init(&e);
	fix_edits_insert(&e, 11, "x");
	CHECK_EQ_INT(fix_edits_apply(&e, t, strlen(t), &out), GA_EINVAL);
	fix_edits_release(&e);
	/* two insertions at one place keep their order */
	fix_edits_init(&e);
	fix_edits_insert(&e, 1, "1");
	fix_edits_insert(&e, 1, "2");
	CHECK_EQ_INT(fix_edits_apply(&e, "ab", 2, &out), 0);
	CHECK_EQ_STR(out.buf, "a12b");
	fix_edits_release(&e);
	strbuf_release(&out);
}

/* ---- the diff printer ------------------------------------------------ */

static const char *file20 =
	"#include <linux/gfp.h>\n"
	"\n"
	"static int helper(void)\n"
	"{\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"int ring_setup(struct ring *r)\n"
	"{\n"
	"\tint err;\n"
	"\n"
	"\terr = helper();\n"
	"\tif (err)\n"
	"\t\tgoto out;\n"
	"\tr->a = 1;\n"
	"\tr->b = 2;\n"
	"out:\n"
	"\tr->c = 3;\n"
	"\treturn err;\n"
	"}\n";

TEST(fix_diff_exact_hunk_and_funcname)
{
	struct strbuf b = STRBUF_INIT, d = STRBUF_INIT;
	strbuf_adds(&b, file20);
	char *p = strstr(b.buf, "\tr->c = 3;");
	p[8] = '4';
	CHECK(roundtrip("drivers/x/ring.c", file20, strlen(file20), b.buf, b.len, &d));
	/* the label "out:" is not a function line; the hunk names ring_setup */
	CHECK_EQ_STR(d.buf,
		"diff --git a/drivers/x/ring.c b/drivers/x/ring.c\n"
		"--- a/drivers/x/ring.c\n"
		"+++ b/drivers/x/ring.c\n"
		"@@ -15,6 +15,6 @@ int ring_setup(struct ring *r)\n"
		" \tr->a = 1;\n"
		" \tr->b = 2;\n"
		" out:\n"
		"-\tr->c = 3;\n"
		"+\tr->c = 4;\n"
		" \treturn err;\n"
		" }\n");
	strbuf_release(&b);
	strbuf_release(&d);
}

TEST(fix_diff_merges_close_hunks_and_splits_far_ones)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, d = STRBUF_INIT;
	for (int i = 1; i <= 40; i++)
		strbuf_addf(&a, "line %d\n", i);
	/* changes at 5 and 12: 6 unchanged lines between -> one hunk */
	strbuf_adds(&b, a.buf);
	char *p = strstr(b.buf, "line 5\n");
	p[5] = 'X';
	p = strstr(b.buf, "line 12\n");
	p[5] = 'Y';
	CHECK(roundtrip("f.c", a.buf, a.len, b.buf, b.len, &d));
	CHECK(strstr(d.buf, "@@ -2,14 +2,14 @@") != NULL);
	CHECK(strstr(strstr(d.buf, "@@ -") + 1, "@@ -") == NULL);
	/* changes at 5 and 13: 7 unchanged lines between -> two hunks */
	strbuf_reset(&b);
	strbuf_adds(&b, a.buf);
	p = strstr(b.buf, "line 5\n");
	p[5] = 'X';
	p = strstr(b.buf, "line 13\n");
	p[5] = 'Y';
	CHECK(roundtrip("f.c", a.buf, a.len, b.buf, b.len, &d));
	CHECK(strstr(d.buf, "@@ -2,7 +2,7 @@") != NULL);
	CHECK(strstr(d.buf, "@@ -10,7 +10,7 @@") != NULL);
	/* "line" starts with a letter: git's cpp funcname picks it up */
	CHECK(strstr(d.buf, "@@ -10,7 +10,7 @@ line 9\n") != NULL);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&d);
}

TEST(fix_diff_edges)
{
	struct strbuf d = STRBUF_INIT;
	/* insertion at the top: "-0,0"-style ranges; single lines drop ",1" */
	CHECK(roundtrip("a.c", "", 0, "x\n", 2, &d));
	CHECK(strstr(d.buf, "@@ -0,0 +1 @@\n+x\n") != NULL);
	CHECK(roundtrip("a.c", "a\nb\n", 4, "b\n", 2, &d));
	CHECK(strstr(d.buf, "@@ -1,2 +1 @@\n-a\n b\n") != NULL);
	/* no newline at the end, on either side */
	CHECK(roundtrip("a.c", "a\nb", 3, "a\nc", 3, &d));
	CHECK(strstr(d.buf, "-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n") != NULL);
	CHECK(roundtrip("a.c", "a\nb", 3, "a\nb\n", 4, &d));
	CHECK(roundtrip("a.c", "a\nb\n", 4, "a\nb", 3, &d));
	/* nothing changed: nothing printed */
	CHECK(roundtrip("a.c", "a\n", 2, "a\n", 2, &d));
	CHECK_EQ_INT(d.len, 0);
	/* a long function line is cut at 80 bytes like git's */
	const char *a = "static struct page *a_function_with_a_rather_long_name_and_args(gfp_t gfp, unsigned int order, int node)\n{\n\tx;\n}\n";
	const char *b = "static struct page *a_function_with_a_rather_long_name_and_args(gfp_t gfp, unsigned int order, int node)\n{\n\ty;\n}\n";
	CHECK(roundtrip("a.c", a, strlen(a), b, strlen(b), &d));
	CHECK(strstr(d.buf, "@@ -1,4 +1,4 @@\n") != NULL); /* no line above the hunk */
	strbuf_release(&d);
}

/* Pseudo-random texts and edits: every diff applies with libgit2 and gives
 * the edited text (and with GFPAUDIT_FIX_DUMP, the same with git apply). */
TEST(fix_diff_random_roundtrip)
{
	static const char *const pool[] = { "\t}\n", "{\n", "\n", "\treturn 0;\n", "\tpage = alloc_pages(gfp, order);\n",
		"static int f(void)\n", "out:\n", "\tif (!page)\n", "\t\tgoto out;\n", "int x;\n" };
	unsigned seed = 12345;
	int bad = 0;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, d = STRBUF_INIT;
	for (int round = 0; round < 60; round++) {
		strbuf_reset(&a);
		seed = seed * 1103515245 + 12345;
		int nl = 1 + (int)((seed >> 16) % 60);
		for (int i = 0; i < nl; i++) {
			seed = seed * 1103515245 + 12345;
			strbuf_adds(&a, pool[(seed >> 16) % 10]);
		}
		if (round % 7 == 0 && a.len)
			a.len--, a.buf[a.len] = '\0'; /* no newline at the end */
		struct fix_edits e;
		fix_edits_init(&e);
		seed = seed * 1103515245 + 12345;
		int ne = 1 + (int)((seed >> 16) % 4);
		size_t at = 0;
		for (int k = 0; k < ne && at <= a.len; k++) {
			seed = seed * 1103515245 + 12345;
			size_t b0 = at + (seed >> 16) % (a.len - at + 1);
			seed = seed * 1103515245 + 12345;
			size_t b1 = b0 + (seed >> 16) % (a.len - b0 + 1) / 3;
			seed = seed * 1103515245 + 12345;
			fix_edits_replace(&e, b0, b1, pool[(seed >> 16) % 10]);
			at = b1 + 1;
		}
		if (fix_edits_apply(&e, a.buf, a.len, &b) || !roundtrip("lib/r.c", a.buf, a.len, b.buf, b.len, &d))
			bad++;
		fix_edits_release(&e);
	}
	CHECK_EQ_INT(bad, 0);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&d);
}

TEST(fix_patch_apply_rejects)
{
	struct strbuf out = STRBUF_INIT, d = STRBUF_INIT;
	fix_diff("mm/a.c", "a\nb\nc\n", 6, "a\nB\nc\n", 6, &d);
	CHECK_EQ_INT(fix_patch_apply(d.buf, d.len, "mm/a.c", "a\nb\nc\n", 6, &out), 0);
	CHECK_EQ_STR(out.buf, "a\nB\nc\n");
	/* context that does not match */
	CHECK_EQ_INT(fix_patch_apply(d.buf, d.len, "mm/a.c", "a\nx\nc\n", 6, &out), GA_EINVAL);
	/* another path */
	CHECK_EQ_INT(fix_patch_apply(d.buf, d.len, "mm/b.c", "a\nb\nc\n", 6, &out), GA_EINVAL);
	CHECK_EQ_INT(fix_patch_apply(d.buf, d.len, "../a.c", "a\nb\nc\n", 6, &out), GA_EINVAL);
	CHECK_EQ_INT(fix_patch_apply("garbage", 7, "mm/a.c", "a\n", 2, &out), GA_EINVAL);
	strbuf_release(&out);
	strbuf_release(&d);
}

/* ---- shapes on hand-made sites -------------------------------------- */

/* A site for the call spelled `call` in src (its first occurrence after
 * `after`), with the gfp and order arguments found inside the call text. */
static void mk_site(struct site *s, const char *src, const char *after, const char *call,
		    const char *api, const char *gfp, const char *order)
{
	site_init(s);
	const char *from = after ? strstr(src, after) : src;
	const char *c = strstr(from, call);
	if (!c) {
		fprintf(stderr, "  mk_site: '%s' not in the case\n", call);
		abort();
	}
	s->file = xstrdup("mm/case.c");
	s->api = xstrdup(api);
	s->call_begin = (unsigned)(c - src);
	s->call_end = s->call_begin + (unsigned)strlen(call);
	int line = 1;
	for (const char *p = src; p < c; p++)
		line += *p == '\n';
	s->line = line;
	s->col = 1;
	if (gfp) {
		const char *g = strstr(c, gfp);
		s->gfp_begin = (unsigned)(g - src);
		s->gfp_end = s->gfp_begin + (unsigned)strlen(gfp);
		s->gfp_expr = xstrdup(gfp);
	}
	if (order) {
		const char *o = strstr(c + strlen(api), order);
		s->order_begin = (unsigned)(o - src);
		s->order_end = s->order_begin + (unsigned)strlen(order);
		s->order_expr = xstrdup(order);
	}
	s->kind = API_PAGES;
	s->gfp = (struct gfp_bits){ GFPB(DIRECT_RECLAIM) | GFPB(KSWAPD_RECLAIM) | GFPB(IO) | GFPB(FS),
				    GFPB(DIRECT_RECLAIM) | GFPB(KSWAPD_RECLAIM) | GFPB(IO) | GFPB(FS) };
	site_default_attempts(s);
	s->function = xstrdup("case_fn");
}

/* Run shape k; on success check the diff round-trips and return the text. */
static int shape(enum fix_kind k, const char *src, const struct site *s, int cap,
		 struct strbuf *patched, struct strbuf *note)
{
	struct fix_ctx c = { src, strlen(src), s, 3, cap, NULL };
	struct fix_edits e;
	struct strbuf d = STRBUF_INIT;
	fix_edits_init(&e);
	strbuf_reset(note);
	strbuf_reset(patched);
	int rc = fix_shape(k, &c, &e, note);
	if (!rc) {
		rc = fix_edits_apply(&e, src, strlen(src), patched);
		if (!rc && !roundtrip("mm/case.c", src, strlen(src), patched->buf, patched->len, &d))
			rc = -100;
	}
	fix_edits_release(&e);
	strbuf_release(&d);
	return rc;
}

static const char *loop_src =
	"#include <linux/gfp.h>\n"
	"\n"
	"static struct page *ring_alloc(gfp_t gfp, unsigned int max_order)\n"
	"{\n"
	"\tstruct page *page;\n"
	"\tunsigned int order;\n"
	"\n"
	"\tfor (order = max_order; ; order--) {\n"
	"\t\tpage = alloc_pages(gfp | __GFP_COMP, order);\n"
	"\t\tif (page || !order)\n"
	"\t\t\tbreak;\n"
	"\t}\n"
	"\treturn page;\n"
	"}\n";

TEST(fix_shape_add_noretry_in_order_loop)
{
	struct site s;
	struct strbuf p = STRBUF_INIT, n = STRBUF_INIT;
	mk_site(&s, loop_src, NULL, "alloc_pages(gfp | __GFP_COMP, order)", "alloc_pages", "gfp | __GFP_COMP", "order");
	s.order = (struct order_range){ 0, 10, true };
	s.fallback = FB_ORDER_LOOP;
	CHECK_EQ_INT(shape(FIX_ADD_NORETRY, loop_src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf,
		"\tfor (order = max_order; ; order--) {\n"
		"\t\tgfp_t alloc_gfp = gfp | __GFP_COMP;\n"
		"\n"
		"\t\tif (order > 0)\n"
		"\t\t\talloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;\n"
		"\t\tpage = alloc_pages(alloc_gfp, order);\n"
		"\t\tif (page || !order)\n") != NULL);
	/* one attempt, all of it with a fallback: the flags go inline */
	s.fallback = FB_LOWER_ORDER;
	s.order = (struct order_range){ 4, 4, true };
	CHECK_EQ_INT(shape(FIX_ADD_NORETRY, loop_src, &s, 0, &p, &n), 0);
	/* past 80 columns the new flags go on a continuation line */
	CHECK(strstr(p.buf, "\t\tpage = alloc_pages(gfp | __GFP_COMP | __GFP_NORETRY |\n"
			    "\t\t\t\t   __GFP_NOWARN, order);\n") != NULL);
	site_release(&s);
	strbuf_release(&p);
	strbuf_release(&n);
}

TEST(fix_shape_strip_direct_reclaim_forms)
{
	struct site s;
	struct strbuf p = STRBUF_INIT, n = STRBUF_INIT;
	mk_site(&s, loop_src, NULL, "alloc_pages(gfp | __GFP_COMP, order)", "alloc_pages", "gfp | __GFP_COMP", "order");
	s.fallback = FB_ORDER_LOOP;
	s.order = (struct order_range){ 0, 10, true };
	CHECK_EQ_INT(shape(FIX_STRIP_DIRECT_RECLAIM, loop_src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf,
		"\tfor (order = max_order; ; order--) {\n"
		"\t\tgfp_t alloc_gfp = gfp | __GFP_COMP;\n"
		"\n"
		"\t\tif (order > PAGE_ALLOC_COSTLY_ORDER)\n"
		"\t\t\talloc_gfp &= ~__GFP_DIRECT_RECLAIM;\n"
		"\t\telse if (order > 0)\n"
		"\t\t\talloc_gfp |= __GFP_NORETRY;\n"
		"\t\tif (order > 0)\n"
		"\t\t\talloc_gfp |= __GFP_NOWARN;\n"
		"\t\tpage = alloc_pages(alloc_gfp, order);\n") != NULL);
	/* always costly: the socket page-frag shape, inline */
	s.order = (struct order_range){ 4, 4, true };
	s.fallback = FB_LOWER_ORDER;
	CHECK_EQ_INT(shape(FIX_STRIP_DIRECT_RECLAIM, loop_src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf, "\t\tpage = alloc_pages((gfp & ~__GFP_DIRECT_RECLAIM) | __GFP_COMP |\n"
			    "\t\t\t\t   __GFP_NOWARN, order);\n") != NULL);
	site_release(&s);

	/* composite masks are stripped, single flags kept, __GFP_RECLAIM split */
	const char *src =
		"void f(void)\n{\n\tstruct page *p;\n\n"
		"\tp = alloc_pages(GFP_KERNEL | __GFP_RECLAIM | __GFP_ZERO, 5);\n"
		"\tq = alloc_pages(__GFP_DIRECT_RECLAIM | __GFP_COMP, 5);\n"
		"\tr = alloc_pages(cond ? GFP_KERNEL : GFP_NOIO, 5);\n}\n";
	mk_site(&s, src, NULL, "alloc_pages(GFP_KERNEL", "alloc_pages", "GFP_KERNEL | __GFP_RECLAIM | __GFP_ZERO", "5");
	s.order = (struct order_range){ 5, 5, true };
	s.fallback = FB_VMALLOC;
	CHECK_EQ_INT(shape(FIX_STRIP_DIRECT_RECLAIM, src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf, "\tp = alloc_pages((GFP_KERNEL & ~__GFP_DIRECT_RECLAIM) |\n"
			    "\t\t\t__GFP_KSWAPD_RECLAIM | __GFP_ZERO | __GFP_NOWARN, 5);\n") != NULL);
	site_release(&s);
	mk_site(&s, src, NULL, "alloc_pages(__GFP_DIRECT", "alloc_pages", "__GFP_DIRECT_RECLAIM | __GFP_COMP", "5");
	s.order = (struct order_range){ 5, 5, true };
	s.fallback = FB_VMALLOC;
	CHECK_EQ_INT(shape(FIX_STRIP_DIRECT_RECLAIM, src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf, "\tq = alloc_pages(__GFP_COMP | __GFP_NOWARN, 5);\n") != NULL);
	site_release(&s);
	mk_site(&s, src, NULL, "alloc_pages(cond", "alloc_pages", "cond ? GFP_KERNEL : GFP_NOIO", "5");
	s.order = (struct order_range){ 5, 5, true };
	s.fallback = FB_VMALLOC;
	CHECK_EQ_INT(shape(FIX_STRIP_DIRECT_RECLAIM, src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf, "\tr = alloc_pages(((cond ? GFP_KERNEL : GFP_NOIO) & ~__GFP_DIRECT_RECLAIM) |\n"
			    "\t\t\t__GFP_NOWARN, 5);\n") != NULL);
	site_release(&s);
	strbuf_release(&p);
	strbuf_release(&n);
}

/* The 6.12 page-cache loop shape: the local mask is reused, like the 2026
 * mm/filemap proposal does. */
TEST(fix_shape_strip_reuses_local_mask)
{
	const char *src =
		"struct folio *get_folio(struct address_space *mapping, gfp_t gfp, unsigned int order,\n"
		"\t\t\tunsigned int min_order)\n"
		"{\n"
		"\tstruct folio *folio;\n"
		"\n"
		"\tdo {\n"
		"\t\tgfp_t alloc_gfp = gfp;\n"
		"\n"
		"\t\tif (order > min_order)\n"
		"\t\t\talloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;\n"
		"\t\tfolio = filemap_alloc_folio(alloc_gfp, order);\n"
		"\t\tif (folio)\n"
		"\t\t\tbreak;\n"
		"\t} while (order-- > min_order);\n"
		"\treturn folio;\n"
		"}\n";
	struct site s;
	struct strbuf p = STRBUF_INIT, n = STRBUF_INIT;
	mk_site(&s, src, NULL, "filemap_alloc_folio(alloc_gfp, order)", "filemap_alloc_folio", "alloc_gfp", "order");
	s.order = (struct order_range){ 0, 9, true };
	s.fallback = FB_ORDER_LOOP;
	CHECK_EQ_INT(shape(FIX_STRIP_DIRECT_RECLAIM, src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf,
		"\t\t\talloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;\n"
		"\t\tif (order > PAGE_ALLOC_COSTLY_ORDER)\n"
		"\t\t\talloc_gfp &= ~__GFP_DIRECT_RECLAIM;\n"
		"\t\telse if (order > min_order)\n"
		"\t\t\talloc_gfp |= __GFP_NORETRY;\n"
		"\t\tif (order > min_order)\n"
		"\t\t\talloc_gfp |= __GFP_NOWARN;\n"
		"\t\tfolio = filemap_alloc_folio(alloc_gfp, order);\n") != NULL);
	/* the analysis already sees NOWARN on those attempts: not added again */
	site_default_attempts(&s);
	for (size_t i = 0; i < s.natt; i++)
		if (s.att[i].role == ROLE_FALLBACK)
			s.att[i].gfp.must |= GFPB(NOWARN) | GFPB(NORETRY);
	CHECK_EQ_INT(shape(FIX_STRIP_DIRECT_RECLAIM, src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf,
		"\t\t\talloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;\n"
		"\t\tif (order > PAGE_ALLOC_COSTLY_ORDER)\n"
		"\t\t\talloc_gfp &= ~__GFP_DIRECT_RECLAIM;\n"
		"\t\telse if (order > min_order)\n"
		"\t\t\talloc_gfp |= __GFP_NORETRY;\n"
		"\t\tfolio = filemap_alloc_folio(alloc_gfp, order);\n") != NULL);
	CHECK(strstr(n.buf, "adjusts the mask 'alloc_gfp'") != NULL);
	site_release(&s);
	strbuf_release(&p);
	strbuf_release(&n);
}

static const char *fixed_src =
	"#define RING_ORDER 4\n"
	"\n"
	"static int ring_init(struct ring *r, gfp_t gfp)\n"
	"{\n"
	"\tunsigned int order = get_order(r->size);\n"
	"\n"
	"\tr->pages = alloc_pages(gfp, order);\n"
	"\tif (!r->pages)\n"
	"\t\treturn -ENOMEM;\n"
	"\tr->nr = 1 << order;\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"static int sink_init(struct sink *s)\n"
	"{\n"
	"\ts->page = alloc_pages(GFP_KERNEL, RING_ORDER);\n"
	"\tif (!s->page)\n"
	"\t\treturn -ENOMEM;\n"
	"\ts->len = PAGE_SIZE << RING_ORDER;\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"static void *buf_get(struct dev *d, unsigned int order)\n"
	"{\n"
	"\treturn page_address(alloc_pages(GFP_KERNEL, order));\n"
	"}\n"
	"\n"
	"static void *copy_get(struct dev *d, size_t len)\n"
	"{\n"
	"\tstruct page *p = alloc_pages(GFP_KERNEL, get_order(len));\n"
	"\n"
	"\tmemcpy(page_address(p), d->src, len);\n"
	"\treturn p;\n"
	"}\n";

TEST(fix_shape_fallback_loop)
{
	struct site s;
	struct strbuf p = STRBUF_INIT, n = STRBUF_INIT;
	mk_site(&s, fixed_src, NULL, "alloc_pages(gfp, order)", "alloc_pages", "gfp", "order");
	s.order = (struct order_range){ 0, 10, true };
	s.result_lvalue = xstrdup("r->pages");
	CHECK_EQ_INT(shape(FIX_FALLBACK_LOOP, fixed_src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf,
		"\tunsigned int order = get_order(r->size);\n"
		"\n"
		"\tdo {\n"
		"\t\tgfp_t alloc_gfp = gfp;\n"
		"\n"
		"\t\tif (order > 0)\n"
		"\t\t\talloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;\n"
		"\t\tr->pages = alloc_pages(alloc_gfp, order);\n"
		"\t\tif (r->pages)\n"
		"\t\t\tbreak;\n"
		"\t} while (order-- > 0);\n"
		"\tif (!r->pages)\n") != NULL);
	CHECK(strstr(n.buf, "line 10") != NULL);
	site_release(&s);
	/* a constant order: nothing would tell the caller the order it got */
	mk_site(&s, fixed_src, "sink_init", "alloc_pages(GFP_KERNEL, RING_ORDER)", "alloc_pages", "GFP_KERNEL", "RING_ORDER");
	s.order = (struct order_range){ 4, 4, true };
	s.result_lvalue = xstrdup("s->page");
	CHECK_EQ_INT(shape(FIX_FALLBACK_LOOP, fixed_src, &s, 0, &p, &n), GA_ENOTFOUND);
	CHECK(strstr(n.buf, "not a local variable") != NULL);
	site_release(&s);
	/* an order from the caller: refused, the caller sizes by it */
	mk_site(&s, fixed_src, "buf_get", "alloc_pages(GFP_KERNEL, order)", "alloc_pages", "GFP_KERNEL", "order");
	s.order = (struct order_range){ 0, 10, true };
	CHECK_EQ_INT(shape(FIX_FALLBACK_LOOP, fixed_src, &s, 0, &p, &n), GA_ENOTFOUND);
	CHECK(strstr(n.buf, "comes from the caller") != NULL);
	site_release(&s);
	strbuf_release(&p);
	strbuf_release(&n);
}

TEST(fix_shape_cap_order_and_order_zero)
{
	struct site s;
	struct strbuf p = STRBUF_INIT, n = STRBUF_INIT;
	/* a local read after the call: lowered before the call */
	mk_site(&s, fixed_src, NULL, "alloc_pages(gfp, order)", "alloc_pages", "gfp", "order");
	s.order = (struct order_range){ 0, 10, true };
	CHECK_EQ_INT(shape(FIX_CAP_ORDER, fixed_src, &s, 3, &p, &n), 0);
	CHECK(strstr(p.buf, "\n\torder = min_t(unsigned int, order, PAGE_ALLOC_COSTLY_ORDER);\n"
			    "\tr->pages = alloc_pages(gfp, order);\n") != NULL);
	CHECK_EQ_INT(shape(FIX_ORDER_ZERO, fixed_src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf, "\n\torder = 0;\n\tr->pages = alloc_pages(gfp, order);\n") != NULL);
	site_release(&s);
	/* a macro defined here: changed at its definition, so sizes follow */
	mk_site(&s, fixed_src, "sink_init", "alloc_pages(GFP_KERNEL, RING_ORDER)", "alloc_pages", "GFP_KERNEL", "RING_ORDER");
	s.order = (struct order_range){ 4, 4, true };
	CHECK_EQ_INT(shape(FIX_ORDER_ZERO, fixed_src, &s, 0, &p, &n), 0);
	CHECK(!strncmp(p.buf, "#define RING_ORDER 0\n", 21));
	CHECK(strstr(p.buf, "alloc_pages(GFP_KERNEL, RING_ORDER)") != NULL);
	CHECK_EQ_INT(shape(FIX_CAP_ORDER, fixed_src, &s, 3, &p, &n), 0);
	CHECK(!strncmp(p.buf, "#define RING_ORDER PAGE_ALLOC_COSTLY_ORDER\n", 43));
	site_release(&s);
	/* a parameter: the caller sizes by it */
	mk_site(&s, fixed_src, "buf_get", "alloc_pages(GFP_KERNEL, order)", "alloc_pages", "GFP_KERNEL", "order");
	s.order = (struct order_range){ 0, 10, true };
	CHECK_EQ_INT(shape(FIX_CAP_ORDER, fixed_src, &s, 3, &p, &n), GA_ENOTFOUND);
	site_release(&s);
	/* get_order(len) with len used for the memcpy: refused */
	mk_site(&s, fixed_src, "copy_get", "alloc_pages(GFP_KERNEL, get_order(len))", "alloc_pages", "GFP_KERNEL", "get_order(len)");
	s.order = (struct order_range){ 0, 10, true };
	CHECK_EQ_INT(shape(FIX_ORDER_ZERO, fixed_src, &s, 0, &p, &n), GA_ENOTFOUND);
	CHECK(strstr(n.buf, "'len'") != NULL);
	/* a slab call has a size, not an order */
	s.kind = API_SLAB;
	CHECK_EQ_INT(shape(FIX_CAP_ORDER, fixed_src, &s, 3, &p, &n), GA_ENOTFOUND);
	site_release(&s);
	/* a literal order in a function that does not size by it: in place */
	const char *lit = "void f(void)\n{\n\tp = alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 4);\n\tif (!p)\n\t\treturn;\n}\n";
	mk_site(&s, lit, NULL, "alloc_pages(GFP", "alloc_pages", "GFP_KERNEL | __GFP_NOFAIL", "4");
	s.order = (struct order_range){ 4, 4, true };
	s.result_lvalue = xstrdup("p");
	CHECK_EQ_INT(shape(FIX_CAP_ORDER, lit, &s, 1, &p, &n), 0);
	CHECK(strstr(p.buf, "alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 1);") != NULL);
	CHECK_EQ_INT(shape(FIX_DROP_NOFAIL, lit, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf, "alloc_pages(GFP_KERNEL, 4);") != NULL);
	s.fallback = FB_UNKNOWN;
	CHECK_EQ_INT(shape(FIX_DROP_NOFAIL, lit, &s, 0, &p, &n), GA_ENOTFOUND);
	site_release(&s);
	strbuf_release(&p);
	strbuf_release(&n);
}

static const char *kv_src =
	"struct tbl {\n"
	"\tu32 *slots;\n"
	"\tsize_t n;\n"
	"};\n"
	"\n"
	"static int tbl_init(struct tbl *t, size_t n)\n"
	"{\n"
	"\tt->slots = kcalloc(n, sizeof(*t->slots),\n"
	"\t\t\t   GFP_KERNEL);\n"
	"\tif (!t->slots)\n"
	"\t\treturn -ENOMEM;\n"
	"\tt->n = n;\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"static void tbl_free(struct tbl *t)\n"
	"{\n"
	"\tkfree(t->slots);\n"
	"\tkfree(t);\n"
	"}\n"
	"\n"
	"static int tbl_grow(struct tbl *t)\n"
	"{\n"
	"\tu32 *s = kmalloc(t->n * 8, GFP_KERNEL);\n"
	"\n"
	"\tif (!s)\n"
	"\t\treturn -ENOMEM;\n"
	"\tsg_init_one(&t->sg, s, t->n * 8);\n"
	"\tkfree(s);\n"
	"\treturn 0;\n"
	"}\n";

TEST(fix_shape_kvmalloc)
{
	struct site s;
	struct strbuf p = STRBUF_INIT, n = STRBUF_INIT;
	mk_site(&s, kv_src, NULL, "kcalloc(n, sizeof(*t->slots),\n\t\t\t   GFP_KERNEL)", "kcalloc", "GFP_KERNEL", NULL);
	s.kind = API_SLAB;
	s.order = (struct order_range){ 0, 10, true };
	s.result_lvalue = xstrdup("t->slots");
	CHECK_EQ_INT(shape(FIX_KVMALLOC, kv_src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf, "\tt->slots = kvcalloc(n, sizeof(*t->slots),\n\t\t\t    GFP_KERNEL);\n") != NULL);
	CHECK(strstr(p.buf, "\tkvfree(t->slots);\n\tkfree(t);\n") != NULL);
	CHECK(strstr(n.buf, "line 18") != NULL);
	/* atomic masks: kvmalloc would not fall back */
	s.gfp = (struct gfp_bits){ GFPB(HIGH), GFPB(HIGH) | GFPB(KSWAPD_RECLAIM) };
	CHECK_EQ_INT(shape(FIX_KVMALLOC, kv_src, &s, 0, &p, &n), GA_ENOTFOUND);
	site_release(&s);
	/* the pointer reaches sg_init_one: refused, with the line */
	mk_site(&s, kv_src, NULL, "kmalloc(t->n * 8, GFP_KERNEL)", "kmalloc", "GFP_KERNEL", NULL);
	s.kind = API_SLAB;
	s.result_lvalue = xstrdup("s");
	CHECK_EQ_INT(shape(FIX_KVMALLOC, kv_src, &s, 0, &p, &n), GA_ENOTFOUND);
	CHECK(strstr(n.buf, "'sg_init_one' (line 28)") != NULL);
	/* a local stored under another name: the frees of that name are its frees */
	const char *alias = "static int f(struct priv *priv)\n{\n\tvoid *buf = kmalloc(1 << 20, GFP_KERNEL);\n\n"
			    "\tif (!buf)\n\t\treturn -ENOMEM;\n\tpriv->buf = buf;\n\treturn 0;\n}\n"
			    "static void g(struct priv *priv)\n{\n\tkfree(priv->buf);\n}\n";
	struct site s2;
	mk_site(&s2, alias, NULL, "kmalloc(1 << 20, GFP_KERNEL)", "kmalloc", "GFP_KERNEL", NULL);
	s2.kind = API_SLAB;
	s2.result_lvalue = xstrdup("buf");
	CHECK_EQ_INT(shape(FIX_KVMALLOC, alias, &s2, 0, &p, &n), 0);
	CHECK(strstr(p.buf, "\tvoid *buf = kvmalloc(1 << 20, GFP_KERNEL);\n") != NULL);
	CHECK(strstr(p.buf, "\tkvfree(priv->buf);\n") != NULL);
	CHECK(strstr(n.buf, "stored as 'priv->buf' (line 7)") != NULL);
	/* ... and without a free of that name in the file it is refused */
	const char *alias2 = "static int f(struct priv *priv)\n{\n\tvoid *buf = kmalloc(1 << 20, GFP_KERNEL);\n\n"
			     "\tif (!buf)\n\t\treturn -ENOMEM;\n\tpriv->buf = buf;\n\treturn 0;\n}\n";
	site_release(&s2);
	mk_site(&s2, alias2, NULL, "kmalloc(1 << 20, GFP_KERNEL)", "kmalloc", "GFP_KERNEL", NULL);
	s2.kind = API_SLAB;
	s2.result_lvalue = xstrdup("buf");
	CHECK_EQ_INT(shape(FIX_KVMALLOC, alias2, &s2, 0, &p, &n), GA_ENOTFOUND);
	CHECK(strstr(n.buf, "no kfree of 'buf' or of 'priv->buf' (line 7) in this file") != NULL);
	/* physically contiguous memory (the model's verdict): refused with its use */
	s2.contig = CONTIG_PHYSICAL;
	s2.contig_line = 9;
	s2.contig_why = xstrdup("reaches 'dma_map_single'");
	CHECK_EQ_INT(shape(FIX_KVMALLOC, alias, &s2, 0, &p, &n), GA_ENOTFOUND);
	CHECK(strstr(n.buf, "physically contiguous: it reaches 'dma_map_single' (line 9)") != NULL);
	site_release(&s2);
	/* the API's own twin: memdup_user -> vmemdup_user, krealloc -> kvrealloc; no devm_ twin */
	const char *dup = "static int f(struct priv *priv, const void __user *u, size_t len)\n{\n"
			  "\tpriv->buf = memdup_user(u, len);\n\treturn 0;\n}\n"
			  "static void g(struct priv *priv)\n{\n\tkfree(priv->buf);\n}\n";
	mk_site(&s2, dup, NULL, "memdup_user(u, len)", "memdup_user", NULL, NULL);
	s2.kind = API_SLAB;
	s2.gfp = (struct gfp_bits){ GFPB(DIRECT_RECLAIM) | GFPB(IO) | GFPB(FS), GFPB(DIRECT_RECLAIM) | GFPB(IO) | GFPB(FS) };
	s2.result_lvalue = xstrdup("priv->buf");
	CHECK_EQ_INT(shape(FIX_KVMALLOC, dup, &s2, 0, &p, &n), 0);
	CHECK(strstr(p.buf, "\tpriv->buf = vmemdup_user(u, len);\n") != NULL);
	CHECK(strstr(p.buf, "\tkvfree(priv->buf);\n") != NULL);
	free(s2.api);
	s2.api = xstrdup("devm_memdup_user");
	CHECK_EQ_INT(shape(FIX_KVMALLOC, dup, &s2, 0, &p, &n), GA_ENOTFOUND);
	site_release(&s2);
	free(s.result_lvalue);
	s.result_lvalue = xstrdup("nowhere");
	CHECK_EQ_INT(shape(FIX_KVMALLOC, kv_src, &s, 0, &p, &n), GA_ENOTFOUND);
	CHECK(strstr(n.buf, "no kfree of 'nowhere'") != NULL);
	site_release(&s);
	strbuf_release(&p);
	strbuf_release(&n);
}

TEST(fix_shape_add_nowarn_parenthesizes)
{
	const char *src = "void f(bool a)\n{\n\tp = alloc_pages(a ? GFP_KERNEL | __GFP_NORETRY : GFP_NOWAIT, 2);\n}\n";
	struct site s;
	struct strbuf p = STRBUF_INIT, n = STRBUF_INIT;
	mk_site(&s, src, NULL, "alloc_pages(", "alloc_pages", "a ? GFP_KERNEL | __GFP_NORETRY : GFP_NOWAIT", "2");
	CHECK_EQ_INT(shape(FIX_ADD_NOWARN, src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf, "\tp = alloc_pages((a ? GFP_KERNEL | __GFP_NORETRY : GFP_NOWAIT) |\n"
			    "\t\t\t__GFP_NOWARN, 2);\n") != NULL);
	site_release(&s);
	/* already spelled: nothing to add */
	const char *src2 = "void f(void)\n{\n\tp = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 2);\n}\n";
	mk_site(&s, src2, NULL, "alloc_pages(", "alloc_pages", "GFP_KERNEL | __GFP_NOWARN", "2");
	CHECK_EQ_INT(shape(FIX_ADD_NOWARN, src2, &s, 0, &p, &n), GA_ENOTFOUND);
	site_release(&s);
	/* a call inside a macro body has no spelling: refused */
	mk_site(&s, src2, NULL, "alloc_pages(", "alloc_pages", NULL, NULL);
	s.call_begin = s.call_end = 0;
	CHECK_EQ_INT(shape(FIX_ADD_NOWARN, src2, &s, 0, &p, &n), GA_ENOTFOUND);
	site_release(&s);
	strbuf_release(&p);
	strbuf_release(&n);
}

TEST(fix_rank_orders_by_idiom)
{
	struct site s;
	struct fix_plan pl[8];
	mk_site(&s, loop_src, NULL, "alloc_pages(gfp | __GFP_COMP, order)", "alloc_pages", "gfp | __GFP_COMP", "order");
	s.fallback = FB_ORDER_LOOP;
	s.order = (struct order_range){ 0, 10, true };
	struct fix_ctx c = { loop_src, strlen(loop_src), &s, 3, 0, NULL };
	CHECK_EQ_INT(fix_rank("costly-no-noretry", &c, pl, 8), 2);
	CHECK_EQ_INT(pl[0].kind, FIX_STRIP_DIRECT_RECLAIM);
	CHECK_EQ_INT(pl[1].kind, FIX_ADD_NORETRY);
	CHECK(pl[0].reason[0] != '\0');
	s.kind = API_SLAB;
	CHECK_EQ_INT(fix_rank("costly-no-fallback", &c, pl, 8), 1);
	CHECK_EQ_INT(pl[0].kind, FIX_KVMALLOC);
	s.kind = API_PAGES;
	CHECK_EQ_INT(fix_rank("costly-no-fallback", &c, pl, 8), 3);
	CHECK_EQ_INT(pl[0].kind, FIX_FALLBACK_LOOP);
	CHECK_EQ_INT(fix_rank("nofail-high-order", &c, pl, 8), 2);
	CHECK_EQ_INT(pl[0].cap, 1);
	CHECK_EQ_INT(fix_rank("gfp-contradiction", &c, pl, 8), 0);
	site_release(&s);
	/* a function that already uses __GFP_NORETRY wants add-noretry first */
	const char *src = "void f(unsigned int order)\n{\n\tp = alloc_pages(GFP_KERNEL, order);\n"
			  "\tif (!p)\n\t\tp = alloc_pages(GFP_KERNEL | __GFP_NORETRY, 0);\n}\n";
	mk_site(&s, src, NULL, "alloc_pages(GFP_KERNEL, order)", "alloc_pages", "GFP_KERNEL", "order");
	s.order = (struct order_range){ 0, 10, true };
	c = (struct fix_ctx){ src, strlen(src), &s, 3, 0, NULL };
	CHECK_EQ_INT(fix_rank("costly-no-noretry", &c, pl, 8), 2);
	CHECK_EQ_INT(pl[0].kind, FIX_ADD_NORETRY);
	site_release(&s);
}

/* fix_candidates without an engine: shapes, diff and libgit2 apply only. */
TEST(fix_candidates_without_engine)
{
	struct file_result r;
	file_result_init(&r, "mm/case.c");
	struct finding *f = file_result_add_finding(&r);
	f->rule = xstrdup("costly-no-noretry");
	f->message = xstrdup("m");
	mk_site(&f->site, loop_src, NULL, "alloc_pages(gfp | __GFP_COMP, order)", "alloc_pages", "gfp | __GFP_COMP", "order");
	f->site.fallback = FB_ORDER_LOOP;
	f->site.order = (struct order_range){ 0, 10, true };
	struct fix_opts o = { 0 };
	CHECK_EQ_INT(fix_file("mm/case.c", loop_src, strlen(loop_src), &r, &o), 0);
	REQUIRE_EQ_INT(f->nfixes, 2);
	CHECK_EQ_STR(f->fixes[0].kind, "strip-direct-reclaim");
	CHECK_EQ_STR(f->fixes[1].kind, "add-noretry");
	CHECK(!strncmp(f->fixes[0].diff, "diff --git a/mm/case.c b/mm/case.c\n", 35));
	CHECK(strstr(f->fixes[0].diff, "@@ -6,7 +6,15 @@ static struct page *ring_alloc(gfp_t gfp, unsigned int max_order)\n") != NULL);
	file_result_release(&r);
}

/* An unbraced if-body gets braces when statements go before the call, the
 * mask already says __GFP_NOWARN so it is not added again (the dma pool
 * loop shape). */
TEST(fix_shape_braces_unbraced_body)
{
	const char *src =
		"static struct page *pool_grab(gfp_t gfp, unsigned int order)\n"
		"{\n"
		"\tstruct page *page = NULL;\n"
		"\n"
		"\tdo {\n"
		"\t\tif (!page)\n"
		"\t\t\tpage = alloc_pages(gfp | __GFP_NOWARN, order);\n"
		"\t\telse\n"
		"\t\t\tbreak;\n"
		"\t} while (!page && order-- > 0);\n"
		"\treturn page;\n"
		"}\n";
	struct site s;
	struct strbuf p = STRBUF_INIT, n = STRBUF_INIT;
	mk_site(&s, src, NULL, "alloc_pages(gfp | __GFP_NOWARN, order)", "alloc_pages", "gfp | __GFP_NOWARN", "order");
	s.order = (struct order_range){ 0, 10, true };
	s.fallback = FB_ORDER_LOOP;
	CHECK_EQ_INT(shape(FIX_STRIP_DIRECT_RECLAIM, src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf,
		"\t\tif (!page) {\n"
		"\t\t\tgfp_t alloc_gfp = gfp | __GFP_NOWARN;\n"
		"\n"
		"\t\t\tif (order > PAGE_ALLOC_COSTLY_ORDER)\n"
		"\t\t\t\talloc_gfp &= ~__GFP_DIRECT_RECLAIM;\n"
		"\t\t\telse if (order > 0)\n"
		"\t\t\t\talloc_gfp |= __GFP_NORETRY;\n"
		"\t\t\tpage = alloc_pages(alloc_gfp, order);\n"
		"\t\t} else\n"
		"\t\t\tbreak;\n") != NULL);
	CHECK_EQ_INT(shape(FIX_ADD_NORETRY, src, &s, 0, &p, &n), 0);
	CHECK(strstr(p.buf, "\t\t\tif (order > 0)\n\t\t\t\talloc_gfp |= __GFP_NORETRY;\n") != NULL);
	site_release(&s);
	strbuf_release(&p);
	strbuf_release(&n);
}

/* Orders that are requirements, not wishes: a minimum order, and an order
 * computed from a size the function also uses elsewhere. */
TEST(fix_shape_refuses_required_orders)
{
	const char *src =
		"static int cache_fill(struct mapping *m)\n"
		"{\n"
		"\tunsigned int min_order = mapping_min_order(m);\n"
		"\n"
		"\tm->f = folio_alloc(GFP_KERNEL, min_order);\n"
		"\tif (!m->f)\n"
		"\t\treturn -ENOMEM;\n"
		"\tm->idx <<= min_order;\n"
		"\treturn 0;\n"
		"}\n"
		"\n"
		"static int ring_set(struct ring *r, struct req *req)\n"
		"{\n"
		"\tunsigned int order;\n"
		"\n"
		"\torder = get_order(req->block_size);\n"
		"\tr->vec = alloc_vec(req, order);\n"
		"\tif (!r->vec)\n"
		"\t\treturn -ENOMEM;\n"
		"\tr->frames = req->block_size / req->frame_size;\n"
		"\tr->order = order;\n"
		"\treturn 0;\n"
		"}\n";
	struct site s;
	struct strbuf p = STRBUF_INIT, n = STRBUF_INIT;
	mk_site(&s, src, NULL, "folio_alloc(GFP_KERNEL, min_order)", "folio_alloc", "GFP_KERNEL", "min_order");
	s.order = (struct order_range){ 0, 10, true };
	s.result_lvalue = xstrdup("m->f");
	for (int k = FIX_CAP_ORDER; k <= FIX_ORDER_ZERO; k++) {
		if (k == FIX_KVMALLOC)
			continue;
		CHECK_EQ_INT(shape(k, src, &s, 3, &p, &n), GA_ENOTFOUND);
		CHECK(strstr(n.buf, "minimum order") != NULL);
	}
	site_release(&s);
	mk_site(&s, src, "ring_set", "alloc_vec(req, order)", "alloc_vec", NULL, "order");
	s.kind = API_WRAPPER;
	s.order = (struct order_range){ 0, 10, true };
	s.result_lvalue = xstrdup("r->vec");
	CHECK_EQ_INT(shape(FIX_CAP_ORDER, src, &s, 3, &p, &n), GA_ENOTFOUND);
	CHECK(strstr(n.buf, "'order' is computed from 'block_size' (line 16), which also sizes other code (line 20)") != NULL);
	site_release(&s);
	strbuf_release(&p);
	strbuf_release(&n);
}

/* ---- verification by re-analysis (needs the engine and include/kmodel) -- */
#include <unistd.h>
#include "gfpaudit/pipeline.h"

static const char *verify_src =
	"#include <linux/gfp.h>\n"
	"#include <linux/mm.h>\n"
	"\n"
	"struct page *grab(void)\n"
	"{\n"
	"\tstruct page *page;\n"
	"\n"
	"\tpage = alloc_pages(GFP_KERNEL | __GFP_NOFAIL | __GFP_COMP, 4);\n"
	"\tif (!page)\n"
	"\t\tpage = alloc_pages(GFP_KERNEL, 0);\n"
	"\treturn page;\n"
	"}\n";

static struct finding *find_rule(struct file_result *r, const char *rule)
{
	for (size_t i = 0; i < r->nfindings; i++)
		if (!strcmp(r->findings[i].rule, rule))
			return &r->findings[i];
	return NULL;
}

/* Candidates that bring a new finding are dropped: NORETRY or no direct
 * reclaim next to __GFP_NOFAIL is a gfp-contradiction.  The same shapes
 * pass when re-analysis is skipped, so it is re-analysis that drops them. */
TEST(fix_file_verifies_by_reanalysis)
{
	if (!datadir_kmodel())
		SKIP("no kernel model headers (no data directory)");
	char path[] = "/tmp/gfpaudit-fixXXXXXX.c";
	int fd = mkstemps(path, 2);
	REQUIRE(fd >= 0);
	CHECK(write(fd, verify_src, strlen(verify_src)) == (ssize_t)strlen(verify_src));
	close(fd);
	struct engine_opts eo = { 0 };
	struct engine *e = NULL;
	REQUIRE_EQ_INT(engine_new(&eo, &e), 0);
	struct file_result *r = NULL;
	REQUIRE_EQ_INT(engine_analyze_file(e, path, NULL, 0, &r), 0);
	REQUIRE_EQ_INT(r->status, FILE_ANALYZED);
	struct finding *noretry = find_rule(r, "costly-no-noretry"), *nofail = find_rule(r, "nofail-high-order");
	REQUIRE(noretry != NULL);
	REQUIRE(nofail != NULL);
	struct finding copy;
	finding_copy(&copy, noretry);
	struct pipeline_reanalysis ra = { .e = e, .path = path };
	struct fix_opts fo = { .reanalyze = pipeline_reanalyze, .reanalyze_data = &ra }, skip = { 0 };
	CHECK_EQ_INT(fix_file(path, verify_src, strlen(verify_src), r, &fo), 0);
	/* fix_file only adds fixes: the findings stay where they were */
	REQUIRE(noretry == find_rule(r, "costly-no-noretry"));
	REQUIRE(nofail == find_rule(r, "nofail-high-order"));
	CHECK_EQ_INT(noretry->nfixes, 0);
	REQUIRE_EQ_INT(nofail->nfixes, 2);
	CHECK_EQ_STR(nofail->fixes[0].kind, "cap-order");
	CHECK_EQ_STR(nofail->fixes[1].kind, "drop-nofail");
	CHECK_EQ_INT(fix_candidates(path, verify_src, strlen(verify_src), r, &copy, &skip), 0);
	CHECK_EQ_INT(copy.nfixes, 2);
	finding_release(&copy);
	file_result_free(r);
	engine_free(e);
	unlink(path);
}
