/* review/: before/after classification and the reply text, without the engine. */
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "gfpaudit/review.h"
#include "gfpaudit/strbuf.h"

static void fake(struct finding *f, const char *fp)
{
	finding_init(f);
	f->rule = xstrdup("costly-no-fallback");
	f->fingerprint = xstrdup(fp);
}

TEST(review_classify_multiset)
{
	struct finding b[3], a[3];
	fake(&b[0], "A");
	fake(&b[1], "A");
	fake(&b[2], "B");
	fake(&a[0], "A");
	fake(&a[1], "C");
	fake(&a[2], "C");
	size_t *in, *fx, nin, nfx;
	review_classify(b, 3, a, 3, &in, &nin, &fx, &nfx);
	CHECK_EQ_INT(nin, 2);
	CHECK(nin == 2 && in[0] == 1 && in[1] == 2);
	CHECK_EQ_INT(nfx, 2);
	CHECK(nfx == 2 && fx[0] == 1 && fx[1] == 2); /* one of the two A's, and B */
	free(in);
	free(fx);
	/* nothing before: all introduced; nothing after: all fixed */
	review_classify(NULL, 0, a, 3, &in, &nin, &fx, &nfx);
	CHECK(nin == 3 && nfx == 0);
	free(in);
	free(fx);
	review_classify(b, 3, NULL, 0, &in, &nin, &fx, &nfx);
	CHECK(nin == 0 && nfx == 3);
	free(in);
	free(fx);
	for (int i = 0; i < 3; i++) {
		finding_release(&a[i]);
		finding_release(&b[i]);
	}
}

TEST(review_reply_text_quotes_the_hunk)
{
	struct review r;
	memset(&r, 0, sizeof(r));
	strcpy(r.base, "0123456789abcdef0123456789abcdef01234567");
	r.base_source = BASE_TRAILER;
	r.series.total = 3;
	r.series.cover = -1;

	struct mail_message m;
	memset(&m, 0, sizeof(m));
	m.from = "Ann <ann@example.org>";
	m.date = "Mon, 1 Jan 2024 00:00:00 +0000";
	m.subject = "[PATCH 1/3] foo";

	static const struct { char origin; int o, n; const char *t; } L[] = {
		{ ' ', 10, 10, "static int foo_setup(void)" },
		{ ' ', 11, 11, "{" },
		{ '-', 12, -1, "\tfoo_order = 0;" },
		{ '+', -1, 12, "\tfoo_order = 4;" },
		{ '+', -1, 13, "\tfoo_buf = alloc_pages(GFP_KERNEL, 4);" },
		{ '+', -1, 14, "\tif (!foo_buf)" },
		{ '+', -1, 15, "\t\treturn -ENOMEM;" },
		{ ' ', 13, 16, "\treturn 0;" },
	};
	struct apply_hunk h = { .header = "@@ -10,4 +10,7 @@ static unsigned int foo_order;",
				.old_start = 10, .old_lines = 4, .new_start = 10, .new_lines = 7 };
	struct apply_hunk_line lines[8];
	for (int i = 0; i < 8; i++)
		lines[i] = (struct apply_hunk_line){ L[i].o, L[i].n, L[i].origin, (char *)L[i].t };
	h.lines = lines;
	h.nlines = 8;
	struct apply_file_hunks fh = { 1, &h };
	struct apply_file af = { "drivers/foo/buf.c", "drivers/foo/buf.c", 'M', false };

	struct review_finding rf;
	memset(&rf, 0, sizeof(rf));
	finding_init(&rf.f);
	rf.f.rule = xstrdup("costly-no-fallback");
	rf.f.message = xstrdup("'alloc_pages' can request order 4");
	rf.f.site.file = xstrdup("drivers/foo/buf.c");
	rf.f.site.line = 13;
	rf.f.site.api = xstrdup("alloc_pages");
	rf.f.site.function = xstrdup("foo_setup");
	rf.f.site.order = (struct order_range){ 4, 4, true };
	rf.f.site.gfp = gfp_const(GFPB(DIRECT_RECLAIM) | GFPB(KSWAPD_RECLAIM) | GFPB(IO) | GFPB(FS));
	rf.f.site.gfp_expr = xstrdup("GFP_KERNEL");
	rf.f.site.fallback = FB_NONE;
	finding_add_fix(&rf.f, "fallback-loop", "try smaller orders quietly",
			"--- a/drivers/foo/buf.c\n+++ b/drivers/foo/buf.c\n@@ -13 +13 @@\n-x\n+y\n");
	rf.fixed_by = 3;

	struct review_patch p;
	memset(&p, 0, sizeof(p));
	p.index = 1;
	p.msg = &m;
	p.applied = true;
	p.ar.applied = true;
	p.ar.files = &af;
	p.ar.hunks = &fh;
	p.ar.nfiles = 1;
	p.introduced = &rf;
	p.nintroduced = 1;

	char *t = review_patch_text(&r, &p);
	CHECK(strstr(t, "On Mon, 1 Jan 2024 00:00:00 +0000, Ann <ann@example.org> wrote:\n") != NULL);
	CHECK(strstr(t, "> diff --git a/drivers/foo/buf.c b/drivers/foo/buf.c\n"
			"> @@ -10,4 +10,7 @@ static unsigned int foo_order;\n"
			"[...]\n"
			">  {\n> -\tfoo_order = 0;\n> +\tfoo_order = 4;\n"
			"> +\tfoo_buf = alloc_pages(GFP_KERNEL, 4);\n\n") != NULL);
	CHECK(strstr(t, "return -ENOMEM") == NULL); /* only the lines up to the finding */
	char *flat = xstrdup(t); /* prose is wrapped: compare it unwrapped */
	for (char *q = flat; *q; q++)
		if (*q == '\n' && q[1] && q[1] != '\n' && q > flat && q[-1] != '\n')
			*q = ' ';
	CHECK(strstr(flat, "order-4 block") != NULL);
	/* the rule's statement (check.mail), not the raw message */
	CHECK(strstr(flat, "with GFP_KERNEL. Nothing retries at a smaller order") != NULL);
	CHECK(strstr(flat, "can request order 4") == NULL);
	CHECK(strstr(t, "build-tested):\n\n--- a/drivers/foo/buf.c\n+++ b/drivers/foo/buf.c\n") != NULL);
	CHECK(strstr(flat, "(fallback-loop: try smaller orders quietly.)") != NULL);
	CHECK(strstr(t, "\n(gfpaudit costly-no-fallback at drivers/foo/buf.c:13)\n") != NULL);
	CHECK(strstr(flat, "Patch 3/3 of this series takes it out again") != NULL);
	free(flat);
	CHECK(strstr(t, "\n-- \ngfpaudit ") != NULL);
	/* kernel mail width */
	for (char *line = t, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		CHECK(len <= 72 || line[0] == '>');
	}
	free(t);

	/* a patch that did not apply says so, with the hunk */
	p.applied = false;
	p.error = "drivers/foo/buf.c: hunk '@@ -10,4 +10,7 @@' does not apply";
	t = review_patch_text(&r, &p);
	CHECK(strstr(t, "This patch does not apply to 0123456789ab (base-commit):") != NULL);
	CHECK(strstr(t, "hunk '@@ -10,4 +10,7 @@' does not apply") != NULL);
	free(t);
	finding_release(&rf.f);
}
