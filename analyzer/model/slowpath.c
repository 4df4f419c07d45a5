/* The page allocator slow-path model (see slowpath.h).
 *
 * Recognition is structural: statements of __alloc_pages_slowpath() are
 * found by the calls and flags they mention, not by line or exact text, so
 * comment and whitespace changes, renamed locals and moved blocks still
 * read.  What is not found is absent from the model, and the absence shows
 * in explain's output; when the anchors (the function, the reclaim and
 * compaction calls, gfp_to_alloc_flags()) are missing the whole tree is
 * "not recognized" and a built-in model is used instead.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gfpaudit/slowpath.h"
#include "gfpaudit/csrc.h"
#include "gfpaudit/cmacro.h"
#include "gfpaudit/kconf.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

#define PA "mm/page_alloc.c"

enum { TF_PAGE_ALLOC, TF_INTERNAL, TF_GFP_TYPES, TF_GFP, TF_MMZONE, TF__COUNT };
static const char *const tree_files[TF__COUNT] = {
	"mm/page_alloc.c", "mm/internal.h", "include/linux/gfp_types.h",
	"include/linux/gfp.h", "include/linux/mmzone.h",
};

struct slowpath_tree {
	struct kconf cfg;
	struct csrc *f[TF__COUNT];
	struct cmacro macros;
	struct csrc *mfiles[TF__COUNT];
};

static const char *const builtins[] = { "6.1", "6.12", "later", NULL };

const char *const *slowpath_builtin_names(void)
{
	return builtins;
}

static void fact(struct slowpath_model *m, enum sp_fact_id id, const char *file, int line)
{
	m->facts[id].present = true;
	m->facts[id].file = file;
	m->facts[id].line = line;
}

/* ---- built-in models ---- */

static void builtin(struct slowpath_model *m, const char *name)
{
	free(m->name);
	m->name = xstrdup(name);
	for (int i = 0; i < SPF__COUNT; i++)
		m->facts[i] = (struct sp_fact){ false, NULL, 0 };
	/* shared by 6.1 and 6.12 (Debian 6.1 carries the ALLOC_MIN_RESERVE rework) */
	static const enum sp_fact_id common[] = {
		SPF_CAN_DIRECT_RECLAIM, SPF_CAN_COMPACT, SPF_COMPACTION_IO, SPF_KSWAPD, SPF_COMPACT_FIRST,
		SPF_COSTLY_NORETRY, SPF_CN_BAIL_SKIPPED, SPF_CN_BAIL_THISNODE, SPF_CN_ASYNC,
		SPF_RECLAIM_NEEDS_DR, SPF_RECLAIM, SPF_DRAIN, SPF_COMPACT_AFTER, SPF_NORETRY_EXIT,
		SPF_COSTLY_EXIT, SPF_RECLAIM_RETRY, SPF_COMPACT_RETRY, SPF_OOM, SPF_OOM_NOT_COSTLY,
		SPF_OOM_NOT_MAYFAIL, SPF_NOFAIL_WARN, SPF_NOFAIL_NO_RECLAIM, SPF_NOFAIL_LOOP,
		SPF_ALLOC_FLAGS, SPF_ALLOC_FLAGS_CALL,
	};
	for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		m->facts[common[i]].present = true;
	m->cn_skip = CN_SKIP_NONE;
	m->nofail_warn_order = !strcmp(name, "6.1") ? m->costly_order : 1;
	if (!strcmp(name, "later")) {
		m->cn_skip = CN_SKIP_MASK;
		m->cn_skip_exempt_thisnode = m->cn_skip_exempt_nofail = true;
		m->facts[SPF_CN_SKIP].present = true;
	}
	free(m->first_compact_prio);
	free(m->after_compact_prio);
	m->first_compact_prio = xstrdup("INIT_COMPACT_PRIORITY");
	m->after_compact_prio = xstrdup("DEF_COMPACT_PRIORITY");
	for (size_t i = 0; i < m->naliases; i++) {
		free(m->aliases[i].gfp);
		free(m->aliases[i].alloc);
	}
	free(m->aliases);
	m->aliases = xcalloc(2, sizeof(*m->aliases));
	m->aliases[0] = (struct sp_alias){ xstrdup("__GFP_HIGH"), xstrdup("ALLOC_MIN_RESERVE"), 0 };
	m->aliases[1] = (struct sp_alias){ xstrdup("__GFP_KSWAPD_RECLAIM"), xstrdup("ALLOC_KSWAPD"), 0 };
	m->naliases = 2;
}

/* ---- reading the tree ---- */

static bool is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static char *tree_version(const char *tree)
{
	char *p = xasprintf("%s/Makefile", tree);
	struct strbuf sb = STRBUF_INIT;
	char *out = NULL;
	if (is_file(p) && !strbuf_read_file(&sb, p, 1 << 20)) {
		long v[3] = { -1, -1, -1 };
		const char *keys[3] = { "VERSION = ", "PATCHLEVEL = ", "SUBLEVEL = " };
		for (int i = 0; i < 3; i++) {
			const char *k = strstr(sb.buf, keys[i]);
			if (k && (k == sb.buf || k[-1] == '\n'))
				v[i] = strtol(k + strlen(keys[i]), NULL, 10);
		}
		if (v[0] >= 0 && v[1] >= 0)
			out = v[2] >= 0 ? xasprintf("%ld.%ld.%ld", v[0], v[1], v[2]) : xasprintf("%ld.%ld", v[0], v[1]);
	}
	strbuf_release(&sb);
	free(p);
	return out;
}

struct locals {
	const struct cdecl **d;
	size_t n, alloc;
};

static bool collect_decl(const struct cs *s, void *data)
{
	struct locals *l = data;
	for (size_t i = 0; i < s->ndecls; i++) {
		ALLOC_GROW(l->d, l->n + 1, l->alloc);
		l->d[l->n++] = &s->decls[i];
	}
	return false;
}

static const struct cdecl *local(const struct locals *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->d[i]->name, name))
			return l->d[i];
	return NULL;
}

/* Does `e` mention `name`, directly or through the initializers of locals? */
static bool mentions_t(const struct cx *e, const char *name, const struct locals *l, int depth)
{
	if (!e)
		return false;
	if (cx_mentions(e, name))
		return true;
	if (depth > 3 || !l)
		return false;
	for (size_t k = e->tb; k < e->te; k++) {
		if (e->toks[k].kind != CT_IDENT)
			continue;
		const struct cdecl *d = local(l, e->toks[k].text);
		if (d && d->init && d->init != e && mentions_t(d->init, name, l, depth + 1))
			return true;
	}
	return false;
}

static bool mentions_costly(const struct cx *e, const struct locals *l)
{
	return mentions_t(e, "PAGE_ALLOC_COSTLY_ORDER", l, 0) || cx_mentions(e, "costly_order");
}

struct stmts {
	const struct cs **v;
	size_t n, alloc;
};

static bool collect_stmt(const struct cs *s, void *data)
{
	struct stmts *l = data;
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = s;
	return false;
}

struct find_call {
	const char *name;
	const struct cx *hit;
};

static bool is_call_to(const struct cx *e, void *data)
{
	struct find_call *f = data;
	const char *c = cx_callee(e);
	if (c && !strcmp(c, f->name)) {
		f->hit = e;
		return true;
	}
	return false;
}

/* A call to `name` in the statement's own expressions (not in sub-statements). */
static const struct cx *stmt_call(const struct cs *s, const char *name)
{
	struct find_call f = { name, NULL };
	if (s->kind == CS_EXPR || s->kind == CS_RETURN || s->kind == CS_IF || s->kind == CS_WHILE ||
	    s->kind == CS_MACROLOOP)
		cx_walk(s->e, is_call_to, &f);
	for (size_t i = 0; !f.hit && i < s->ndecls; i++)
		cx_walk(s->decls[i].init, is_call_to, &f);
	return f.hit;
}

static const struct cs *first_call(const struct stmts *l, const char *name, size_t after_tb, const struct cx **call)
{
	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i]->tb < after_tb)
			continue;
		const struct cx *c = stmt_call(l->v[i], name);
		if (c) {
			if (call)
				*call = c;
			return l->v[i];
		}
	}
	return NULL;
}

/* The label an if-statement's body jumps to ("nopage"), "return", or NULL. */
static const char *if_exit(const struct cs *s)
{
	const struct cs *b = s->body;
	if (!b)
		return NULL;
	if (b->kind == CS_BLOCK && b->nkids)
		b = b->kids[b->nkids - 1];
	if (b->kind == CS_GOTO)
		return b->label;
	if (b->kind == CS_RETURN)
		return "return";
	return NULL;
}

static const struct cs *enclosing_if(const struct cs *s)
{
	for (const struct cs *p = s->parent; p; p = p->parent)
		if (p->kind == CS_IF)
			return p;
	return NULL;
}

static bool inside(const struct cs *s, const struct cs *outer)
{
	return s->tb >= outer->tb && s->te <= outer->te;
}

/* An assignment `gfp_mask &= ~...__GFP_DIRECT_RECLAIM...` in s (or a block). */
struct clear_bit {
	const char *bit;
	bool hit;
};

static bool is_clear(const struct cx *e, void *data)
{
	struct clear_bit *c = data;
	if (e->kind == CX_ASSIGN && (!strcmp(e->text, "&=") || !strcmp(e->text, "=")) &&
	    cx_mentions(e->b, c->bit) && cx_mentions(e->b, "~")) {
		c->hit = true;
		return true;
	}
	return false;
}

static bool stmt_clears(const struct cs *s, const char *bit)
{
	struct stmts l = { 0 };
	cs_walk(s, collect_stmt, &l);
	struct clear_bit c = { bit, false };
	for (size_t i = 0; i < l.n && !c.hit; i++)
		if (l.v[i]->kind == CS_EXPR)
			cx_walk(l.v[i]->e, is_clear, &c);
	free(l.v);
	return c.hit;
}

static bool stmt_assigns_false(const struct cs *s, const char *var)
{
	struct stmts l = { 0 };
	cs_walk(s, collect_stmt, &l);
	bool hit = false;
	for (size_t i = 0; i < l.n && !hit; i++) {
		const struct cx *e = l.v[i]->kind == CS_EXPR ? l.v[i]->e : NULL;
		if (e && e->kind == CX_ASSIGN && cx_is_ident(e->a, var) &&
		    (cx_is_ident(e->b, "false") || (e->b->kind == CX_NUM && !strcmp(e->b->text, "0"))))
			hit = true;
	}
	free(l.v);
	return hit;
}

static int eval_int(struct slowpath_tree *t, const struct cx *e, int64_t *out)
{
	return cmacro_eval_expr(&t->macros, e, out);
}

/* BUILD_BUG_ON(__GFP_X != (__force gfp_t) ALLOC_Y) anywhere in page_alloc.c */
static void read_aliases(struct slowpath_model *m, struct csrc *pa)
{
	for (size_t i = 0; i < m->naliases; i++) {
		free(m->aliases[i].gfp);
		free(m->aliases[i].alloc);
	}
	free(m->aliases);
	m->aliases = NULL;
	m->naliases = 0;
	size_t alloc = 0;
	const struct ctok *t = pa->toks;
	for (size_t i = 0; i + 2 < pa->ntoks; i++) {
		if (strcmp(t[i].text, "BUILD_BUG_ON") || strcmp(t[i + 1].text, "("))
			continue;
		const char *g = NULL, *a = NULL;
		int depth = 0;
		for (size_t k = i + 1; k < pa->ntoks; k++) {
			if (!strcmp(t[k].text, "(")) depth++;
			else if (!strcmp(t[k].text, ")") && --depth == 0) break;
			else if (!strcmp(t[k].text, "==")) { g = a = NULL; break; }
			if (t[k].kind == CT_IDENT && !strncmp(t[k].text, "__GFP_", 6))
				g = t[k].text;
			if (t[k].kind == CT_IDENT && !strncmp(t[k].text, "ALLOC_", 6))
				a = t[k].text;
		}
		if (!g || !a)
			continue;
		ALLOC_GROW(m->aliases, m->naliases + 1, alloc);
		m->aliases[m->naliases++] = (struct sp_alias){ xstrdup(g), xstrdup(a), t[i].line };
	}
}

static void read_values(struct slowpath_model *m, struct slowpath_tree *t)
{
	int64_t v;
	/* gfp bits: every canonical name the tree defines */
	int found = 0;
	for (int i = 0; i < GFPF__COUNT; i++) {
		if (!cmacro_eval(&t->macros, gfp_flag_name(i), &v) && v > 0 && !(v & (v - 1))) {
			m->gfp.value[i] = (uint64_t)v;
			found++;
		}
	}
	m->gfp_known = found >= 10 && m->gfp.value[GFPF_DIRECT_RECLAIM] && m->gfp.value[GFPF_NORETRY];
	if (m->gfp_known)
		m->gfp_source = xstrdup(t->f[TF_GFP_TYPES] ? tree_files[TF_GFP_TYPES] : tree_files[TF_GFP]);
	/* ALLOC_* from mm/internal.h: single bits, and the watermark indexes */
	struct csrc *in = t->f[TF_INTERNAL];
	if (in) {
		size_t alloc = 0;
		for (size_t i = 0; i < in->ndefs; i++) {
			const struct cdefine *d = &in->defs[i];
			if (!d->name || d->funclike || strncmp(d->name, "ALLOC_", 6))
				continue;
			if (cmacro_eval(&t->macros, d->name, &v) || v < 0)
				continue;
			bool wmark = !strncmp(d->name, "ALLOC_WMARK_", 12) && strcmp(d->name, "ALLOC_WMARK_MASK");
			if (!wmark && (v == 0 || (v & (v - 1))))
				continue; /* masks (ALLOC_RESERVES) and disabled flags */
			ALLOC_GROW(m->alloc, m->nalloc + 1, alloc);
			m->alloc[m->nalloc++] = (struct sp_alloc_flag){ xstrdup(d->name), (uint64_t)v, d->line };
		}
		if (m->nalloc)
			m->alloc_source = xstrdup(tree_files[TF_INTERNAL]);
	}
	if (!cmacro_eval(&t->macros, "PAGE_ALLOC_COSTLY_ORDER", &v) && v > 0 && v < 11)
		m->costly_order = (int)v;
}

/* What recognizing __alloc_pages_slowpath() works from: its statements in
 * order, its locals, and the anchors every recognizer below places its
 * statements against. */
struct recog {
	struct slowpath_model *m;
	struct slowpath_tree *t;
	struct csrc *pa;
	struct stmts l;
	struct locals lv;
	const struct cs *reclaim;         /* __alloc_pages_direct_reclaim() */
	const struct cs *af;              /* alloc_flags = gfp_to_alloc_flags() */
	const struct cs *c1, *c2;         /* direct compaction before and after reclaim */
	const struct cx *c1call, *c2call;
	const struct cs *guard;           /* the if-statement around c1 */
	uint32_t may;                     /* the facts the running recognizer reads */
};

#define FACT(n) (1u << SPF_##n)
_Static_assert(SPF__COUNT <= 32, "the recognizer table keeps facts in a 32-bit mask");

static void rfact(struct recog *r, enum sp_fact_id id, const char *file, int line)
{
	assert(r->may & (1u << id)); /* a fact its row in recognizers[] does not name */
	fact(r->m, id, file, line);
}

/* The tree's way for costly __GFP_NORETRY requests to avoid compaction,
 * read at `line`; `cond` is the condition that exempts THISNODE or NOFAIL
 * requests, when it does. */
static void cn_skip_found(struct recog *r, enum sp_cn_skip how, int line, const struct cx *cond)
{
	r->m->cn_skip = how;
	rfact(r, SPF_CN_SKIP, PA, line);
	r->m->cn_skip_exempt_thisnode = mentions_t(cond, "__GFP_THISNODE", &r->lv, 0);
	r->m->cn_skip_exempt_nofail = mentions_t(cond, "__GFP_NOFAIL", &r->lv, 0);
}

/* The calls without which the function is not the slow path this model
 * reads; NULL when all are there, else the reason. */
static const char *find_anchors(struct recog *r)
{
	const struct stmts *l = &r->l;
	r->reclaim = first_call(l, "__alloc_pages_direct_reclaim", 0, NULL);
	r->af = first_call(l, "gfp_to_alloc_flags", 0, NULL);
	if (!r->reclaim)
		return "__alloc_pages_slowpath() has no __alloc_pages_direct_reclaim() call";
	if (!r->af)
		return "__alloc_pages_slowpath() does not derive alloc_flags with gfp_to_alloc_flags()";
	for (size_t i = 0; i < l->n; i++) {
		const struct cx *c = stmt_call(l->v[i], "__alloc_pages_direct_compact");
		if (!c)
			continue;
		if (l->v[i]->tb < r->reclaim->tb && !r->c1) {
			r->c1 = l->v[i];
			r->c1call = c;
		} else if (l->v[i]->tb > r->reclaim->tb && !r->c2) {
			r->c2 = l->v[i];
			r->c2call = c;
		}
	}
	if (!r->c1 && !r->c2)
		return "__alloc_pages_slowpath() has no __alloc_pages_direct_compact() call";
	r->guard = r->c1 ? enclosing_if(r->c1) : NULL;
	return NULL;
}

static void rec_anchors(struct recog *r)
{
	rfact(r, SPF_RECLAIM, PA, r->reclaim->line);
	rfact(r, SPF_ALLOC_FLAGS_CALL, PA, r->af->line);
	struct cfunc *gaf = csrc_function(r->pa, "gfp_to_alloc_flags");
	if (gaf)
		rfact(r, SPF_ALLOC_FLAGS, PA, gaf->line);
}

/* compaction after reclaim, and its priority: a variable is read as the
 * value it starts with at restart */
static void rec_compact_after(struct recog *r)
{
	struct slowpath_model *m = r->m;
	if (!r->c2)
		return;
	rfact(r, SPF_COMPACT_AFTER, PA, r->c2->line);
	if (r->c2call->nargs < 5)
		return;
	const struct cx *prio = r->c2call->args[4];
	free(m->after_compact_prio);
	m->after_compact_prio = cx_text(prio);
	if (cx_strip(prio)->kind != CX_IDENT)
		return;
	const char *var = cx_strip(prio)->text;
	for (size_t i = 0; i < r->l.n; i++) {
		const struct cx *e = r->l.v[i]->kind == CS_EXPR ? r->l.v[i]->e : NULL;
		if (e && e->kind == CX_ASSIGN && !strcmp(e->text, "=") && cx_is_ident(e->a, var) &&
		    !enclosing_if(r->l.v[i])) {
			free(m->after_compact_prio);
			m->after_compact_prio = cx_text(e->b);
			break;
		}
	}
}

/* The operand of the '!' at token k of `g`: the next parenthesized group
 * or identifier. */
static struct cx negated_operand(const struct cx *g, size_t k)
{
	struct cx sub = *g;
	sub.tb = k + 1;
	sub.te = g->te;
	if (!strcmp(g->toks[k + 1].text, "(")) {
		int depth = 0;
		for (size_t j = k + 1; j < g->te; j++) {
			if (!strcmp(g->toks[j].text, "(")) depth++;
			if (!strcmp(g->toks[j].text, ")") && --depth == 0) {
				sub.te = j + 1;
				break;
			}
		}
	} else
		sub.te = k + 2;
	return sub;
}

/* compaction before reclaim for costly orders, and a guard on it that
 * excludes NORETRY requests: !(... __GFP_NORETRY ...) */
static void rec_compact_first(struct recog *r)
{
	struct slowpath_model *m = r->m;
	if (!r->c1)
		return;
	if (r->c1call->nargs >= 5) {
		free(m->first_compact_prio);
		m->first_compact_prio = cx_text(r->c1call->args[4]);
	}
	if (!r->guard)
		return;
	if (mentions_costly(r->guard->e, &r->lv))
		rfact(r, SPF_COMPACT_FIRST, PA, r->c1->line);
	const struct cx *g = r->guard->e;
	for (size_t k = g->tb; k + 1 < g->te; k++) {
		if (strcmp(g->toks[k].text, "!"))
			continue;
		struct cx sub = negated_operand(g, k);
		if (mentions_t(&sub, "__GFP_NORETRY", &r->lv, 0))
			cn_skip_found(r, CN_SKIP_GUARD, r->guard->line, &sub);
	}
}

/* can_direct_reclaim, and NORETRY folded into it */
static void rec_can_direct_reclaim(struct recog *r)
{
	const struct cdecl *cdr = local(&r->lv, "can_direct_reclaim");
	if (!cdr || !cdr->init || !cx_mentions(cdr->init, "__GFP_DIRECT_RECLAIM"))
		return;
	rfact(r, SPF_CAN_DIRECT_RECLAIM, PA, cdr->line);
	if (mentions_t(cdr->init, "__GFP_NORETRY", &r->lv, 0))
		cn_skip_found(r, CN_SKIP_FLAG, cdr->line, cdr->init);
}

/* can_compact, and gfp_compaction_allowed() asking for __GFP_IO */
static void rec_can_compact(struct recog *r)
{
	const struct cdecl *cc = local(&r->lv, "can_compact");
	if (!cc || !cc->init)
		return;
	rfact(r, SPF_CAN_COMPACT, PA, cc->line);
	struct csrc *gh = r->t->f[TF_GFP];
	struct cfunc *gca = gh ? csrc_function(gh, "gfp_compaction_allowed") : NULL;
	if (!gca)
		return;
	struct stmts gl = { 0 };
	cs_walk(csrc_body(gh, gca), collect_stmt, &gl);
	for (size_t i = 0; i < gl.n; i++)
		if (gl.v[i]->kind == CS_RETURN && cx_mentions(gl.v[i]->e, "__GFP_IO"))
			rfact(r, SPF_COMPACTION_IO, tree_files[TF_GFP], gl.v[i]->line);
	free(gl.v);
}

/* the first if-statement that wakes kswapd on ALLOC_KSWAPD */
static void rec_kswapd(struct recog *r)
{
	for (size_t i = 0; i < r->l.n && !r->m->facts[SPF_KSWAPD].present; i++) {
		const struct cs *s = r->l.v[i];
		if (s->kind != CS_IF || !cx_mentions(s->e, "ALLOC_KSWAPD"))
			continue;
		bool wakes = stmt_call(s->body ? s->body : s, "wake_all_kswapds");
		if (s->body && s->body->kind == CS_BLOCK)
			for (size_t k = 0; k < s->body->nkids; k++)
				wakes |= stmt_call(s->body->kids[k], "wake_all_kswapds") != NULL;
		if (wakes)
			rfact(r, SPF_KSWAPD, PA, s->line);
	}
}

/* The costly NORETRY block inside the first compaction's guard: its
 * skipped/deferred and THISNODE exits, async compaction for the rest, and
 * an unconditional exit at its end (gives up after one compaction). */
static void costly_noretry_block(struct recog *r, const struct cs *s)
{
	rfact(r, SPF_COSTLY_NORETRY, PA, s->line);
	struct stmts in = { 0 };
	cs_walk(s->body, collect_stmt, &in);
	for (size_t k = 0; k < in.n; k++) {
		const struct cs *x = in.v[k];
		if (x->kind == CS_IF && (cx_mentions(x->e, "COMPACT_SKIPPED") || cx_mentions(x->e, "COMPACT_DEFERRED")) &&
		    if_exit(x))
			rfact(r, SPF_CN_BAIL_SKIPPED, PA, x->line);
		if (x->kind == CS_IF && cx_mentions(x->e, "__GFP_THISNODE") && if_exit(x))
			rfact(r, SPF_CN_BAIL_THISNODE, PA, x->line);
		if (x->kind == CS_EXPR && x->e && x->e->kind == CX_ASSIGN && cx_mentions(x->e->a, "compact_priority") &&
		    cx_mentions(x->e->b, "INIT_COMPACT_PRIORITY"))
			rfact(r, SPF_CN_ASYNC, PA, x->line);
	}
	free(in.v);
	const struct cs *b = s->body;
	if (b && b->kind == CS_BLOCK && b->nkids &&
	    (b->kids[b->nkids - 1]->kind == CS_GOTO || b->kids[b->nkids - 1]->kind == CS_RETURN)) {
		r->m->cn_skip = CN_SKIP_BAIL;
		rfact(r, SPF_CN_SKIP, PA, b->kids[b->nkids - 1]->line);
	}
}

/* if (costly && NORETRY): the block after the first compaction, or, before
 * any compaction, the mask cleared, a bail or the flag forced off */
static void rec_costly_noretry(struct recog *r)
{
	for (size_t i = 0; i < r->l.n; i++) {
		const struct cs *s = r->l.v[i];
		if (s->kind != CS_IF || !mentions_t(s->e, "__GFP_NORETRY", &r->lv, 0) ||
		    !mentions_costly(s->e, &r->lv))
			continue;
		if (r->c1 && s->tb > r->c1->tb && r->guard && inside(s, r->guard)) {
			costly_noretry_block(r, s);
		} else if ((r->c1 && s->tb < r->c1->tb) || (!r->c1 && s->tb < r->reclaim->tb)) {
			enum sp_cn_skip how = CN_SKIP_NONE;
			if (stmt_clears(s->body, "__GFP_DIRECT_RECLAIM"))
				how = CN_SKIP_MASK;
			else if (if_exit(s))
				how = CN_SKIP_BAIL;
			else if (stmt_assigns_false(s->body, "can_direct_reclaim"))
				how = CN_SKIP_FLAG;
			if (how != CN_SKIP_NONE)
				cn_skip_found(r, how, s->line, s->e);
		}
	}
}

/* if (!can_direct_reclaim) goto nopage; between the first compaction and reclaim */
static void rec_needs_direct_reclaim(struct recog *r)
{
	for (size_t i = 0; i < r->l.n && !r->m->facts[SPF_RECLAIM_NEEDS_DR].present; i++) {
		const struct cs *s = r->l.v[i];
		if (s->kind == CS_IF && s->tb < r->reclaim->tb && cx_mentions(s->e, "can_direct_reclaim") &&
		    cx_mentions(s->e, "!") && if_exit(s) && !stmt_call(s, "__alloc_pages_direct_compact") &&
		    s->tb > (r->c1 ? r->c1->tb : 0))
			rfact(r, SPF_RECLAIM_NEEDS_DR, PA, s->line);
	}
}

/* after the second compaction: the NORETRY exit and the costly exit */
static void rec_exits(struct recog *r)
{
	struct slowpath_model *m = r->m;
	for (size_t i = 0; i < r->l.n && r->c2; i++) {
		const struct cs *s = r->l.v[i];
		if (s->kind != CS_IF || s->tb <= r->c2->tb || !if_exit(s))
			continue;
		bool noretry = mentions_t(s->e, "__GFP_NORETRY", &r->lv, 0);
		bool costly = mentions_costly(s->e, &r->lv);
		if (noretry && !costly && !m->facts[SPF_NORETRY_EXIT].present)
			rfact(r, SPF_NORETRY_EXIT, PA, s->line);
		if (costly && cx_mentions(s->e, "__GFP_RETRY_MAYFAIL") && !m->facts[SPF_COSTLY_EXIT].present)
			rfact(r, SPF_COSTLY_EXIT, PA, s->line);
	}
}

/* NOFAIL handling after nopage: a block that loops back, and fails
 * without direct reclaim */
static void rec_nofail_block(struct recog *r)
{
	for (size_t i = 0; i < r->l.n; i++) {
		const struct cs *s = r->l.v[i];
		if (s->kind != CS_IF || !s->body ||
		    !(cx_mentions(s->e, "nofail") || cx_mentions(s->e, "__GFP_NOFAIL")))
			continue;
		struct stmts in = { 0 };
		cs_walk(s->body, collect_stmt, &in);
		for (size_t k = 0; k < in.n; k++) {
			const struct cs *x = in.v[k];
			if (x->kind == CS_GOTO && x->label && !strcmp(x->label, "retry"))
				rfact(r, SPF_NOFAIL_LOOP, PA, x->line);
			if (x->kind == CS_IF && cx_mentions(x->e, "can_direct_reclaim") && if_exit(x))
				rfact(r, SPF_NOFAIL_NO_RECLAIM, PA, x->line);
		}
		free(in.v);
	}
}

/* the NOFAIL order warning, inside a nofail block: WARN_ON_ONCE(order > N)
 * or WARN_ON_ONCE_GFP(costly_order, ...) */
static void rec_nofail_warn(struct recog *r)
{
	struct slowpath_model *m = r->m;
	for (size_t i = 0; i < r->l.n; i++) {
		const struct cs *s = r->l.v[i];
		const struct cx *w = stmt_call(s, "WARN_ON_ONCE");
		if (!w)
			w = stmt_call(s, "WARN_ON_ONCE_GFP");
		const struct cs *encl = enclosing_if(s);
		if (!w || !w->nargs || !encl || !(cx_mentions(encl->e, "nofail") || cx_mentions(encl->e, "__GFP_NOFAIL")))
			continue;
		const struct cx *a = cx_strip(w->args[0]);
		int64_t v;
		if (a->kind == CX_BINARY && !strcmp(a->text, ">") && cx_is_ident(a->a, "order") &&
		    !eval_int(r->t, a->b, &v)) {
			m->nofail_warn_order = (int)v;
			rfact(r, SPF_NOFAIL_WARN, PA, s->line);
		} else if (cx_is_ident(a, "costly_order")) {
			m->nofail_warn_order = m->costly_order;
			rfact(r, SPF_NOFAIL_WARN, PA, s->line);
		}
	}
}

static void rec_retries(struct recog *r)
{
	const struct cs *rr = first_call(&r->l, "should_reclaim_retry", r->reclaim->tb, NULL);
	if (rr)
		rfact(r, SPF_RECLAIM_RETRY, PA, rr->line);
	const struct cs *cr = first_call(&r->l, "should_compact_retry", r->reclaim->tb, NULL);
	if (cr)
		rfact(r, SPF_COMPACT_RETRY, PA, cr->line);
}

/* the OOM call, and the exits of __alloc_pages_may_oom() for costly and
 * RETRY_MAYFAIL requests */
static void rec_oom(struct recog *r)
{
	struct slowpath_model *m = r->m;
	const struct cs *oom = first_call(&r->l, "__alloc_pages_may_oom", 0, NULL);
	if (!oom)
		return;
	rfact(r, SPF_OOM, PA, oom->line);
	struct cfunc *mo = csrc_function(r->pa, "__alloc_pages_may_oom");
	if (!mo)
		return;
	struct stmts ol = { 0 };
	cs_walk(csrc_body(r->pa, mo), collect_stmt, &ol);
	for (size_t i = 0; i < ol.n; i++) {
		const struct cs *s = ol.v[i];
		if (s->kind != CS_IF || !if_exit(s))
			continue;
		if (cx_mentions(s->e, "PAGE_ALLOC_COSTLY_ORDER") && !m->facts[SPF_OOM_NOT_COSTLY].present)
			rfact(r, SPF_OOM_NOT_COSTLY, PA, s->line);
		if (cx_mentions(s->e, "__GFP_RETRY_MAYFAIL") && !m->facts[SPF_OOM_NOT_MAYFAIL].present)
			rfact(r, SPF_OOM_NOT_MAYFAIL, PA, s->line);
	}
	free(ol.v);
}

/* drain_all_pages() in __alloc_pages_direct_reclaim() */
static void rec_drain(struct recog *r)
{
	struct cfunc *dr = csrc_function(r->pa, "__alloc_pages_direct_reclaim");
	if (!dr)
		return;
	struct stmts dl = { 0 };
	cs_walk(csrc_body(r->pa, dr), collect_stmt, &dl);
	const struct cs *d = first_call(&dl, "drain_all_pages", 0, NULL);
	if (d)
		rfact(r, SPF_DRAIN, PA, d->line);
	free(dl.v);
}

/* Every fact of SP_FACT_LIST has its recognizer, run in this order: the
 * later of two rows that find how costly NORETRY requests skip compaction
 * wins, as the later statement of the tree does. */
static const struct recognizer {
	uint32_t facts; /* the facts it reads, FACT() of SP_FACT_LIST */
	void (*run)(struct recog *r);
} recognizers[] = {
	{ FACT(RECLAIM) | FACT(ALLOC_FLAGS_CALL) | FACT(ALLOC_FLAGS), rec_anchors },
	{ FACT(COMPACT_AFTER), rec_compact_after },
	{ FACT(COMPACT_FIRST) | FACT(CN_SKIP), rec_compact_first },
	{ FACT(CAN_DIRECT_RECLAIM) | FACT(CN_SKIP), rec_can_direct_reclaim },
	{ FACT(CAN_COMPACT) | FACT(COMPACTION_IO), rec_can_compact },
	{ FACT(KSWAPD), rec_kswapd },
	{ FACT(COSTLY_NORETRY) | FACT(CN_BAIL_SKIPPED) | FACT(CN_BAIL_THISNODE) | FACT(CN_ASYNC) | FACT(CN_SKIP),
	  rec_costly_noretry },
	{ FACT(RECLAIM_NEEDS_DR), rec_needs_direct_reclaim },
	{ FACT(NORETRY_EXIT) | FACT(COSTLY_EXIT), rec_exits },
	{ FACT(NOFAIL_LOOP) | FACT(NOFAIL_NO_RECLAIM), rec_nofail_block },
	{ FACT(NOFAIL_WARN), rec_nofail_warn },
	{ FACT(RECLAIM_RETRY) | FACT(COMPACT_RETRY), rec_retries },
	{ FACT(OOM) | FACT(OOM_NOT_COSTLY) | FACT(OOM_NOT_MAYFAIL), rec_oom },
	{ FACT(DRAIN), rec_drain },
};

/* Recognize __alloc_pages_slowpath(); NULL on success, else the reason. */
static const char *recognize(struct slowpath_model *m, struct slowpath_tree *t)
{
	struct csrc *pa = t->f[TF_PAGE_ALLOC];
	if (!pa)
		return "the tree has no mm/page_alloc.c";
	struct cfunc *fn = csrc_function(pa, "__alloc_pages_slowpath");
	if (!fn)
		return "mm/page_alloc.c has no __alloc_pages_slowpath()";
	struct cs *body = csrc_body(pa, fn);
	struct recog r = { .m = m, .t = t, .pa = pa };
	cs_walk(body, collect_stmt, &r.l);
	cs_walk(body, collect_decl, &r.lv);
	const char *why = find_anchors(&r);
	if (!why) {
		uint32_t all = 0;
		for (size_t i = 0; i < sizeof(recognizers) / sizeof(recognizers[0]); i++) {
			r.may = recognizers[i].facts;
			recognizers[i].run(&r);
			all |= recognizers[i].facts;
		}
		assert(all == (1u << SPF__COUNT) - 1); /* a fact without a recognizer */
		read_aliases(m, pa);
	}
	free(r.l.v);
	free(r.lv.d);
	return why;
}

static void tree_free(struct slowpath_tree *t)
{
	if (!t)
		return;
	for (int i = 0; i < TF__COUNT; i++)
		csrc_free(t->f[i]);
	kconf_release(&t->cfg);
	free(t);
}

int slowpath_model_load(const char *tree, const char *choice, struct slowpath_model **out)
{
	if (choice && strcmp(choice, "auto")) {
		bool ok = false;
		for (size_t i = 0; builtins[i]; i++)
			ok |= !strcmp(builtins[i], choice);
		if (!ok)
			return err_set(GA_EINVAL, "unknown allocator model '%s' (auto, 6.1, 6.12, later)", choice);
	}
	struct slowpath_model *m = xcalloc(1, sizeof(*m));
	m->costly_order = 3;
	m->nofail_warn_order = 1;
	m->compaction = true;
	m->first_compact_prio = xstrdup("INIT_COMPACT_PRIORITY");
	m->after_compact_prio = xstrdup("DEF_COMPACT_PRIORITY");
	if (tree)
		m->tree = xstrdup(tree);
	struct slowpath_tree *t = xcalloc(1, sizeof(*t));
	m->t = t;
	int rc = kconf_load(&t->cfg, tree);
	if (rc) {
		slowpath_model_free(m);
		return rc;
	}
	m->config_source = xstrdup(t->cfg.source);
	m->compaction = kconf_enabled(&t->cfg, "CONFIG_COMPACTION");
	if (tree) {
		m->version = tree_version(tree);
		size_t nm = 0;
		/* headers first so the page_alloc.c defines win on lookup */
		static const int order[] = { TF_GFP_TYPES, TF_GFP, TF_MMZONE, TF_INTERNAL, TF_PAGE_ALLOC };
		for (size_t k = 0; k < TF__COUNT; k++) {
			int i = order[k];
			char *p = xasprintf("%s/%s", tree, tree_files[i]);
			if (is_file(p) && !csrc_parse(p, NULL, 0, &t->cfg, &t->f[i]))
				t->mfiles[nm++] = t->f[i];
			free(p);
		}
		t->macros.files = t->mfiles;
		t->macros.nfiles = nm;
		read_values(m, t);
	}
	const char *why = NULL;
	bool forced = choice && strcmp(choice, "auto");
	if (!forced)
		why = tree ? recognize(m, t) : "no kernel tree given";
	if (forced || why) {
		const char *pick = forced ? choice : "6.12";
		if (!forced && m->version && strncmp(m->version, "6.", 2) == 0 && atoi(m->version + 2) < 12)
			pick = "6.1";
		if (!forced && m->version && m->version[0] < '6' && m->version[1] == '.')
			pick = "6.1";
		builtin(m, pick);
		m->reason = forced ? xasprintf("selected with --allocator-model %s", choice) : xstrdup(why);
		m->assumed = !forced && !tree;
		if (forced && t->f[TF_PAGE_ALLOC])
			read_aliases(m, t->f[TF_PAGE_ALLOC]);
		if (!m->naliases)
			builtin(m, pick); /* keep the built-in aliases */
	} else
		m->name = xstrdup("tree");
	*out = m;
	return 0;
}

void slowpath_model_free(struct slowpath_model *m)
{
	if (!m)
		return;
	free(m->name);
	free(m->tree);
	free(m->reason);
	free(m->version);
	free(m->config_source);
	free(m->first_compact_prio);
	free(m->after_compact_prio);
	for (size_t i = 0; i < m->naliases; i++) {
		free(m->aliases[i].gfp);
		free(m->aliases[i].alloc);
	}
	free(m->aliases);
	free(m->gfp_source);
	for (size_t i = 0; i < m->nalloc; i++)
		free(m->alloc[i].name);
	free(m->alloc);
	free(m->alloc_source);
	tree_free(m->t);
	free(m);
}

static const char *const fact_desc[] = {
#define X(n, d) d,
	SP_FACT_LIST(X)
#undef X
};

char *slowpath_model_describe(const struct slowpath_model *m)
{
	if (!strcmp(m->name, "tree"))
		return xasprintf("read from %s/%s%s%s%s", m->tree, PA, m->version ? " (Linux " : "",
				 m->version ? m->version : "", m->version ? ")" : "");
	return xasprintf("built-in %s (%s)", m->name, m->reason ? m->reason : "");
}

void slowpath_model_print(const struct slowpath_model *m, FILE *f)
{
	char *d = slowpath_model_describe(m);
	fprintf(f, "allocator model: %s\n", d);
	free(d);
	fprintf(f, "  configuration: %s (CONFIG_COMPACTION %s)\n", m->config_source ? m->config_source : "none",
		m->compaction ? "on" : "off");
	for (int i = 0; i < SPF__COUNT; i++) {
		const struct sp_fact *x = &m->facts[i];
		if (!x->present)
			continue;
		if (x->file)
			fprintf(f, "  %s: %s:%d\n", fact_desc[i], x->file, x->line);
		else
			fprintf(f, "  %s: built-in\n", fact_desc[i]);
	}
	for (size_t i = 0; i < m->naliases; i++) {
		if (m->aliases[i].line)
			fprintf(f, "  alias %s == %s (BUILD_BUG_ON): %s:%d\n", m->aliases[i].gfp, m->aliases[i].alloc,
				PA, m->aliases[i].line);
		else
			fprintf(f, "  alias %s == %s: built-in\n", m->aliases[i].gfp, m->aliases[i].alloc);
	}
}

/* ---- simulation ---- */

static enum sp_tri tri_of(struct gfp_bits g, enum gfp_flag f)
{
	uint64_t b = (uint64_t)1 << f;
	if (g.must & b)
		return SP_YES;
	return g.may & b ? SP_MAYBE : SP_NO;
}

static enum sp_tri t_and(enum sp_tri a, enum sp_tri b)
{
	return a < b ? a : b;
}

static enum sp_tri t_or(enum sp_tri a, enum sp_tri b)
{
	return a > b ? a : b;
}

static enum sp_tri t_not(enum sp_tri a)
{
	return (enum sp_tri)(SP_YES - a);
}

static void step(struct sp_outcome *o, const struct slowpath_model *m, enum sp_fact_id id,
		 enum sp_tri when, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void step(struct sp_outcome *o, const struct slowpath_model *m, enum sp_fact_id id,
		 enum sp_tri when, const char *fmt, ...)
{
	if (when == SP_NO)
		return;
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	static const char *const conditional[] = { "if ", "unless ", "with ", "without ", "otherwise ", "then ", NULL };
	bool cond = false;
	for (size_t i = 0; conditional[i]; i++)
		cond |= !strncmp(sb.buf, conditional[i], strlen(conditional[i]));
	if (when == SP_MAYBE && !cond) {
		struct strbuf w = STRBUF_INIT;
		strbuf_adds(&w, "maybe: ");
		strbuf_adds(&w, sb.buf);
		strbuf_release(&sb);
		sb = w;
	}
	ALLOC_GROW(o->steps, o->nsteps + 1, o->alloc);
	o->steps[o->nsteps++] = (struct sp_step){ id, when, strbuf_detach(&sb) };
}

static const char *prio_word(const char *prio)
{
	if (!prio)
		return "?";
	if (strstr(prio, "INIT_COMPACT_PRIORITY") || strstr(prio, "ASYNC"))
		return "async";
	if (strstr(prio, "DEF_COMPACT_PRIORITY") || strstr(prio, "SYNC_LIGHT"))
		return "sync-light";
	if (strstr(prio, "compact_priority"))
		return "sync-light";
	return prio;
}

/* One request's way through the slow path: the flags it carries as
 * tri-states, and what the steps so far decided. */
struct sim {
	const struct slowpath_model *m;
	struct sp_outcome *o;
	int order;
	bool costly;
	bool unknown_mask;   /* the mask may be anything: "maybe" flags stay quiet */
	enum sp_tri dr, nr, mf, nf, tn, ks, io, memalloc;
	enum sp_tri compact_ok;
	enum sp_tri cn;      /* a costly __GFP_NORETRY request */
	enum sp_tri skip;    /* ... that the tree makes skip compaction */
	enum sp_tri dr_eff;  /* direct reclaim once that skip is applied */
	enum sp_tri alive;   /* the request is still in the slow path */
	enum sp_tri c1;      /* compaction before reclaim */
	bool costly_async;   /* costly __GFP_NORETRY keeps async compaction */
};

/* The flags, and whether the tree makes this request skip direct
 * compaction (and with it, reclaim) before anything runs. */
static void sim_init(struct sim *S, const struct slowpath_model *m, struct gfp_bits g, int order,
		     struct sp_outcome *o)
{
	const struct sp_fact *F = m->facts;
	*S = (struct sim){ .m = m, .o = o, .order = order };
	S->costly = order > m->costly_order;
	S->unknown_mask = g.may == GFP_ALL_BITS;
	S->dr = tri_of(g, GFPF_DIRECT_RECLAIM);
	S->nr = tri_of(g, GFPF_NORETRY);
	S->mf = tri_of(g, GFPF_RETRY_MAYFAIL);
	S->nf = tri_of(g, GFPF_NOFAIL);
	S->tn = tri_of(g, GFPF_THISNODE);
	S->ks = tri_of(g, GFPF_KSWAPD_RECLAIM);
	S->io = tri_of(g, GFPF_IO);
	S->memalloc = tri_of(g, GFPF_MEMALLOC);
	S->alive = SP_YES;
	S->compact_ok = m->compaction ? SP_YES : SP_NO;
	if (F[SPF_COMPACTION_IO].present)
		S->compact_ok = t_and(S->compact_ok, S->io);
	S->cn = S->costly ? S->nr : SP_NO;
	/* an early bail before compaction (CN_SKIP_BAIL recorded before c1)
	 * skips as the mask and flag forms do; a bail after it does not */
	bool bail_before = m->cn_skip == CN_SKIP_BAIL && !F[SPF_COSTLY_NORETRY].present;
	S->skip = SP_NO;
	if ((m->cn_skip != CN_SKIP_NONE && m->cn_skip != CN_SKIP_BAIL) || bail_before) {
		S->skip = S->cn;
		if (m->cn_skip_exempt_thisnode)
			S->skip = t_and(S->skip, t_not(S->tn));
		if (m->cn_skip_exempt_nofail)
			S->skip = t_and(S->skip, t_not(S->nf));
	}
	S->dr_eff = S->dr;
	if (m->cn_skip == CN_SKIP_MASK || m->cn_skip == CN_SKIP_FLAG || bail_before)
		S->dr_eff = t_and(S->dr, t_not(S->skip));
}

/* kswapd, the costly __GFP_NORETRY skip, and no direct reclaim at all */
static void sim_entry(struct sim *S)
{
	const struct slowpath_model *m = S->m;
	struct sp_outcome *o = S->o;
	o->kswapd = m->facts[SPF_KSWAPD].present ? S->ks : SP_NO;
	step(o, m, SPF_KSWAPD, o->kswapd, "wakes kswapd (ALLOC_KSWAPD from __GFP_KSWAPD_RECLAIM)");
	if (S->skip != SP_NO && m->cn_skip != CN_SKIP_GUARD) {
		const char *how = m->cn_skip == CN_SKIP_MASK ? "direct reclaim is cleared from the mask" :
				  m->cn_skip == CN_SKIP_FLAG ? "can_direct_reclaim is forced off (the mask keeps __GFP_DIRECT_RECLAIM)" :
				  "the slow path gives up";
		step(o, m, SPF_CN_SKIP, S->skip, "%s: costly __GFP_NORETRY skips direct compaction and reclaim", how);
	}
	if (S->dr_eff == SP_NO) {
		step(o, m, SPF_RECLAIM_NEEDS_DR, SP_YES,
		     "no direct reclaim: fails after the freelist attempt, no compaction, no reclaim");
		o->fails = S->nf == SP_YES ? SP_MAYBE : SP_YES;
		S->alive = SP_NO;
	}
}

/* After the first compaction, a costly __GFP_NORETRY request gives up
 * when it was skipped or deferred, or keeps async compaction. */
static void sim_costly_noretry(struct sim *S)
{
	const struct slowpath_model *m = S->m;
	const struct sp_fact *F = m->facts;
	struct sp_outcome *o = S->o;
	enum sp_tri w = t_and(S->c1, S->cn);
	if (F[SPF_CN_BAIL_SKIPPED].present)
		step(o, m, SPF_CN_BAIL_SKIPPED, w, "%sgives up if that compaction was skipped or deferred",
		     S->cn == SP_YES ? "then " : "with __GFP_NORETRY: ");
	if (F[SPF_CN_BAIL_THISNODE].present && S->tn != SP_NO && (S->tn == SP_YES || !S->unknown_mask))
		step(o, m, SPF_CN_BAIL_THISNODE, t_and(w, S->tn), "with __GFP_THISNODE: gives up after it");
	if (m->cn_skip == CN_SKIP_BAIL) {
		step(o, m, SPF_CN_SKIP, w, "gives up after that compaction (costly __GFP_NORETRY)");
		if (w == SP_YES)
			S->alive = SP_NO;
	}
	if (w == SP_YES && S->tn == SP_YES && F[SPF_CN_BAIL_THISNODE].present)
		S->alive = SP_NO;
	if (F[SPF_CN_ASYNC].present && S->alive != SP_NO) {
		step(o, m, SPF_CN_ASYNC, w, "%skeeps async compaction for the rest",
		     S->cn == SP_YES ? "otherwise " : "with __GFP_NORETRY: ");
		S->costly_async = S->cn == SP_YES;
	}
}

/* direct compaction before reclaim */
static void sim_compact_first(struct sim *S)
{
	const struct slowpath_model *m = S->m;
	const struct sp_fact *F = m->facts;
	if (S->alive == SP_NO || !F[SPF_COMPACT_FIRST].present || S->order <= 0)
		return;
	enum sp_tri c1 = t_and(S->dr_eff, S->compact_ok);
	c1 = t_and(c1, t_not(S->memalloc));
	if (m->cn_skip == CN_SKIP_GUARD)
		c1 = t_and(c1, t_not(S->skip));
	if (!S->costly && c1 != SP_NO)
		c1 = SP_MAYBE; /* non-movable high orders only */
	if (S->memalloc == SP_MAYBE && c1 == SP_YES)
		c1 = SP_MAYBE;
	S->c1 = c1;
	step(S->o, m, SPF_COMPACT_FIRST, c1, "direct compaction (%s, %s) before reclaim%s",
	     prio_word(m->first_compact_prio), m->first_compact_prio,
	     S->costly ? "" : ", for non-movable requests");
	S->o->compacts = t_or(S->o->compacts, c1);
	if (c1 != SP_NO && S->costly && F[SPF_COSTLY_NORETRY].present && S->cn != SP_NO)
		sim_costly_noretry(S);
}

/* direct reclaim, the drain, compaction after it, the __GFP_NORETRY exit */
static void sim_reclaim(struct sim *S)
{
	const struct slowpath_model *m = S->m;
	const struct sp_fact *F = m->facts;
	struct sp_outcome *o = S->o;
	if (S->alive == SP_NO)
		return;
	if (S->dr_eff == SP_MAYBE && F[SPF_RECLAIM_NEEDS_DR].present)
		step(o, m, SPF_RECLAIM_NEEDS_DR, SP_MAYBE, "without __GFP_DIRECT_RECLAIM: gives up here");
	enum sp_tri r = t_and(S->dr_eff, S->alive);
	step(o, m, SPF_RECLAIM, r, "direct reclaim");
	o->reclaims = r;
	if (F[SPF_DRAIN].present)
		step(o, m, SPF_DRAIN, r, "drains the per-cpu lists of all CPUs if the attempt after reclaim fails");
	if (F[SPF_COMPACT_AFTER].present && S->order > 0) {
		enum sp_tri c2 = t_and(r, S->compact_ok);
		const char *pw = S->costly_async ? "async" : prio_word(m->after_compact_prio);
		step(o, m, SPF_COMPACT_AFTER, c2, "direct compaction (%s) after reclaim", pw);
		o->compacts = t_or(o->compacts, c2);
	}
	if (F[SPF_NORETRY_EXIT].present && S->nr != SP_NO) {
		step(o, m, SPF_NORETRY_EXIT, S->nr, "%s",
		     S->nr == SP_YES ? "then fails: __GFP_NORETRY, no retries" :
		     "with __GFP_NORETRY: fails here, no retries");
		if (S->nr == SP_YES)
			S->alive = SP_NO;
	}
}

/* the costly exit, then the retries and the OOM killer */
static void sim_retry(struct sim *S)
{
	const struct slowpath_model *m = S->m;
	const struct sp_fact *F = m->facts;
	struct sp_outcome *o = S->o;
	if (S->alive != SP_NO && S->costly && F[SPF_COSTLY_EXIT].present) {
		enum sp_tri stop = t_or(t_not(S->compact_ok), t_not(S->mf));
		step(o, m, SPF_COSTLY_EXIT, stop, "%sfails: costly order without __GFP_RETRY_MAYFAIL%s",
		     stop == SP_YES ? "then " : "", m->compaction ? "" : " (no compaction)");
		if (stop == SP_YES)
			S->alive = SP_NO;
	}
	if (S->alive == SP_NO)
		return;
	enum sp_tri rr = t_and(S->alive, S->dr_eff);
	if (F[SPF_RECLAIM_RETRY].present)
		step(o, m, SPF_RECLAIM_RETRY, rr, "retries reclaim while it makes progress (no-progress loops bounded)");
	if (F[SPF_COMPACT_RETRY].present && S->order > 0)
		step(o, m, SPF_COMPACT_RETRY, t_and(rr, S->compact_ok),
		     "retries compaction with rising priority (up to sync)");
	o->retries = rr;
	if (!F[SPF_OOM].present)
		return;
	enum sp_tri oom = rr;
	if (S->costly && F[SPF_OOM_NOT_COSTLY].present)
		oom = SP_NO;
	if (F[SPF_OOM_NOT_MAYFAIL].present)
		oom = t_and(oom, t_not(t_or(S->mf, S->tn)));
	if (oom == SP_NO)
		step(o, m, S->costly ? SPF_OOM_NOT_COSTLY : SPF_OOM_NOT_MAYFAIL, SP_YES,
		     "no OOM killer%s", S->costly ? " for costly orders" : " (__GFP_RETRY_MAYFAIL)");
	else
		step(o, m, SPF_OOM, oom, "OOM killer may run, and the request retries while it makes progress");
	o->oom = oom;
}

/* __GFP_NOFAIL: with a mask that may be anything, flags that only "may"
 * be set would add a line each; NOFAIL is reported when the mask carries it */
static void sim_nofail(struct sim *S)
{
	const struct slowpath_model *m = S->m;
	const struct sp_fact *F = m->facts;
	struct sp_outcome *o = S->o;
	enum sp_tri nf = S->nf;
	if (nf == SP_YES || (nf == SP_MAYBE && !S->unknown_mask)) {
		if (F[SPF_NOFAIL_WARN].present && S->order > m->nofail_warn_order)
			step(o, m, SPF_NOFAIL_WARN, nf, "__GFP_NOFAIL above order %d warns", m->nofail_warn_order);
		o->nofail_warns = nf == SP_YES && S->order > m->nofail_warn_order;
		if (F[SPF_NOFAIL_NO_RECLAIM].present && S->dr != SP_YES)
			step(o, m, SPF_NOFAIL_NO_RECLAIM, t_and(nf, t_not(S->dr)),
			     "__GFP_NOFAIL without direct reclaim fails anyway (and warns)");
		if (F[SPF_NOFAIL_LOOP].present)
			step(o, m, SPF_NOFAIL_LOOP, t_and(nf, S->dr), "__GFP_NOFAIL: never fails, loops back to retry");
	}
	if (!o->fails)
		o->fails = nf == SP_YES && S->dr == SP_YES ? SP_NO : SP_MAYBE;
}

/* the short form, for grouping orders: what the request costs */
static char *sim_summary(const struct sim *S)
{
	const struct slowpath_model *m = S->m;
	const struct sp_outcome *o = S->o;
	struct strbuf sb = STRBUF_INIT;
	if (S->dr_eff == SP_NO) {
		strbuf_adds(&sb, "no direct reclaim or compaction");
		if (S->skip == SP_YES)
			strbuf_adds(&sb, " (costly __GFP_NORETRY)");
	} else {
		if (S->c1 != SP_NO)
			strbuf_addf(&sb, "%s%s compaction first", S->c1 == SP_MAYBE ? "maybe " : "",
				    prio_word(m->first_compact_prio));
		if (S->c1 != SP_NO && S->costly && S->cn == SP_YES && m->facts[SPF_CN_BAIL_SKIPPED].present)
			strbuf_adds(&sb, " (gives up if skipped or deferred)");
		if (o->reclaims != SP_NO)
			strbuf_addf(&sb, "%sdirect reclaim%s", sb.len ? ", then " : "",
				    o->reclaims == SP_MAYBE ? " (maybe)" : "");
		if (o->compacts != SP_NO && m->facts[SPF_COMPACT_AFTER].present && S->order > 0 &&
		    o->reclaims != SP_NO)
			strbuf_addf(&sb, " + %s compaction", S->costly_async ? "async" : prio_word(m->after_compact_prio));
		if (S->order == 0 && !sb.len)
			strbuf_adds(&sb, "direct reclaim");
		if (o->retries == SP_NO && o->reclaims != SP_NO)
			strbuf_adds(&sb, " once");
		else if (o->retries != SP_NO)
			strbuf_addf(&sb, ", retried%s", o->retries == SP_MAYBE ? " (unless NORETRY)" : "");
		if (o->oom != SP_NO)
			strbuf_addf(&sb, ", OOM killer %s", o->oom == SP_YES ? "possible" : "maybe");
		else if (o->retries != SP_NO)
			strbuf_adds(&sb, ", no OOM killer");
	}
	if (S->nf == SP_YES)
		strbuf_addf(&sb, "; __GFP_NOFAIL loops%s", o->nofail_warns ? " and warns" : "");
	return strbuf_detach(&sb);
}

void slowpath_simulate(const struct slowpath_model *m, struct gfp_bits g, int order, struct sp_outcome *o)
{
	struct sim S;
	memset(o, 0, sizeof(*o));
	sim_init(&S, m, g, order, o);
	sim_entry(&S);
	sim_compact_first(&S);
	sim_reclaim(&S);
	sim_retry(&S);
	sim_nofail(&S);
	o->summary = sim_summary(&S);
}

void sp_outcome_release(struct sp_outcome *o)
{
	for (size_t i = 0; i < o->nsteps; i++)
		free(o->steps[i].text);
	free(o->steps);
	free(o->summary);
	memset(o, 0, sizeof(*o));
}

bool slowpath_costly_noretry_compacts(const struct slowpath_model *m, const struct sp_fact **where)
{
	struct gfp_bits g = gfp_const(GFPB(DIRECT_RECLAIM) | GFPB(KSWAPD_RECLAIM) | GFPB(IO) | GFPB(FS) |
				      GFPB(NORETRY) | GFPB(NOWARN));
	struct sp_outcome o;
	slowpath_simulate(m, g, m->costly_order + 1, &o);
	bool yes = o.compacts != SP_NO;
	if (where) {
		*where = NULL;
		for (size_t i = 0; i < o.nsteps; i++)
			if (o.steps[i].fact == SPF_COMPACT_FIRST || o.steps[i].fact == SPF_COMPACT_AFTER) {
				*where = &m->facts[o.steps[i].fact];
				break;
			}
		if (!yes && m->facts[SPF_CN_SKIP].present)
			*where = &m->facts[SPF_CN_SKIP];
	}
	sp_outcome_release(&o);
	return yes;
}

bool slowpath_is_alias(const struct slowpath_model *m, const char *gfp_name, const char *alloc_name)
{
	for (size_t i = 0; i < m->naliases; i++)
		if (!strcmp(m->aliases[i].gfp, gfp_name) && !strcmp(m->aliases[i].alloc, alloc_name))
			return true;
	return false;
}

/* ---- alloc_flags: interpreting gfp_to_alloc_flags() ---- */

/* A value with each bit known 1, known 0, or unknown. */
struct tv {
	uint64_t one, zero;
};

static struct tv tv_const(uint64_t v) { return (struct tv){ v, ~v }; }
static struct tv tv_unknown(void) { return (struct tv){ 0, 0 }; }
static struct tv tv_join(struct tv a, struct tv b) { return (struct tv){ a.one & b.one, a.zero & b.zero }; }
static bool tv_known(struct tv a) { return (a.one | a.zero) == ~(uint64_t)0; }
static enum sp_tri tv_truth(struct tv a)
{
	if (a.one)
		return SP_YES;
	return a.zero == ~(uint64_t)0 ? SP_NO : SP_MAYBE;
}
static struct tv tv_bool(enum sp_tri t)
{
	return t == SP_YES ? tv_const(1) : t == SP_NO ? tv_const(0) : (struct tv){ 0, ~(uint64_t)1 };
}

struct var {
	const char *name;
	struct tv v;
	int set_line[64];
	const char *set_file;
};

struct env {
	struct var v[32];
	int n;
	bool returned;
	struct tv ret;
	bool has_ret;
	int ret_line[64];
};

struct interp {
	const struct slowpath_model *m;
	struct slowpath_tree *t;
	int depth;
	bool failed;
	const char *why;
	bool call_known;        /* the last call was interpreted ... */
	int call_lines[64];     /* ... and these lines set its returned bits */
};

static struct var *env_var(struct env *e, const char *name)
{
	for (int i = 0; i < e->n; i++)
		if (!strcmp(e->v[i].name, name))
			return &e->v[i];
	return NULL;
}

static struct var *env_def(struct env *e, const char *name)
{
	struct var *v = env_var(e, name);
	if (v)
		return v;
	if (e->n >= 32)
		return NULL;
	v = &e->v[e->n++];
	memset(v, 0, sizeof(*v));
	v->name = name;
	v->v = tv_unknown();
	return v;
}

static void env_join(struct env *a, const struct env *b)
{
	/* a := join(a, b) over the variables both know */
	for (int i = 0; i < a->n; i++) {
		const struct var *o = NULL;
		for (int k = 0; k < b->n; k++)
			if (!strcmp(b->v[k].name, a->v[i].name))
				o = &b->v[k];
		if (!o) {
			a->v[i].v = tv_unknown();
			continue;
		}
		a->v[i].v = tv_join(a->v[i].v, o->v);
		for (int k = 0; k < 64; k++)
			if (!a->v[i].set_line[k])
				a->v[i].set_line[k] = o->set_line[k];
	}
}

static struct tv ieval(struct interp *in, struct env *e, const struct cx *x, const char *file);
static void iexec(struct interp *in, struct env *e, const struct cs *s, const char *file);

static struct csrc *find_func(struct interp *in, const char *name, struct cfunc **out, const char **file)
{
	static const int where[] = { TF_PAGE_ALLOC, TF_GFP };
	for (size_t i = 0; i < 2; i++) {
		struct csrc *c = in->t->f[where[i]];
		struct cfunc *f = c ? csrc_function(c, name) : NULL;
		if (f) {
			*out = f;
			*file = tree_files[where[i]];
			return c;
		}
	}
	return NULL;
}

static struct tv icall(struct interp *in, struct env *e, const struct cx *x, const char *file)
{
	const char *name = cx_callee(x);
	if (!name)
		return tv_unknown();
	if (!strcmp(name, "likely") || !strcmp(name, "unlikely"))
		return x->nargs == 1 ? ieval(in, e, x->args[0], file) : tv_unknown();
	if (!strncmp(name, "BUILD_BUG_ON", 12) || !strncmp(name, "VM_WARN_ON", 10) || !strncmp(name, "VM_BUG_ON", 9))
		return tv_const(0);
	struct cfunc *f;
	const char *ffile;
	struct csrc *c = find_func(in, name, &f, &ffile);
	in->call_known = false;
	if (!c || in->depth > 3) {
		/* unknown calls are runtime facts: their arguments still evaluate */
		for (size_t i = 0; i < x->nargs; i++)
			ieval(in, e, x->args[i], file);
		return tv_unknown();
	}
	struct env callee;
	memset(&callee, 0, sizeof(callee));
	for (size_t i = 0; i < f->nparams && i < x->nargs; i++) {
		struct var *v = env_def(&callee, f->params[i].name);
		if (!v)
			break;
		v->v = ieval(in, e, x->args[i], file);
		/* keep where the caller's value got its bits */
		const struct cx *a = cx_strip(x->args[i]);
		if (a && a->kind == CX_IDENT) {
			struct var *src = env_var(e, a->text);
			if (src) {
				memcpy(v->set_line, src->set_line, sizeof(v->set_line));
				v->set_file = src->set_file;
			}
		}
	}
	in->depth++;
	iexec(in, &callee, csrc_body(c, f), ffile);
	in->depth--;
	if (!callee.has_ret)
		return tv_unknown();
	in->call_known = true;
	memcpy(in->call_lines, callee.ret_line, sizeof(in->call_lines));
	return callee.ret;
}

static struct tv ieval(struct interp *in, struct env *e, const struct cx *x, const char *file)
{
	int64_t v;
	if (!x)
		return tv_unknown();
	switch (x->kind) {
	case CX_NUM:
		return ctok_number(x->text, &v) ? tv_const((uint64_t)v) : tv_unknown();
	case CX_IDENT: {
		struct var *var = env_var(e, x->text);
		if (var)
			return var->v;
		if (!strcmp(x->text, "true"))
			return tv_const(1);
		if (!strcmp(x->text, "false"))
			return tv_const(0);
		if (!cmacro_eval(&in->t->macros, x->text, &v))
			return tv_const((uint64_t)v);
		return tv_unknown();
	}
	case CX_CAST:
		return ieval(in, e, x->a, file);
	case CX_CALL:
		return icall(in, e, x, file);
	case CX_UNARY: {
		struct tv a = ieval(in, e, x->a, file);
		if (!strcmp(x->text, "!"))
			return tv_bool(t_not(tv_truth(a)));
		if (!strcmp(x->text, "~"))
			return (struct tv){ a.zero, a.one };
		if (!strcmp(x->text, "-") && tv_known(a))
			return tv_const(-a.one);
		return tv_unknown();
	}
	case CX_BINARY: {
		const char *op = x->text;
		struct tv a = ieval(in, e, x->a, file), b = ieval(in, e, x->b, file);
		if (!strcmp(op, "|"))
			return (struct tv){ a.one | b.one, a.zero & b.zero };
		if (!strcmp(op, "&"))
			return (struct tv){ a.one & b.one, a.zero | b.zero };
		if (!strcmp(op, "^") && tv_known(a) && tv_known(b))
			return tv_const(a.one ^ b.one);
		if (!strcmp(op, "&&"))
			return tv_bool(t_and(tv_truth(a), tv_truth(b)));
		if (!strcmp(op, "||"))
			return tv_bool(t_or(tv_truth(a), tv_truth(b)));
		if (!tv_known(a) || !tv_known(b)) {
			/* equality against a constant can still be decided when known bits differ */
			if ((!strcmp(op, "==") || !strcmp(op, "!=")) &&
			    ((a.one & b.zero) || (a.zero & b.one)))
				return tv_const(op[0] == '!');
			return tv_unknown();
		}
		int64_t l = (int64_t)a.one, r = (int64_t)b.one, res;
		if (!strcmp(op, "==")) res = l == r;
		else if (!strcmp(op, "!=")) res = l != r;
		else if (!strcmp(op, "<")) res = l < r;
		else if (!strcmp(op, ">")) res = l > r;
		else if (!strcmp(op, "<=")) res = l <= r;
		else if (!strcmp(op, ">=")) res = l >= r;
		else if (!strcmp(op, "+")) res = l + r;
		else if (!strcmp(op, "-")) res = l - r;
		else if (!strcmp(op, "<<") && r >= 0 && r < 64) res = (int64_t)((uint64_t)l << r);
		else if (!strcmp(op, ">>") && r >= 0 && r < 64) res = (int64_t)((uint64_t)l >> r);
		else return tv_unknown();
		return tv_const((uint64_t)res);
	}
	case CX_ASSIGN: {
		const struct cx *lhs = cx_strip(x->a);
		struct tv r = ieval(in, e, x->b, file);
		if (!lhs || lhs->kind != CX_IDENT) {
			in->failed = true;
			in->why = "assignment to something other than a local";
			return r;
		}
		struct var *var = env_def(e, lhs->text);
		if (!var)
			return r;
		struct tv old = var->v, nv = r;
		if (!strcmp(x->text, "|="))
			nv = (struct tv){ old.one | r.one, old.zero & r.zero };
		else if (!strcmp(x->text, "&="))
			nv = (struct tv){ old.one & r.one, old.zero | r.zero };
		else if (strcmp(x->text, "="))
			nv = tv_unknown();
		/* remember where each bit could become set */
		const struct cx *rc = cx_strip(x->b);
		bool assign = !strcmp(x->text, "=");
		bool via_call = assign && rc && rc->kind == CX_CALL && in->call_known;
		struct var *src = assign && rc && rc->kind == CX_IDENT ? env_var(e, rc->text) : NULL;
		for (int k = 0; k < 64; k++) {
			uint64_t bit = (uint64_t)1 << k;
			if (nv.zero & bit)
				var->set_line[k] = 0;
			else if (via_call && in->call_lines[k])
				var->set_line[k] = in->call_lines[k];
			else if (src && src != var && src->set_line[k])
				var->set_line[k] = src->set_line[k];
			else if (assign || (old.zero & bit))
				var->set_line[k] = x->line;
		}
		var->set_file = file;
		var->v = nv;
		return nv;
	}
	case CX_COND: {
		enum sp_tri c = tv_truth(ieval(in, e, x->a, file));
		if (c == SP_YES)
			return ieval(in, e, x->b, file);
		if (c == SP_NO)
			return ieval(in, e, x->c, file);
		return tv_join(ieval(in, e, x->b, file), ieval(in, e, x->c, file));
	}
	default:
		return tv_unknown();
	}
}

static void iexec(struct interp *in, struct env *e, const struct cs *s, const char *file)
{
	if (!s || e->returned || in->failed)
		return;
	switch (s->kind) {
	case CS_BLOCK:
		for (size_t i = 0; i < s->nkids && !e->returned && !in->failed; i++)
			iexec(in, e, s->kids[i], file);
		return;
	case CS_DECL:
		for (size_t i = 0; i < s->ndecls; i++) {
			struct var *v = env_def(e, s->decls[i].name);
			if (!v)
				continue;
			if (s->decls[i].init) {
				struct tv val = ieval(in, e, s->decls[i].init, file);
				v->v = val;
				for (int k = 0; k < 64; k++)
					v->set_line[k] = (val.zero >> k) & 1 ? 0 : s->decls[i].line;
				v->set_file = file;
			}
		}
		return;
	case CS_EXPR:
		ieval(in, e, s->e, file);
		return;
	case CS_RETURN: {
		struct tv r = ieval(in, e, s->e, file);
		const struct cx *rx = cx_strip(s->e);
		struct var *rv = rx && rx->kind == CX_IDENT ? env_var(e, rx->text) : NULL;
		for (int k = 0; k < 64; k++)
			if (!e->ret_line[k] && rv)
				e->ret_line[k] = rv->set_line[k];
		e->ret = e->has_ret ? tv_join(e->ret, r) : r;
		e->has_ret = true;
		e->returned = true;
		return;
	}
	case CS_IF: {
		enum sp_tri c = tv_truth(ieval(in, e, s->e, file));
		if (c == SP_YES) {
			iexec(in, e, s->body, file);
			return;
		}
		if (c == SP_NO) {
			iexec(in, e, s->els, file);
			return;
		}
		struct env *b = xmalloc(sizeof(*b));
		*b = *e;
		iexec(in, e, s->body, file);
		iexec(in, b, s->els, file);
		if (e->returned && !b->returned) {
			struct tv ret = e->ret;
			bool has = e->has_ret;
			int rl[64];
			memcpy(rl, e->ret_line, sizeof(rl));
			*e = *b;
			e->ret = b->has_ret ? tv_join(b->ret, ret) : ret;
			e->has_ret = has || b->has_ret;
			for (int k = 0; k < 64; k++)
				if (!e->ret_line[k])
					e->ret_line[k] = rl[k];
		} else if (!e->returned && b->returned) {
			e->ret = e->has_ret ? tv_join(e->ret, b->ret) : b->ret;
			e->has_ret = true;
			for (int k = 0; k < 64; k++)
				if (!e->ret_line[k])
					e->ret_line[k] = b->ret_line[k];
		} else if (e->returned && b->returned) {
			e->ret = tv_join(e->ret, b->ret);
			for (int k = 0; k < 64; k++)
				if (!e->ret_line[k])
					e->ret_line[k] = b->ret_line[k];
		} else
			env_join(e, b);
		free(b);
		return;
	}
	case CS_EMPTY:
	case CS_LABEL:
		return;
	default:
		in->failed = true;
		in->why = "loops, switches or gotos in gfp_to_alloc_flags()";
		return;
	}
}

static void flag_out(struct sp_flags *o, const char *name, enum sp_tri t, const char *file, int line)
{
	ALLOC_GROW(o->f, o->n + 1, o->alloc);
	o->f[o->n++] = (struct sp_flag_out){ xstrdup(name), t, file, line };
}

/* The derivation as 6.3..6.12 code has it, on canonical bits, when the tree
 * cannot be interpreted. */
static void builtin_flags(const struct slowpath_model *m, struct gfp_bits g, int order, struct sp_flags *o)
{
	enum sp_tri dr = tri_of(g, GFPF_DIRECT_RECLAIM), high = tri_of(g, GFPF_HIGH);
	enum sp_tri nomem = tri_of(g, GFPF_NOMEMALLOC), ks = tri_of(g, GFPF_KSWAPD_RECLAIM);
	enum sp_tri nonblock = t_and(t_not(dr), t_not(nomem));
	/* a realtime task with direct reclaim also gets ALLOC_MIN_RESERVE */
	enum sp_tri minres = t_or(high, dr == SP_NO ? SP_NO : SP_MAYBE);
	flag_out(o, "ALLOC_WMARK_MIN", SP_YES, NULL, 0);
	if (minres != SP_NO)
		flag_out(o, "ALLOC_MIN_RESERVE", minres, NULL, 0);
	if (nonblock != SP_NO)
		flag_out(o, "ALLOC_NON_BLOCK", nonblock, NULL, 0);
	if (order > 0 && t_and(nonblock, high) != SP_NO)
		flag_out(o, "ALLOC_HIGHATOMIC", t_and(nonblock, high), NULL, 0);
	enum sp_tri cpuset = t_not(t_and(t_not(dr), high));
	if (cpuset != SP_NO)
		flag_out(o, "ALLOC_CPUSET", cpuset, NULL, 0);
	if (ks != SP_NO)
		flag_out(o, "ALLOC_KSWAPD", ks, NULL, 0);
	flag_out(o, "ALLOC_CMA", SP_MAYBE, NULL, 0);
	(void)m;
}

void slowpath_alloc_flags(const struct slowpath_model *m, struct gfp_bits g, int order, struct sp_flags *o)
{
	memset(o, 0, sizeof(*o));
	struct slowpath_tree *t = m->t;
	struct csrc *pa = t ? t->f[TF_PAGE_ALLOC] : NULL;
	struct cfunc *f = pa ? csrc_function(pa, "gfp_to_alloc_flags") : NULL;
	const char *why = NULL;
	/* a model that clears __GFP_DIRECT_RECLAIM for costly NORETRY requests
	 * derives alloc_flags from the cleared mask */
	if (m->cn_skip == CN_SKIP_MASK && order > m->costly_order && gfp_may(g, GFPB(NORETRY)) &&
	    !(m->cn_skip_exempt_thisnode && gfp_must(g, GFPB(THISNODE))) &&
	    !(m->cn_skip_exempt_nofail && gfp_must(g, GFPB(NOFAIL)))) {
		bool sure = gfp_must(g, GFPB(NORETRY)) && !(m->cn_skip_exempt_thisnode && gfp_may(g, GFPB(THISNODE))) &&
			    !(m->cn_skip_exempt_nofail && gfp_may(g, GFPB(NOFAIL)));
		g.must &= ~GFPB(DIRECT_RECLAIM);
		if (sure)
			g.may &= ~GFPB(DIRECT_RECLAIM);
	}
	if (!f)
		why = "the tree has no gfp_to_alloc_flags()";
	else if (!m->gfp_known)
		why = "the tree's __GFP_* values could not be evaluated";
	else if (!m->nalloc)
		why = "the tree's ALLOC_* values could not be evaluated (no mm/internal.h)";
	if (!why) {
		struct interp in = { .m = m, .t = t };
		struct env *e = xcalloc(1, sizeof(*e));
		/* gfp_to_alloc_flags(gfp_t gfp_mask, unsigned int order) */
		if (f->nparams == 2) {
			struct var *gv = env_def(e, f->params[0].name), *ov = env_def(e, f->params[1].name);
			uint64_t must = gfp_table_from_canon(&m->gfp, g.must), may = gfp_table_from_canon(&m->gfp, g.may);
			gv->v = (struct tv){ must, ~may };
			ov->v = tv_const((uint64_t)order);
			iexec(&in, e, csrc_body(pa, f), PA);
			if (in.failed)
				why = in.why;
			else if (!e->has_ret)
				why = "gfp_to_alloc_flags() returns nothing readable";
		} else
			why = "gfp_to_alloc_flags() does not take (gfp_mask, order)";
		if (!why) {
			o->from_tree = true;
			struct tv r = e->ret;
			/* the watermark index is the low bits */
			uint64_t wmask = 0;
			for (size_t i = 0; i < m->nalloc; i++)
				if (!strncmp(m->alloc[i].name, "ALLOC_WMARK_", 12))
					wmask |= m->alloc[i].value;
			for (size_t i = 0; i < m->nalloc; i++) {
				const struct sp_alloc_flag *a = &m->alloc[i];
				if (!strncmp(a->name, "ALLOC_WMARK_", 12)) {
					if ((r.one & wmask) == a->value && (r.zero & wmask) == (~a->value & wmask))
						flag_out(o, a->name, SP_YES, PA, f->line);
					continue;
				}
				bool dup = false;
				for (size_t k = 0; k < i; k++)
					dup |= m->alloc[k].value == a->value && strncmp(m->alloc[k].name, "ALLOC_WMARK_", 12);
				if (dup)
					continue;
				int bit = __builtin_ctzll(a->value);
				enum sp_tri s = r.one & a->value ? SP_YES : r.zero & a->value ? SP_NO : SP_MAYBE;
				if (s != SP_NO)
					flag_out(o, a->name, s, PA, e->ret_line[bit] ? e->ret_line[bit] : f->line);
			}
		}
		free(e);
	}
	if (why) {
		o->note = xstrdup(why);
		builtin_flags(m, g, order, o);
	}
}

void sp_flags_release(struct sp_flags *o)
{
	for (size_t i = 0; i < o->n; i++)
		free(o->f[i].name);
	free(o->f);
	free(o->note);
	memset(o, 0, sizeof(*o));
}
