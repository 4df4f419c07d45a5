/* The light C reader: tokens, conditionals, macros, statements, flow graph. */
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "gfpaudit/csrc.h"
#include "gfpaudit/cmacro.h"
#include "gfpaudit/kconf.h"

static struct csrc *parse_str(const char *text, const struct kconf *k)
{
	struct csrc *c = NULL;
	if (csrc_parse("/virtual/test.c", text, strlen(text), k, &c))
		return NULL;
	return c;
}

static const struct cs *stmt_at_line(const struct cs *s, int line)
{
	if (!s)
		return NULL;
	if (s->line == line && s->kind != CS_BLOCK)
		return s;
	const struct cs *r;
	if ((r = stmt_at_line(s->init, line)) || (r = stmt_at_line(s->body, line)) || (r = stmt_at_line(s->els, line)))
		return r;
	for (size_t i = 0; i < s->nkids; i++)
		if ((r = stmt_at_line(s->kids[i], line)))
			return r;
	return NULL;
}

TEST(csrc_conditionals_follow_config)
{
	struct kconf k = { 0 };
	char *names[] = { "CONFIG_ON" };
	k.names = names;
	k.n = 1;
	const char *src =
		"#ifdef CONFIG_ON\n"
		"int on(void) { return 1; }\n"
		"#else\n"
		"int off(void) { return 0; }\n"
		"#endif\n"
		"#if IS_ENABLED(CONFIG_OFF) || 0\n"
		"int off2(void) { return 0; }\n"
		"#elif defined(CONFIG_ON) && !defined(CONFIG_OFF)\n"
		"int on2(void) { return 2; }\n"
		"#endif\n"
		"#if SOME_UNKNOWN_MACRO > 1\n"
		"int first_branch(void) { return 3; }\n"
		"#else\n"
		"int second_branch(void) { return 4; }\n"
		"#endif\n";
	struct csrc *c = parse_str(src, &k);
	REQUIRE(c != NULL);
	CHECK(csrc_function(c, "on") != NULL);
	CHECK(csrc_function(c, "off") == NULL);
	CHECK(csrc_function(c, "off2") == NULL);
	CHECK(csrc_function(c, "on2") != NULL);
	/* undecidable: the first branch is kept, never both */
	CHECK(csrc_function(c, "first_branch") != NULL);
	CHECK(csrc_function(c, "second_branch") == NULL);
	csrc_free(c);
}

TEST(csrc_statements_and_expressions)
{
	const char *src =
		"static struct page *f(gfp_t gfp_mask, unsigned int order, struct ctx *ac)\n"
		"{\n"
		"	bool can = gfp_mask & __GFP_DIRECT_RECLAIM;\n"
		"	unsigned int flags = (__force int)(gfp_mask & (__GFP_HIGH | __GFP_KSWAPD_RECLAIM));\n"
		"	if (unlikely(can) && !(gfp_mask & __GFP_NORETRY))\n"
		"		flags |= ALLOC_X;\n"
		"	for_each_zone(z, ac) {\n"
		"		touch(z);\n"
		"	}\n"
		"retry:\n"
		"	if (toy(ac->nodemask, sizeof(struct page), (struct page *)NULL))\n"
		"		goto retry;\n"
		"	return x ? y : ({ int q = 1; q; });\n"
		"}\n";
	struct csrc *c = parse_str(src, NULL);
	REQUIRE(c != NULL);
	struct cfunc *f = csrc_function(c, "f");
	REQUIRE(f != NULL);
	REQUIRE_EQ_INT(f->nparams, 3);
	CHECK_EQ_STR(f->params[0].type, "gfp_t");
	CHECK_EQ_STR(f->params[2].name, "ac");
	CHECK(f->params[2].pointer);
	struct cs *b = csrc_body(c, f);
	const struct cs *d = stmt_at_line(b, 3);
	CHECK(d && d->kind == CS_DECL && d->ndecls == 1 && !strcmp(d->decls[0].name, "can"));
	CHECK(d && d->decls[0].init && d->decls[0].init->kind == CX_BINARY && !strcmp(d->decls[0].init->text, "&"));
	const struct cs *d2 = stmt_at_line(b, 4);
	CHECK(d2 && d2->decls[0].init && d2->decls[0].init->kind == CX_CAST);
	const struct cs *i = stmt_at_line(b, 5);
	CHECK(i && i->kind == CS_IF && i->e->kind == CX_BINARY && !strcmp(i->e->text, "&&"));
	CHECK(i && cx_is_ident(i->e->a, "can")); /* unlikely() peeled */
	const struct cs *ml = stmt_at_line(b, 7);
	CHECK(ml && ml->kind == CS_MACROLOOP && ml->body && ml->body->kind == CS_BLOCK);
	const struct cs *lab = stmt_at_line(b, 10);
	CHECK(lab && lab->kind == CS_LABEL && !strcmp(lab->label, "retry"));
	const struct cs *call = stmt_at_line(b, 11);
	CHECK(call && call->kind == CS_IF && call->e->kind == CX_CALL && call->e->nargs == 3);
	const struct cs *ret = stmt_at_line(b, 13);
	CHECK(ret && ret->kind == CS_RETURN && ret->e && ret->e->kind == CX_COND);
	char *t = cx_text(d2->decls[0].init);
	CHECK(strstr(t, "__GFP_HIGH") != NULL);
	free(t);
	csrc_free(c);
}

TEST(csrc_flow_graph_follows_gotos)
{
	const char *src =
		"int g(int a)\n"
		"{\n"
		"again:\n"
		"	a--;\n"
		"	if (a > 0)\n"
		"		goto again;\n"
		"	return a;\n"
		"}\n";
	struct csrc *c = parse_str(src, NULL);
	REQUIRE(c != NULL);
	struct cfunc *f = csrc_function(c, "g");
	struct cfg g;
	cfg_build(&g, csrc_body(c, f));
	/* the goto's node leads back to the label's node */
	int label = -1, go = -1;
	for (size_t i = 0; i < g.n; i++) {
		if (g.nodes[i].kind == CN_LABEL && g.nodes[i].s && g.nodes[i].s->label && !strcmp(g.nodes[i].s->label, "again"))
			label = (int)i;
		if (g.nodes[i].s && g.nodes[i].s->kind == CS_GOTO)
			go = (int)i;
	}
	REQUIRE(label >= 0 && go >= 0);
	CHECK(g.nodes[go].nsucc == 1 && g.nodes[go].succ[0] == label);
	cfg_release(&g);
	csrc_free(c);
}

TEST(cmacro_evaluates_enums_bits_and_casts)
{
	const char *src =
		"enum { A_BIT, B_BIT,\n#ifdef CONFIG_NONE\nX_BIT,\n#endif\n C_BIT, D_BIT = 10, E_BIT };\n"
		"#define ___A BIT(A_BIT)\n"
		"#define ___C BIT(C_BIT)\n"
		"#define __A ((__force gfp_t)___A)\n"
		"#define TWO(x, y) ((x) | (y))\n"
		"#define BOTH TWO(__A, ___C)\n"
		"#define HEX 0x800u\n"
		"#define E_VAL BIT(E_BIT)\n";
	struct csrc *c = parse_str(src, NULL);
	REQUIRE(c != NULL);
	struct csrc *files[1] = { c };
	struct cmacro m = { files, 1 };
	int64_t v = -1;
	CHECK(!cmacro_eval(&m, "C_BIT", &v) && v == 2); /* X_BIT is configured out */
	CHECK(!cmacro_eval(&m, "__A", &v) && v == 1);
	CHECK(!cmacro_eval(&m, "BOTH", &v) && v == 5);
	CHECK(!cmacro_eval(&m, "HEX", &v) && v == 0x800);
	CHECK(!cmacro_eval(&m, "E_VAL", &v) && v == (1 << 11));
	CHECK(cmacro_eval(&m, "NOT_THERE", &v) != 0);
	csrc_free(c);
}
