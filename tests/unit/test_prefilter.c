/* The lexical prefilter: what counts as naming an allocator, wrappers
 * learned from headers, quoted includes. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "harness.h"
#include "gfpaudit/prefilter.h"
#include "gfpaudit/strbuf.h"

static struct prefilter *pf_new(void)
{
	struct alloc_table t;
	alloc_table_init(&t);
	struct prefilter *p;
	prefilter_new(&t, &p);
	alloc_table_release(&t);
	return p;
}

static bool m(struct prefilter *p, const char *text)
{
	return prefilter_match(p, text, strlen(text), NULL, NULL);
}

TEST(prefilter_table_names)
{
	struct prefilter *p = pf_new();
	const char *why;
	CHECK(m(p, "void f(void) { p = alloc_pages(GFP_KERNEL, 3); }"));
	CHECK(prefilter_match(p, "x = kmalloc(n, GFP_KERNEL);", 27, NULL, &why));
	CHECK_EQ_STR(why, "kmalloc");
	CHECK(m(p, "x = kvmalloc_node_noprof(n, g, -1);"));   /* _noprof spelling */
	CHECK(m(p, "#define GET(n) __get_free_pages(GFP_KERNEL, n)\n"));
	CHECK(m(p, "static void *(*fn)(size_t, gfp_t) = kmalloc;"));
	/* not code: comments, strings, include lines, members, longer names */
	CHECK(!m(p, "/* kmalloc(n) */ int x; // vmalloc\n"));
	CHECK(!m(p, "const char *s = \"alloc_pages(\\\"x\\\")\"; char c = 'k';"));
	CHECK(!m(p, "#include <linux/vmalloc.h>\n#include <linux/slab.h>\nint x;"));
	CHECK(!m(p, "ops->alloc_pages(x); ops.kmalloc = 0;"));
	CHECK(!m(p, "int kmalloc_cache_count; void my_kmallocx(void);"));
	CHECK(!m(p, "int x = 0x1f + 2kmalloc;"));
	CHECK(m(p, "a = b\n/* c */ +kzalloc(1, 0);"));
	CHECK(m(p, "#if 1\nint y;\n#endif\nvoid g(void) { vzalloc(3); }"));
	prefilter_free(p);
}

static const char header[] =
	"#ifndef H\n#define H\n"
	"/* alloc_page - one page: alloc_pages(gfp, 0) */\n"
	"#define alloc_page(gfp_mask) \\\n\talloc_pages(gfp_mask, 0)\n"
	"static inline struct page *dev_alloc_pages(unsigned int order)\n"
	"{\n\treturn alloc_pages_node(-1, GFP_ATOMIC | __GFP_COMP, order);\n}\n"
	"#define dev_alloc_page() dev_alloc_pages(0)\n"
	"struct ring { int (*alloc)(void); void *slots[4]; };\n"
	"extern void *ring_grab(int n);\n"
	"static inline int ring_size(struct ring *r) { return sizeof(r->slots); }\n"
	"static inline void *nested(int n) { if (n) { return dev_alloc_page(); } return 0; }\n"
	"static const int table[] = { 1, 2 };\n"
	"#endif\n";

TEST(prefilter_learns_header_wrappers)
{
	struct prefilter *p = pf_new();
	CHECK(!m(p, "void f(void) { struct page *pg = dev_alloc_page(); }"));
	prefilter_learn_text(p, header, sizeof(header) - 1);
	CHECK_EQ_INT(prefilter_learn_finish(p), 4);
	CHECK(prefilter_has_name(p, "alloc_page"));
	CHECK(prefilter_has_name(p, "dev_alloc_pages"));
	CHECK(prefilter_has_name(p, "dev_alloc_page"));  /* through another wrapper */
	CHECK(prefilter_has_name(p, "nested"));          /* inside nested braces */
	CHECK(!prefilter_has_name(p, "ring_grab"));      /* a declaration only */
	CHECK(!prefilter_has_name(p, "ring_size"));
	CHECK(!prefilter_has_name(p, "ring"));
	CHECK(!prefilter_has_name(p, "H"));
	CHECK(m(p, "void f(void) { struct page *pg = dev_alloc_page(); }"));
	CHECK(!m(p, "void f(void) { ring_size(0); }"));
	prefilter_free(p);
}

TEST(prefilter_follows_quoted_includes)
{
	char tmpl[] = "/tmp/gfpaudit-pf-XXXXXX";
	char *d = mkdtemp(tmpl);
	char *h = xasprintf("%s/local.h", d), *h2 = xasprintf("%s/cycle.h", d), *c = xasprintf("%s/x.c", d);
	FILE *f = fopen(h, "w");
	fputs("#include \"cycle.h\"\n#define GRAB(n) kzalloc(n, GFP_KERNEL)\n", f);
	fclose(f);
	f = fopen(h2, "w");
	fputs("#include \"local.h\"\nint cyc;\n", f);
	fclose(f);
	struct prefilter *p = pf_new();
	const char *text = "#include \"local.h\"\nvoid f(void) { GRAB(4); }\n", *why;
	CHECK(prefilter_match(p, text, strlen(text), c, &why));
	CHECK_EQ_STR(why, "#include \"local.h\"");
	CHECK(!prefilter_match(p, text, strlen(text), NULL, NULL));  /* not followed */
	const char *other = "#include \"cycle.h\"\nint z;\n";
	CHECK(prefilter_match(p, other, strlen(other), c, NULL));    /* through the cycle */
	const char *missing = "#include \"nothere.h\"\nint z;\n";
	CHECK(!prefilter_match(p, missing, strlen(missing), c, NULL));
	prefilter_free(p);
	remove(h);
	remove(h2);
	remove(d);
	free(h);
	free(h2);
	free(c);
}

TEST(prefilter_leaves_odd_text_to_the_parser)
{
	struct prefilter *p = pf_new();
	const char *why;
	CHECK(prefilter_match(p, "this is { not C (((\n@@@ garbage\n", 31, NULL, &why));
	CHECK(strstr(why, "not plain C") != NULL);
	CHECK(prefilter_match(p, "int x;\0\1binary", 14, NULL, &why));
	CHECK_EQ_STR(why, "binary");
	CHECK(m(p, "int f(void) { return 1; }}"));
	CHECK(m(p, "int a = `x`;"));
	/* brackets in directives, comments and strings do not count */
	CHECK(!m(p, "#define OPEN {\n/* ( */ const char *s = \"[\"; int f(void) { return 0; }\n"));
	prefilter_free(p);
}

TEST(prefilter_rule_triggers)
{
	struct prefilter *p = pf_new();
	const char *fn = "int f(unsigned int alloc_flags, gfp_t gfp_mask) { return alloc_flags & ALLOC_CPUSET; }";
	CHECK(!m(p, fn));
	prefilter_add_trigger(p, "ALLOC_", "alloc_flags");
	CHECK(m(p, fn));
	CHECK(m(p, "int g(int reserve_alloc_flags_x) { return 0; }"));  /* substring */
	const char *cap = "void h(gfp_t gfp) { bool can = gfp & __GFP_DIRECT_RECLAIM; }";
	const char *both = "void h(gfp_t gfp) { bool can = gfp & __GFP_DIRECT_RECLAIM; trace_mm_x(gfp, can); }";
	const char *a[] = { "__GFP_DIRECT_RECLAIM", NULL }, *b[] = { "trace_*", "__alloc_pages_direct_*", NULL };
	prefilter_add_pair(p, a, b);
	CHECK(!m(p, cap));      /* one half of a pair is not enough */
	CHECK(m(p, both));
	CHECK(!m(p, "void k(void) { trace_mm_x(0); }"));
	/* triggers do not make wrappers */
	prefilter_learn_text(p, "#define GFP_X (__GFP_IO | ALLOC_Y)\n", 34);
	CHECK_EQ_INT(prefilter_learn_finish(p), 0);
	prefilter_free(p);
}
