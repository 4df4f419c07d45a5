/* Fingerprints and baselines. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gfpaudit/baseline.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "harness.h"

static void site_fill(struct site *s, const char *file, int line, const char *fn, const char *api,
		      const char *gfp, const char *order)
{
	site_init(s);
	s->file = xstrdup(file);
	s->line = line;
	s->col = 3;
	s->function = xstrdup(fn);
	s->api = xstrdup(api);
	s->gfp_expr = gfp ? xstrdup(gfp) : NULL;
	s->order_expr = order ? xstrdup(order) : NULL;
}

static char *fp(const char *rule, const char *file, int line, const char *fn, const char *api,
		const char *gfp, const char *order)
{
	struct site s;
	site_fill(&s, file, line, fn, api, gfp, order);
	char *r = finding_fingerprint(rule, &s);
	site_release(&s);
	return r;
}

TEST(fingerprint_survives_shifts_and_spelling)
{
	char *a = fp("costly-no-noretry", "mm/x.c", 100, "grow", "alloc_pages", "GFP_KERNEL | __GFP_COMP", "order");
	char *b = fp("costly-no-noretry", "mm/x.c", 140, "grow", "alloc_pages", "(__GFP_COMP|GFP_KERNEL)", " order ");
	char *c = fp("costly-no-noretry", "mm/x.c", 7, "grow", "alloc_pages",
		     "GFP_KERNEL |\n\t\t__GFP_COMP /* large */", "(order)");
	CHECK_EQ_STR(a, b);
	CHECK_EQ_STR(a, c);
	char *d = fp("costly-no-noretry", "mm/x.c", 100, "grow", "alloc_pages", "GFP_KERNEL | __GFP_COMP | __GFP_NORETRY", "order");
	char *e = fp("costly-no-noretry", "mm/x.c", 100, "shrink", "alloc_pages", "GFP_KERNEL | __GFP_COMP", "order");
	char *f = fp("costly-no-noretry", "mm/x.c", 100, "grow", "folio_alloc", "GFP_KERNEL | __GFP_COMP", "order");
	char *g = fp("costly-no-noretry", "mm/x.c", 100, "grow", "alloc_pages", "GFP_KERNEL | __GFP_COMP", "order - 1");
	char *h = fp("costly-no-fallback", "mm/x.c", 100, "grow", "alloc_pages", "GFP_KERNEL | __GFP_COMP", "order");
	char *i = fp("costly-no-noretry", "mm/y.c", 100, "grow", "alloc_pages", "GFP_KERNEL | __GFP_COMP", "order");
	/* "a || b" is not a mask: its operands are not sorted */
	char *j = fp("r", "f", 1, "fn", "api", "x || y", "o"), *k = fp("r", "f", 1, "fn", "api", "y || x", "o");
	CHECK(strcmp(a, d) && strcmp(a, e) && strcmp(a, f) && strcmp(a, g) && strcmp(a, h) && strcmp(a, i));
	CHECK(strcmp(j, k) != 0);
	free(a); free(b); free(c); free(d); free(e); free(f); free(g); free(h); free(i); free(j); free(k);
}

static struct finding *add(struct file_result *fr, const char *rule, int line, const char *fn, const char *gfp)
{
	struct finding *f = file_result_add_finding(fr);
	f->rule = xstrdup(rule);
	f->message = xasprintf("msg %d", line);
	site_release(&f->site);
	site_fill(&f->site, fr->file, line, fn, "alloc_pages", gfp, "order");
	f->fingerprint = finding_fingerprint(rule, &f->site);
	return f;
}

static struct file_result *fr_new(const char *file, enum file_status st)
{
	struct file_result *r = xcalloc(1, sizeof(*r));
	file_result_init(r, file);
	r->status = st;
	return r;
}

/* The baseline run: x.c {A, C, D}, gone.c {E}, bad.c {F} */
static void baseline_report(struct report *r)
{
	report_init(r);
	struct file_result *x = fr_new("mm/x.c", FILE_ANALYZED);
	add(x, "costly-no-noretry", 10, "a", "GFP_KERNEL");
	add(x, "costly-no-noretry", 20, "c", "GFP_KERNEL");
	add(x, "costly-no-fallback", 30, "d", "GFP_KERNEL");
	report_add(r, x);
	struct file_result *g = fr_new("mm/gone a.c", FILE_ANALYZED);
	add(g, "costly-no-noretry", 5, "e", "GFP_KERNEL");
	report_add(r, g);
	struct file_result *b = fr_new("mm/bad.c", FILE_ANALYZED);
	add(b, "costly-no-noretry", 5, "f", "GFP_KERNEL");
	report_add(r, b);
}

/* This run: x.c {A moved, B new, C twice}, bad.c failed; gone a.c not audited */
static void current_report(struct report *r)
{
	report_init(r);
	struct file_result *x = fr_new("mm/x.c", FILE_ANALYZED);
	add(x, "costly-no-noretry", 15, "a", "(GFP_KERNEL)");
	add(x, "costly-no-noretry", 40, "b", "GFP_KERNEL");
	add(x, "costly-no-noretry", 25, "c", "GFP_KERNEL");
	add(x, "costly-no-noretry", 26, "c", "GFP_KERNEL");
	report_add(r, x);
	struct file_result *b = fr_new("mm/bad.c", FILE_FAILED);
	report_add(r, b);
}

static void check_applied(int *failed_, const char *base_path)
{
	struct baseline *b = NULL;
	REQUIRE_EQ_INT(baseline_load(base_path, &b), 0);
	CHECK_EQ_INT(baseline_count(b), 5);
	struct report cur;
	current_report(&cur);
	struct baseline_stats st;
	baseline_apply(b, &cur, &st);
	CHECK_EQ_INT(st.unchanged, 2);  /* A and one C */
	CHECK_EQ_INT(st.fresh, 2);      /* B and the second C */
	CHECK_EQ_INT(st.resolved, 1);   /* D; not E (file not audited), not F (failed) */
	CHECK(cur.baseline);
	REQUIRE(cur.n > 0);
	REQUIRE_EQ_INT(cur.files[0]->nfindings, 2);
	CHECK_EQ_STR(cur.files[0]->findings[0].site.function, "b");
	CHECK_EQ_STR(cur.files[0]->findings[1].site.function, "c");
	REQUIRE_EQ_INT(cur.nresolved, 1);
	CHECK_EQ_STR(cur.resolved[0].rule, "costly-no-fallback");
	CHECK_EQ_STR(cur.resolved[0].site.file, "mm/x.c");
	report_release(&cur);
	baseline_free(b);
}

TEST(baseline_from_json_and_sarif)
{
	struct report base;
	baseline_report(&base);
	char jpath[] = "/tmp/gfpaudit-base-XXXXXX", spath[] = "/tmp/gfpaudit-base-XXXXXX";
	int jfd = mkstemp(jpath), sfd = mkstemp(spath);
	FILE *jf = fdopen(jfd, "w"), *sf = fdopen(sfd, "w");
	CHECK_EQ_INT(report_json(&base, jf), 0);
	CHECK_EQ_INT(report_sarif(&base, sf), 0);
	fclose(jf);
	fclose(sf);
	check_applied(failed_, jpath);
	check_applied(failed_, spath);
	/* SARIF paths come back unescaped ("mm/gone a.c") */
	struct baseline *b = NULL;
	baseline_load(spath, &b);
	struct report r;
	report_init(&r);
	report_add(&r, fr_new("mm/gone a.c", FILE_ANALYZED));
	struct baseline_stats st;
	baseline_apply(b, &r, &st);
	CHECK_EQ_INT(st.resolved, 1);
	report_release(&r);
	baseline_free(b);
	report_release(&base);
	unlink(jpath);
	unlink(spath);
}

TEST(baseline_rejects_other_files)
{
	char path[] = "/tmp/gfpaudit-base-XXXXXX";
	int fd = mkstemp(path);
	(void)!write(fd, "{\"hello\": 1}", 12);
	close(fd);
	struct baseline *b = NULL;
	CHECK_EQ_INT(baseline_load(path, &b), GA_EINVAL);
	CHECK_EQ_INT(baseline_load("/nonexistent/x.json", &b), GA_EIO);
	unlink(path);
}
