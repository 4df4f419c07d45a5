/* frontend/blank.c: which function bodies a change lets check blank, and
 * the blanking itself. */
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "gfpaudit/blank.h"
#include "gfpaudit/err.h"

static const char shapes[] =
	"#include <linux/slab.h>\n"                                   /* 1 */
	"struct __attribute__((aligned(8))) cfg { int a; };\n"        /* 2 */
	"static const struct cfg defaults = { .a = 1 };\n"           /* 3 */
	"static int table[] = { 1, 2, 3 };\n"                        /* 4 */
	"int helper(int x);\n"                                       /* 5 */
	"static void *grab(size_t n)\n"                              /* 6 */
	"{\n"                                                         /* 7 */
	"\treturn kmalloc(n, GFP_KERNEL);\n"                          /* 8 */
	"}\n"                                                         /* 9 */
	"static void drop(struct cfg *c) __releases(c)\n"             /* 10 */
	"{\n"                                                         /* 11 */
	"#ifdef CONFIG_DROP\n"                                        /* 12 */
	"\tif (c->a) { c->a = 0; }\n"                                 /* 13 */
	"#define LONG_ONE(x) \\\n"                                    /* 14 */
	"\t((x) + 1)\n"                                               /* 15 */
	"#endif\n"                                                    /* 16 */
	"\tkfree(c); /* a comment } */\n"                             /* 17 */
	"}\n"                                                         /* 18 */
	"SYSCALL_DEFINE2(thing, int, a, int, b)\n"                    /* 19 */
	"{\n"                                                         /* 20 */
	"\treturn a + b + table[0];\n"                                /* 21 */
	"}\n"                                                         /* 22 */
	"struct ops { int (*f)(int); } the_ops = {\n"                 /* 23 */
	"\t.f = helper,\n"                                            /* 24 */
	"};\n";                                                       /* 25 */

/* Line `n` (1-based) of s, without its newline (static buffer). */
static const char *line_n(const char *s, int n)
{
	static char buf[256];
	for (int l = 1; l < n && *s; s++)
		if (*s == '\n')
			l++;
	size_t k = strcspn(s, "\n");
	if (k >= sizeof(buf))
		k = sizeof(buf) - 1;
	memcpy(buf, s, k);
	buf[k] = 0;
	return buf;
}

static bool blank_line(const char *l)
{
	return strspn(l, " ") == strlen(l);
}

TEST(blank_keeps_lines_directives_and_declarations)
{
	struct blank_names keep;
	blank_names_init(&keep);
	blank_names_add(&keep, "grab", 4);
	char *out;
	size_t len, n;
	REQUIRE(blank_bodies(shapes, strlen(shapes), &keep, &out, &len, &n) == 0);
	CHECK_EQ_INT(n, 2); /* drop, SYSCALL_DEFINE2 */
	REQUIRE_EQ_INT(len, strlen(shapes));
	for (size_t i = 0; i < len; i++)
		if (shapes[i] == '\n' || out[i] == '\n')
			CHECK(shapes[i] == out[i]); /* every line where it was */
	for (int l = 1; l <= 12; l++)
		CHECK_EQ_STR(line_n(out, l), line_n(shapes, l)); /* declarations, kept function */
	CHECK(blank_line(line_n(out, 13)));
	CHECK_EQ_STR(line_n(out, 14), "#define LONG_ONE(x) \\");
	CHECK_EQ_STR(line_n(out, 15), "\t((x) + 1)");
	CHECK_EQ_STR(line_n(out, 16), "#endif");
	CHECK(blank_line(line_n(out, 17)));
	CHECK_EQ_STR(line_n(out, 18), "}");
	CHECK_EQ_STR(line_n(out, 19), "SYSCALL_DEFINE2(thing, int, a, int, b)");
	CHECK_EQ_STR(line_n(out, 20), "{");
	CHECK(blank_line(line_n(out, 21)));
	for (int l = 22; l <= 25; l++)
		CHECK_EQ_STR(line_n(out, l), line_n(shapes, l)); /* an initializer's braces are not a body */
	free(out);
	blank_names_release(&keep);
}

TEST(blank_one_line_body_and_attribute_struct)
{
	const char *src = "int f(int a) { return a; } struct __attribute__((packed)) s { int x; };\n"
			  "void g(void) __must_hold(&l) { f(1); }\n";
	struct blank_names keep;
	blank_names_init(&keep);
	char *out;
	size_t len, n;
	REQUIRE(blank_bodies(src, strlen(src), &keep, &out, &len, &n) == 0);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_STR(out, "int f(int a) {           } struct __attribute__((packed)) s { int x; };\n"
			  "void g(void) __must_hold(&l) {       }\n");
	free(out);
	blank_names_release(&keep);
}

TEST(blank_refuses_unbalanced_conditional_braces)
{
	const char *src = "#ifdef A\nint f(int a) {\n#else\nint f(void) {\n#endif\n\treturn 0;\n}\n";
	struct blank_names keep;
	blank_names_init(&keep);
	char *out = (char *)1;
	size_t len, n;
	CHECK_EQ_INT(blank_bodies(src, strlen(src), &keep, &out, &len, &n), GA_EINVAL);
	CHECK(out == NULL);
	CHECK_EQ_INT(n, 0);
	blank_names_release(&keep);
}

TEST(blank_leaves_a_body_that_includes_text)
{
	const char *src = "int f(int a)\n{\n#include \"f.inc\"\n\treturn a;\n}\nint g(void)\n{\n\treturn 1;\n}\n";
	struct blank_names keep;
	blank_names_init(&keep);
	char *out;
	size_t len, n;
	REQUIRE(blank_bodies(src, strlen(src), &keep, &out, &len, &n) == 0);
	CHECK_EQ_INT(n, 1);
	CHECK(strstr(out, "\treturn a;") != NULL);
	CHECK(strstr(out, "\treturn 1;") == NULL);
	free(out);
	blank_names_release(&keep);
}

/* The plan for a change from old to new, with kmalloc and alloc_pages as
 * the allocator table. */
static void plan(const char *old, const char *new_, struct blank_names *keep)
{
	struct blank_names alloc;
	blank_names_init(&alloc);
	blank_names_add(&alloc, "kmalloc", 7);
	blank_names_add(&alloc, "alloc_pages", 11);
	blank_names_init(keep);
	blank_plan(old, strlen(old), new_, strlen(new_), NULL, &alloc, keep);
	blank_names_release(&alloc);
}

#define HAS(k, s) blank_names_has((k), (s), strlen(s))

static const char chain_old[] =
	"struct st { void *buf; int order; };\n"
	"static int leaf(int x) { return x * 2; }\n"
	"static void *alloc_it(struct st *s, int order)\n"
	"{\n\ts->buf = (void *)alloc_pages(GFP_KERNEL, leaf(order));\n\treturn s->buf;\n}\n"
	"static void *mid(struct st *s, int o) { return kmalloc(8, GFP_KERNEL) ? alloc_it(s, o) : 0; }\n"
	"static int top(struct st *s) { return !!mid(s, 3); }\n"
	"static int toptop(struct st *s) { return top(s); }\n"
	"static int user(struct st *s) { return virt_to_phys(s->buf) != 0; }\n"
	"static int unrelated(int a) { return a + 1; }\n"
	"int exported(void) { return unrelated(2); }\n"
	"static void check_aliases(void) { BUILD_BUG_ON(__GFP_HIGH != (__force gfp_t)ALLOC_HIGH); }\n"
	"static void check_sizes(void) { BUILD_BUG_ON(sizeof(struct st) != 16); leaf(1); }\n";

TEST(blank_plan_keeps_what_the_model_reads)
{
	/* alloc_it changes: a static function that allocates */
	char *new_ = strdup(chain_old);
	char *p = strstr(new_, "GFP_KERNEL, leaf");
	REQUIRE(p != NULL);
	memcpy(p, "GFP_ATOMIC", 10);
	struct blank_names k;
	plan(chain_old, new_, &k);
	CHECK(!k.all);
	CHECK(HAS(&k, "alloc_it"));      /* changed */
	CHECK(HAS(&k, "leaf"));          /* a callee */
	CHECK(HAS(&k, "mid"));           /* binds alloc_it's parameters */
	CHECK(HAS(&k, "top"));           /* binds mid's (static, allocates) */
	CHECK(!HAS(&k, "toptop"));       /* top allocates nothing: its callers bind nothing */
	CHECK(HAS(&k, "user"));          /* reads the field alloc_it stores into */
	CHECK(HAS(&k, "check_aliases")); /* BUILD_BUG_ON: the aliases */
	CHECK(!HAS(&k, "check_sizes"));  /* another assertion, and its callee's callers do not matter */
	CHECK(!HAS(&k, "unrelated"));
	CHECK(!HAS(&k, "exported"));
	blank_names_release(&k);
	free(new_);
}

TEST(blank_plan_exported_seed_has_no_bound_callers)
{
	const char *old = "void *give(int n) { return kmalloc(n, GFP_KERNEL); }\n"
			  "static int caller(void) { return give(4) != 0; }\n";
	const char *new_ = "void *give(int n) { return kmalloc(n, GFP_NOWAIT); }\n"
			   "static int caller(void) { return give(4) != 0; }\n";
	struct blank_names k;
	plan(old, new_, &k);
	CHECK(HAS(&k, "give"));
	CHECK(!HAS(&k, "caller"));
	blank_names_release(&k);
}

TEST(blank_plan_file_scope_changes)
{
	const char *old = "#define SZ 8\nstatic int a(void) { return SZ; }\nstatic int b(void) { return 1; }\n";
	const char *new_ = "#define SZ 4096\nstatic int a(void) { return SZ; }\nstatic int b(void) { return 1; }\n";
	struct blank_names k;
	plan(old, new_, &k);
	CHECK(!k.all);
	CHECK(HAS(&k, "a")); /* names the changed macro */
	CHECK(!HAS(&k, "b"));
	blank_names_release(&k);
	/* a conditional at file scope may change what is compiled: keep all */
	const char *cond = "#ifdef X\nstatic int a(void) { return SZ; }\n#endif\nstatic int b(void) { return 1; }\n";
	plan(cond + 9, cond, &k);
	CHECK(k.all);
	blank_names_release(&k);
	/* a function added: itself */
	const char *added = "static int b(void) { return 1; }\nstatic int c(void) { return kmalloc(1, 0) != 0; }\n";
	plan("static int b(void) { return 1; }\n", added, &k);
	CHECK(!k.all);
	CHECK(HAS(&k, "c"));
	CHECK(!HAS(&k, "b"));
	blank_names_release(&k);
}

TEST(blank_plan_use_as_value_keeps_the_taker)
{
	/* a static allocating function whose address another takes is not
	 * bound to its callers' arguments: the taker must stay visible */
	const char *old = "static void *mk(int n) { return kmalloc(n, GFP_KERNEL); }\n"
			  "static void reg(void) { register_cb(mk); }\n"
			  "static void other(void) { }\n";
	const char *new_ = "static void *mk(int n) { return kmalloc(n * 2, GFP_KERNEL); }\n"
			   "static void reg(void) { register_cb(mk); }\n"
			   "static void other(void) { }\n";
	struct blank_names k;
	plan(old, new_, &k);
	CHECK(HAS(&k, "mk"));
	CHECK(HAS(&k, "reg"));
	CHECK(!HAS(&k, "other"));
	blank_names_release(&k);
}

TEST(blank_plan_sees_calls_through_macros)
{
	/* GRAB() hides a call of grab(), DO_GRAB() a use of GRAB() */
	const char *old = "static void *grab(int n) { return kmalloc(n, GFP_KERNEL); }\n"
			  "#define GRAB(n) grab((n) * 2)\n"
			  "#define DO_GRAB(p) ((p) = GRAB(4))\n"
			  "static void user(void **p) { DO_GRAB(*p); }\n"
			  "static int helper(int a) { return a; }\n"
			  "#define HELP(a) helper(a)\n"
			  "static int top(void) { return HELP(1) + !!kmalloc(8, GFP_KERNEL); }\n"
			  "static int other(void) { return 0; }\n";
	char *new_ = strdup(old);
	char *p = strstr(new_, "kmalloc(n, GFP_KERNEL)");
	REQUIRE(p != NULL);
	memcpy(p, "kmalloc(n, GFP_NOWAIT)", 22);
	struct blank_names k;
	plan(old, new_, &k);
	CHECK(HAS(&k, "grab"));
	CHECK(HAS(&k, "user"));   /* calls grab() through two macros: binds its parameter */
	CHECK(!HAS(&k, "other"));
	blank_names_release(&k);
	/* top changes: helper(), called through HELP(), is its callee */
	char *new2 = strdup(old);
	p = strstr(new2, "kmalloc(8, GFP_KERNEL)");
	REQUIRE(p != NULL);
	memcpy(p, "kmalloc(9, GFP_KERNEL)", 22);
	plan(old, new2, &k);
	CHECK(HAS(&k, "top"));
	CHECK(HAS(&k, "helper"));
	CHECK(!HAS(&k, "user"));
	blank_names_release(&k);
	free(new_);
	free(new2);
}
