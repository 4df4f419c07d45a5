/* gfp mask <-> alloc_flags consistency rules (see consistency.h). */
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/consistency.h"
#include "gfpaudit/csrc.h"
#include "gfpaudit/frontend.h"
#include "gfpaudit/slowpath.h"
#include "gfpaudit/sparse.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"


const char *cons_rule_id(enum cons_rule r)
{
	switch (r) {
	case CONS_DIVERGENCE: return "gfp-derived-divergence";
	case CONS_STALE: return "stale-alloc-flags";
	case CONS_MIX: return "gfp-alloc-flags-mix";
	}
	return "?";
}

/* Bits whose meaning the allocator turns into behaviour (reclaim, compaction,
 * retries, reserves): a local derived from one of them is a capability. */
static const char *const capability_bits[] = {
	"__GFP_DIRECT_RECLAIM", "__GFP_KSWAPD_RECLAIM", "__GFP_RECLAIM", "__GFP_NORETRY",
	"__GFP_RETRY_MAYFAIL", "__GFP_NOFAIL", "__GFP_IO", "__GFP_FS", "__GFP_HIGH",
	"__GFP_MEMALLOC", "__GFP_NOMEMALLOC", "__GFP_THISNODE", NULL,
};

/* Predicates over a mask that answer a capability question. */
static const char *const capability_preds[] = {
	"gfp_compaction_allowed", "gfpflags_allow_blocking", "gfpflags_normal_context",
	"gfp_pfmemalloc_allowed", "gfpflags_allow_spinning", NULL,
};

static bool in_list(const char *const *l, const char *s)
{
	for (size_t i = 0; l[i]; i++)
		if (!strcmp(l[i], s))
			return true;
	return false;
}

/* Calls that derive alloc_flags from a mask. */
static bool is_derivation(const char *callee)
{
	return callee && (strstr(callee, "alloc_flags") || !strcmp(callee, "__gfp_pfmemalloc_flags") ||
			  !strcmp(callee, "prepare_alloc_pages"));
}

/* Calls that derive allocator state from a mask they are given. */
static bool is_sink(const char *callee)
{
	return callee && (is_derivation(callee) || !strncmp(callee, "__alloc_pages_direct_", 21) ||
			  !strncmp(callee, "trace_", 6) || !strcmp(callee, "gfp_pfmemalloc_allowed"));
}

enum vkind { VK_OTHER, VK_GFP, VK_ALLOC };

struct var {
	const char *name;
	enum vkind kind;
	bool pointer, local;
	int line;
};

struct fnctx {
	struct csrc *c;
	struct cfunc *f;
	const struct cs *body;
	struct cfg g;
	struct var *v;
	size_t nv, v_alloc;
	const struct cons_opts *o;
	struct cons_result *out;
	const char *path;
	/* aliases: model's and the file's own BUILD_BUG_ONs */
	const char **alias_gfp, **alias_alloc;
	size_t naliases;
	const char *alias_where;
	char *alias_owned;
};

static struct var *var_get(struct fnctx *x, const char *name)
{
	for (size_t i = 0; i < x->nv; i++)
		if (!strcmp(x->v[i].name, name))
			return &x->v[i];
	return NULL;
}

static struct var *var_add(struct fnctx *x, const char *name)
{
	struct var *v = var_get(x, name);
	if (v)
		return v;
	ALLOC_GROW(x->v, x->nv + 1, x->v_alloc);
	v = &x->v[x->nv++];
	memset(v, 0, sizeof(*v));
	v->name = name;
	return v;
}

static enum vkind kind_of_type(const char *type, const char *name)
{
	if (type && strstr(type, "gfp_t"))
		return VK_GFP;
	if (name && (strstr(name, "alloc_flags") || !strcmp(name, "reserve_flags")))
		return VK_ALLOC;
	return VK_OTHER;
}

/* The variable an lvalue/rvalue names: through casts and a dereference. */
static const char *var_of(const struct cx *e)
{
	e = cx_strip(e);
	if (e && e->kind == CX_UNARY && !strcmp(e->text, "*"))
		e = cx_strip(e->a);
	return e && e->kind == CX_IDENT ? e->text : NULL;
}

static enum vkind kind_of(struct fnctx *x, const struct cx *e)
{
	const char *n = var_of(e);
	struct var *v = n ? var_get(x, n) : NULL;
	if (v)
		return v->kind;
	e = cx_strip(e);
	if (e && e->kind == CX_MEMBER && e->b) {
		if (strstr(e->b->text, "gfp"))
			return VK_GFP;
		if (strstr(e->b->text, "alloc_flags"))
			return VK_ALLOC;
	}
	return VK_OTHER;
}

/* ---- findings ---- */

static struct cons_finding *add_finding(struct fnctx *x, enum cons_rule r, const struct cx *at, int line, int col,
					const char *subject, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static struct cons_finding *add_finding(struct fnctx *x, enum cons_rule r, const struct cx *at, int line, int col,
					const char *subject, const char *fmt, ...)
{
	struct cons_result *o = x->out;
	ALLOC_GROW(o->f, o->n + 1, o->alloc);
	struct cons_finding *f = &o->f[o->n++];
	memset(f, 0, sizeof(*f));
	f->rule = r;
	f->line = line;
	f->col = col;
	f->function = xstrdup(x->f ? x->f->name : "");
	f->subject = xstrdup(subject);
	f->expr = at ? cx_text(at) : xstrdup(subject);
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	f->message = strbuf_detach(&sb);
	return f;
}

static void add_ev(struct cons_finding *f, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add_ev(struct cons_finding *f, int line, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < f->nev; i++)
		if (f->ev[i].line == line && !strcmp(f->ev[i].note, sb.buf)) {
			strbuf_release(&sb);
			return;
		}
	ALLOC_GROW(f->ev, f->nev + 1, f->ev_alloc);
	f->ev[f->nev].line = line;
	f->ev[f->nev++].note = strbuf_detach(&sb);
}

void cons_result_release(struct cons_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct cons_finding *f = &r->f[i];
		free(f->function);
		free(f->subject);
		free(f->expr);
		free(f->message);
		for (size_t k = 0; k < f->nev; k++)
			free(f->ev[k].note);
		free(f->ev);
	}
	free(r->f);
	free(r->sparse_note);
	memset(r, 0, sizeof(*r));
}

/* ---- variables of a function ---- */

struct walkx {
	struct fnctx *x;
	bool changed;
};

static bool has_derivation_call(const struct cx *e, void *data)
{
	(void)data;
	return e->kind == CX_CALL && is_derivation(cx_callee(e));
}

static bool mark_alloc_assign(const struct cx *e, void *data)
{
	struct walkx *w = data;
	if (e->kind != CX_ASSIGN)
		return false;
	const char *n = var_of(e->a);
	struct var *v = n ? var_get(w->x, n) : NULL;
	if (!v || v->kind != VK_OTHER)
		return false;
	if (cx_walk(e->b, has_derivation_call, NULL) || cx_mentions_prefix(e->b, "ALLOC_")) {
		v->kind = VK_ALLOC;
		w->changed = true;
	}
	return false;
}

static bool collect_vars(const struct cs *s, void *data)
{
	struct fnctx *x = data;
	for (size_t i = 0; i < s->ndecls; i++) {
		const struct cdecl *d = &s->decls[i];
		struct var *v = var_add(x, d->name);
		v->local = true;
		v->pointer = d->pointer;
		v->line = d->line;
		v->kind = kind_of_type(d->type, d->name);
		if (v->kind == VK_OTHER && d->init &&
		    (cx_walk(d->init, has_derivation_call, NULL) || cx_mentions_prefix(d->init, "ALLOC_")) &&
		    !cx_mentions_prefix(d->init, "__GFP_"))
			v->kind = VK_ALLOC;
	}
	return false;
}

static bool walk_assigns(const struct cs *s, void *data)
{
	struct walkx *w = data;
	if (s->e && s->kind != CS_IF && s->kind != CS_WHILE)
		cx_walk(s->e, mark_alloc_assign, w);
	return false;
}

static void function_vars(struct fnctx *x)
{
	for (size_t i = 0; i < x->f->nparams; i++) {
		const struct cparam *p = &x->f->params[i];
		if (!*p->name)
			continue;
		struct var *v = var_add(x, p->name);
		v->pointer = p->pointer;
		v->kind = kind_of_type(p->type, p->name);
		v->line = x->f->line;
	}
	cs_walk(x->body, collect_vars, x);
	struct walkx w = { x, false };
	cs_walk(x->body, walk_assigns, &w);
}

/* ---- CFG helpers ---- */

/* The expressions a node evaluates (decl initializers, or its expression). */
struct nexprs {
	const struct cx *e[16];
	const char *decl[16]; /* declared name for initializers */
	size_t n;
};

static void node_exprs(const struct cnode *n, struct nexprs *out)
{
	out->n = 0;
	if (n->s && n->s->kind == CS_DECL && n->kind == CN_STMT) {
		for (size_t i = 0; i < n->s->ndecls && out->n < 16; i++) {
			out->e[out->n] = n->s->decls[i].init;
			out->decl[out->n++] = n->s->decls[i].name;
		}
		return;
	}
	if (n->e) {
		out->e[0] = n->e;
		out->decl[0] = NULL;
		out->n = 1;
	}
}

/* ---- gfp-alloc-flags-mix ---- */

/* What can flow in a value: gfp constants (by name), a gfp variable not
 * bounded by a constant mask, ALLOC_ constants, an alloc_flags variable. */
struct flow {
	const char *gfp[16];
	size_t ngfp;
	bool gfp_var;
	const char *alloc[16];
	size_t nalloc;
	bool alloc_var;
	const struct cx *gfp_at, *alloc_at; /* where the first of each appears */
};

static void flow_add(const char **l, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(l[i], s))
			return;
	if (*n < 16)
		l[(*n)++] = s;
}

static void flow_union(struct flow *a, const struct flow *b)
{
	for (size_t i = 0; i < b->ngfp; i++)
		flow_add(a->gfp, &a->ngfp, b->gfp[i]);
	for (size_t i = 0; i < b->nalloc; i++)
		flow_add(a->alloc, &a->nalloc, b->alloc[i]);
	a->gfp_var |= b->gfp_var;
	a->alloc_var |= b->alloc_var;
	if (!a->gfp_at)
		a->gfp_at = b->gfp_at;
	if (!a->alloc_at)
		a->alloc_at = b->alloc_at;
}

static bool is_gfp_const(const char *s)
{
	return !strncmp(s, "__GFP_", 6) || (!strncmp(s, "GFP_", 4) && strcmp(s, "GFP_ZONEMASK"));
}

/* A variable or member in a flow: a gfp mask or alloc_flags by its kind. */
static void flow_var(struct fnctx *x, const struct cx *e, struct flow *out)
{
	enum vkind k = kind_of(x, e);
	if (k == VK_GFP) {
		out->gfp_var = true;
		out->gfp_at = e;
	} else if (k == VK_ALLOC) {
		out->alloc_var = true;
		out->alloc_at = e;
	}
}

static void flow_of(struct fnctx *x, const struct cx *e, struct flow *out)
{
	memset(out, 0, sizeof(*out));
	if (!e)
		return;
	switch (e->kind) {
	case CX_IDENT:
		if (is_gfp_const(e->text)) {
			flow_add(out->gfp, &out->ngfp, e->text);
			out->gfp_at = e;
		} else if (!strncmp(e->text, "ALLOC_", 6)) {
			flow_add(out->alloc, &out->nalloc, e->text);
			out->alloc_at = e;
		} else {
			flow_var(x, e, out);
		}
		return;
	case CX_MEMBER:
		flow_var(x, e, out);
		return;
	case CX_CAST:
		flow_of(x, e->a, out);
		return;
	case CX_UNARY:
		if (!strcmp(e->text, "~"))
			flow_of(x, e->a, out);
		else if (!strcmp(e->text, "*"))
			flow_of(x, e->a, out);
		return;
	case CX_COND: {
		struct flow b;
		flow_of(x, e->b, out);
		flow_of(x, e->c, &b);
		flow_union(out, &b);
		return;
	}
	case CX_ASSIGN:
		flow_of(x, e->b, out);
		return;
	case CX_BINARY: {
		struct flow a, b;
		if (strcmp(e->text, "|") && strcmp(e->text, "&") && strcmp(e->text, "^"))
			return;
		flow_of(x, e->a, &a);
		flow_of(x, e->b, &b);
		if (!strcmp(e->text, "&")) {
			/* a variable masked with constants carries only those bits */
			bool a_const = !a.gfp_var && !a.alloc_var && (a.ngfp || a.nalloc);
			bool b_const = !b.gfp_var && !b.alloc_var && (b.ngfp || b.nalloc);
			if (a_const && (b.gfp_var || b.alloc_var)) {
				*out = a;
				return;
			}
			if (b_const && (a.gfp_var || a.alloc_var)) {
				*out = b;
				return;
			}
		}
		*out = a;
		flow_union(out, &b);
		return;
	}
	default:
		return;
	}
}

static const char *alias_of_gfp(struct fnctx *x, const char *g)
{
	for (size_t i = 0; i < x->naliases; i++)
		if (!strcmp(x->alias_gfp[i], g))
			return x->alias_alloc[i];
	return NULL;
}

static const char *alias_of_alloc(struct fnctx *x, const char *a)
{
	for (size_t i = 0; i < x->naliases; i++)
		if (!strcmp(x->alias_alloc[i], a))
			return x->alias_gfp[i];
	return NULL;
}

static void alias_text(struct fnctx *x, struct strbuf *sb)
{
	if (!x->naliases) {
		strbuf_adds(sb, "this tree asserts no aliases between them");
		return;
	}
	strbuf_adds(sb, "they share only the aliases ");
	for (size_t i = 0; i < x->naliases; i++)
		strbuf_addf(sb, "%s'%s' == '%s'", i ? ", " : "", x->alias_gfp[i], x->alias_alloc[i]);
	if (x->alias_where)
		strbuf_addf(sb, " (%s)", x->alias_where);
}

/* The value of a gfp or ALLOC name in this tree, as the other kind reads it. */
static void value_note(struct fnctx *x, struct strbuf *sb, const char *name, bool as_alloc)
{
	const struct slowpath_model *m = x->o->model;
	if (!m)
		return;
	uint64_t v = 0;
	bool known = false;
	if (!strncmp(name, "__GFP_", 6)) {
		int i = gfp_flag_lookup(name);
		if (i >= 0 && m->gfp_known && m->gfp.value[i]) {
			v = m->gfp.value[i];
			known = true;
		}
	} else {
		for (size_t i = 0; i < m->nalloc; i++)
			if (!strcmp(m->alloc[i].name, name)) {
				v = m->alloc[i].value;
				known = true;
			}
	}
	if (!known)
		return;
	struct strbuf names = STRBUF_INIT;
	if (as_alloc) {
		if (!m->nalloc)
			goto out;
		for (size_t i = 0; i < m->nalloc; i++)
			if (strncmp(m->alloc[i].name, "ALLOC_WMARK_", 12) && (m->alloc[i].value & v))
				strbuf_addf(&names, "%s%s", names.len ? "|" : "", m->alloc[i].name);
		strbuf_addf(sb, "; here it is 0x%llx, which alloc_flags read as %s", (unsigned long long)v,
			    names.len ? names.buf : "no ALLOC_* flag");
	} else {
		if (!m->gfp_known)
			goto out;
		for (int i = 0; i < GFPF__COUNT; i++)
			if (m->gfp.value[i] & v)
				strbuf_addf(&names, "%s%s", names.len ? "|" : "", gfp_flag_name(i));
		strbuf_addf(sb, "; here it is 0x%llx, which a gfp mask reads as %s", (unsigned long long)v,
			    names.len ? names.buf : "no __GFP_* flag");
	}
out:
	strbuf_release(&names);
}

/* One direction of a mix: what flows, from which bit space, into which. */
struct mix_side {
	const char *const *bits;  /* named bits of the source space that flow */
	size_t nbits;
	const char *(*alias)(struct fnctx *x, const char *bit);
	bool var;                 /* a whole variable of the source space flows */
	const struct cx *at;      /* where it appears */
	const char *bit_fmt;      /* message for a bit: %s bit, %s%s%s target */
	const char *var_fmt;      /* message for the variable: %s text, %s%s%s target */
	const char *var_subject;  /* subject for the variable (NULL: its name) */
};

/* Report gfp bits in an alloc_flags value (to_alloc) or ALLOC bits in a mask. */
static void mix_report(struct fnctx *x, const struct cx *at, const struct flow *fl, bool to_alloc, const char *target)
{
	const struct mix_side side = to_alloc
		? (struct mix_side){ fl->gfp, fl->ngfp, alias_of_gfp, fl->gfp_var, fl->gfp_at,
				     "gfp bit '%s' is used as alloc_flags%s%s%s: __GFP_* and ALLOC_* are different bit spaces and ",
				     "the whole gfp mask '%s' flows into alloc_flags%s%s%s: only the aliased bits may; ", NULL }
		: (struct mix_side){ fl->alloc, fl->nalloc, alias_of_alloc, fl->alloc_var, fl->alloc_at,
				     "'%s' is used in a gfp mask%s%s%s: ALLOC_* and __GFP_* are different bit spaces and ",
				     "alloc_flags value '%s' flows into a gfp mask%s%s%s: ", "alloc_flags" };
	const char *open = target ? " (" : "", *tgt = target ? target : "", *close = target ? ")" : "";
	struct strbuf sb = STRBUF_INIT;
	const char *subject = NULL;
	for (size_t i = 0; i < side.nbits && !subject; i++)
		if (!side.alias(x, side.bits[i]))
			subject = side.bits[i];
	if (subject) {
		strbuf_addf(&sb, side.bit_fmt, subject, open, tgt, close);
		alias_text(x, &sb);
		value_note(x, &sb, subject, to_alloc);
	} else if (side.var) {
		char *t = cx_text(side.at);
		subject = side.var_subject ? side.var_subject
			  : side.at && side.at->kind == CX_IDENT ? side.at->text : "gfp mask";
		strbuf_addf(&sb, side.var_fmt, t, open, tgt, close);
		alias_text(x, &sb);
		free(t);
	}
	if (subject) {
		/* one finding per statement line and subject */
		bool dup = false;
		for (size_t i = 0; i < x->out->n; i++)
			dup |= x->out->f[i].rule == CONS_MIX && x->out->f[i].line == at->line &&
			       !strcmp(x->out->f[i].subject, subject);
		if (!dup)
			add_finding(x, CONS_MIX, at, at->line, at->col, subject, "%s", sb.buf);
	}
	strbuf_release(&sb);
}

struct mixw {
	struct fnctx *x;
};

static const struct cparam *callee_param(struct fnctx *x, const char *callee, size_t i)
{
	struct cfunc *f = callee ? csrc_prototype(x->c, callee) : NULL;
	return f && i < f->nparams ? &f->params[i] : NULL;
}

static bool mix_visit(const struct cx *e, void *data)
{
	struct fnctx *x = ((struct mixw *)data)->x;
	struct flow a, b;
	if (e->kind == CX_ASSIGN) {
		enum vkind k = kind_of(x, e->a);
		flow_of(x, e->b, &b);
		char *lt = cx_text(e->a);
		char *t = xasprintf("in '%s'", lt);
		if (k == VK_ALLOC)
			mix_report(x, e, &b, true, t);
		else if (k == VK_GFP)
			mix_report(x, e, &b, false, t);
		free(t);
		free(lt);
	} else if (e->kind == CX_BINARY && (!strcmp(e->text, "|") || !strcmp(e->text, "&") || !strcmp(e->text, "^"))) {
		flow_of(x, e->a, &a);
		flow_of(x, e->b, &b);
		bool a_alloc = a.nalloc || a.alloc_var, b_alloc = b.nalloc || b.alloc_var;
		bool a_gfp = a.ngfp || a.gfp_var, b_gfp = b.ngfp || b.gfp_var;
		if (a_alloc && !a_gfp && b_gfp && !b_alloc)
			mix_report(x, e, &b, true, NULL);
		else if (b_alloc && !b_gfp && a_gfp && !a_alloc)
			mix_report(x, e, &a, true, NULL);
	} else if (e->kind == CX_CALL) {
		const char *callee = cx_callee(e);
		for (size_t i = 0; i < e->nargs; i++) {
			const struct cparam *p = callee_param(x, callee, i);
			if (!p)
				continue;
			enum vkind k = kind_of_type(p->type, p->name);
			if (k == VK_OTHER)
				continue;
			flow_of(x, e->args[i], &a);
			char *t = xasprintf("in argument '%s' of '%s()'", p->name, callee);
			mix_report(x, e->args[i], &a, k == VK_ALLOC, t);
			free(t);
		}
	}
	return false;
}

static void check_mix(struct fnctx *x)
{
	struct mixw w = { x };
	for (size_t i = 0; i < x->g.n; i++) {
		struct nexprs ne;
		node_exprs(&x->g.nodes[i], &ne);
		for (size_t k = 0; k < ne.n; k++) {
			if (!ne.e[k])
				continue;
			if (ne.decl[k]) {
				struct var *v = var_get(x, ne.decl[k]);
				if (v && v->kind != VK_OTHER) {
					struct flow fl;
					flow_of(x, ne.e[k], &fl);
					char *t = xasprintf("in '%s'", v->name);
					mix_report(x, ne.e[k], &fl, v->kind == VK_ALLOC, t);
					free(t);
				}
			}
			cx_walk(ne.e[k], mix_visit, &w);
		}
	}
}

/* ---- stale-alloc-flags ---- */

#define MAXF 16

struct deriv {
	const char *masks[8];
	size_t nmasks;
	const char *outs[8]; /* masks co-derived with it (prepare_alloc_pages' alloc_gfp) */
	size_t nouts;
	int line;            /* first derivation */
	const char *how;     /* callee */
};

struct stale_state {
	uint32_t derived, stale;
	int line[MAXF];
	const char *mask[MAXF];
};

struct stalectx {
	struct fnctx *x;
	const char *F[MAXF];
	struct deriv d[MAXF];
	size_t nF;
	/* reported (F, staling line) pairs */
	int rep_line[64];
	size_t rep_f[64], nrep;
};

static int f_index(struct stalectx *s, const char *name)
{
	for (size_t i = 0; i < s->nF; i++)
		if (!strcmp(s->F[i], name))
			return (int)i;
	return -1;
}

static void str_add(const char **l, size_t *n, size_t cap, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(l[i], s))
			return;
	if (*n < cap)
		l[(*n)++] = s;
}

static bool str_in(const char *const *l, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(l[i], s))
			return true;
	return false;
}

struct derivw {
	struct stalectx *s;
	const char *lhs; /* alloc var assigned the value being walked */
};

static void note_derivation(struct stalectx *s, const char *F, const struct cx *call)
{
	int i = f_index(s, F);
	if (i < 0) {
		if (s->nF >= MAXF)
			return;
		i = (int)s->nF++;
		s->F[i] = F;
		memset(&s->d[i], 0, sizeof(s->d[i]));
		s->d[i].line = call->line;
		s->d[i].how = cx_callee(call);
	}
	for (size_t k = 0; k < call->nargs; k++) {
		const struct cx *a = cx_strip(call->args[k]);
		bool addr = a && a->kind == CX_UNARY && !strcmp(a->text, "&");
		const char *n = var_of(addr ? a->a : a);
		struct var *v = n ? var_get(s->x, n) : NULL;
		if (!v || v->kind != VK_GFP)
			continue;
		if (addr)
			str_add(s->d[i].outs, &s->d[i].nouts, 8, n);
		else
			str_add(s->d[i].masks, &s->d[i].nmasks, 8, n);
	}
}

static bool find_derivs(const struct cx *e, void *data)
{
	struct derivw *w = data;
	struct stalectx *s = w->s;
	if (e->kind == CX_ASSIGN) {
		const char *n = var_of(e->a);
		struct var *v = n ? var_get(s->x, n) : NULL;
		if (v && v->kind == VK_ALLOC) {
			struct derivw inner = { s, n };
			cx_walk(e->b, find_derivs, &inner);
			return false; /* children handled */
		}
	}
	if (e->kind == CX_CALL && is_derivation(cx_callee(e))) {
		if (w->lhs)
			note_derivation(s, w->lhs, e);
		for (size_t k = 0; k < e->nargs; k++) {
			const struct cx *a = cx_strip(e->args[k]);
			if (a && a->kind == CX_UNARY && !strcmp(a->text, "&")) {
				const char *n = var_of(a->a);
				struct var *v = n ? var_get(s->x, n) : NULL;
				if (v && v->kind == VK_ALLOC)
					note_derivation(s, n, e);
			}
		}
	}
	return false;
}

struct transfer {
	struct stalectx *s;
	struct stale_state *st;
	bool report;
};

static void stale_read(struct transfer *t, const struct cx *at, const char *name)
{
	int i = f_index(t->s, name);
	if (i < 0 || !(t->st->stale & (1u << i)) || !t->report)
		return;
	struct stalectx *s = t->s;
	for (size_t k = 0; k < s->nrep; k++)
		if (s->rep_f[k] == (size_t)i && s->rep_line[k] == t->st->line[i])
			return;
	if (s->nrep < 64) {
		s->rep_f[s->nrep] = (size_t)i;
		s->rep_line[s->nrep++] = t->st->line[i];
	}
	struct cons_finding *f = add_finding(s->x, CONS_STALE, at, at->line, at->col, name,
		"'%s' was derived from '%s' (%s, line %d), '%s' changed at line %d, and the old '%s' is used "
		"here without being derived again: derive it again from the new mask",
		name, t->st->mask[i], s->d[i].how ? s->d[i].how : "derivation", s->d[i].line,
		t->st->mask[i], t->st->line[i], name);
	add_ev(f, s->d[i].line, "store: '%s' derived from the mask", name);
	add_ev(f, t->st->line[i], "store: '%s' changes", t->st->mask[i]);
}

static void stale_write_mask(struct transfer *t, const char *M, const struct cx *rhs, const char *op, int line)
{
	struct stalectx *s = t->s;
	const char *src = !strcmp(op, "=") ? var_of(rhs) : NULL;
	for (size_t i = 0; i < s->nF; i++) {
		if (!(t->st->derived & (1u << i)) || !str_in(s->d[i].masks, s->d[i].nmasks, M))
			continue;
		/* taking the value of a mask the flags were derived with keeps them valid */
		if (src && (str_in(s->d[i].masks, s->d[i].nmasks, src) || str_in(s->d[i].outs, s->d[i].nouts, src)))
			continue;
		if (!(t->st->stale & (1u << i))) {
			t->st->stale |= 1u << i;
			t->st->line[i] = line;
			t->st->mask[i] = M;
		}
	}
}

static void stale_expr(struct transfer *t, const struct cx *e);

static void stale_call(struct transfer *t, const struct cx *e)
{
	struct stalectx *s = t->s;
	bool deriv = is_derivation(cx_callee(e));
	for (size_t k = 0; k < e->nargs; k++) {
		const struct cx *a = cx_strip(e->args[k]);
		if (deriv && a && a->kind == CX_UNARY && !strcmp(a->text, "&"))
			continue;
		stale_expr(t, e->args[k]);
	}
	if (!deriv)
		return;
	for (size_t k = 0; k < e->nargs; k++) {
		const struct cx *a = cx_strip(e->args[k]);
		if (!a || a->kind != CX_UNARY || strcmp(a->text, "&"))
			continue;
		int i = f_index(s, var_of(a->a) ? var_of(a->a) : "");
		if (i >= 0) {
			t->st->derived |= 1u << i;
			t->st->stale &= ~(1u << i);
		}
	}
}

static void stale_expr(struct transfer *t, const struct cx *e)
{
	if (!e)
		return;
	switch (e->kind) {
	case CX_IDENT:
		stale_read(t, e, e->text);
		return;
	case CX_CALL:
		stale_call(t, e);
		return;
	case CX_ASSIGN: {
		stale_expr(t, e->b);
		const char *n = var_of(e->a);
		struct var *v = n ? var_get(t->s->x, n) : NULL;
		if (!v) {
			stale_expr(t, e->a);
			return;
		}
		if (v->kind == VK_GFP)
			stale_write_mask(t, n, e->b, e->text, e->line);
		int i = f_index(t->s, n);
		if (i >= 0 && !strcmp(e->text, "=")) {
			if (cx_walk(e->b, has_derivation_call, NULL))
				t->st->derived |= 1u << i;
			else
				t->st->derived &= ~(1u << i);
			t->st->stale &= ~(1u << i);
		}
		return;
	}
	case CX_MEMBER:
		stale_expr(t, e->a);
		return;
	default:
		stale_expr(t, e->a);
		stale_expr(t, e->b);
		if (e->kind == CX_COND)
			stale_expr(t, e->c);
		for (size_t i = 0; i < e->nargs; i++)
			stale_expr(t, e->args[i]);
	}
}

static void stale_node(struct transfer *t, const struct cnode *n)
{
	struct nexprs ne;
	node_exprs(n, &ne);
	for (size_t k = 0; k < ne.n; k++) {
		stale_expr(t, ne.e[k]);
		if (!ne.decl[k])
			continue;
		struct var *v = var_get(t->s->x, ne.decl[k]);
		if (v && v->kind == VK_GFP && ne.e[k])
			stale_write_mask(t, ne.decl[k], ne.e[k], "=", ne.e[k]->line);
		int i = f_index(t->s, ne.decl[k]);
		if (i >= 0) {
			t->st->stale &= ~(1u << i);
			if (ne.e[k] && cx_walk(ne.e[k], has_derivation_call, NULL))
				t->st->derived |= 1u << i;
			else
				t->st->derived &= ~(1u << i);
		}
	}
}

static size_t node_pos(const struct cnode *n)
{
	if (n->e)
		return n->e->tb;
	return n->s ? n->s->tb : 0;
}

static void check_stale(struct fnctx *x)
{
	struct stalectx *s = xcalloc(1, sizeof(*s));
	s->x = x;
	for (size_t i = 0; i < x->g.n; i++) {
		struct nexprs ne;
		node_exprs(&x->g.nodes[i], &ne);
		for (size_t k = 0; k < ne.n; k++) {
			struct derivw w = { s, NULL };
			if (ne.decl[k] && var_get(x, ne.decl[k]) && var_get(x, ne.decl[k])->kind == VK_ALLOC)
				w.lhs = ne.decl[k];
			if (ne.e[k]) {
				if (w.lhs && ne.e[k]->kind == CX_CALL && is_derivation(cx_callee(ne.e[k])))
					note_derivation(s, w.lhs, ne.e[k]);
				cx_walk(ne.e[k], find_derivs, &w);
			}
		}
	}
	if (!s->nF) {
		free(s);
		return;
	}
	size_t n = x->g.n;
	struct stale_state *in = xcalloc(n, sizeof(*in)), *out = xcalloc(n, sizeof(*out));
	bool changed = true;
	for (int iter = 0; changed && iter < 64; iter++) {
		changed = false;
		for (size_t i = 0; i < n; i++) {
			struct stale_state cur = in[i];
			struct transfer t = { s, &cur, false };
			stale_node(&t, &x->g.nodes[i]);
			if (memcmp(&cur, &out[i], sizeof(cur))) {
				out[i] = cur;
				changed = true;
			}
			for (size_t k = 0; k < x->g.nodes[i].nsucc; k++) {
				struct stale_state *d = &in[x->g.nodes[i].succ[k]];
				uint32_t nd = d->derived | cur.derived, ns = d->stale | cur.stale;
				for (size_t f = 0; f < s->nF; f++)
					if ((cur.stale & (1u << f)) && !(d->stale & (1u << f))) {
						d->line[f] = cur.line[f];
						d->mask[f] = cur.mask[f];
					}
				if (nd != d->derived || ns != d->stale) {
					d->derived = nd;
					d->stale = ns;
					changed = true;
				}
			}
		}
	}
	/* report in source order, so the first use after a change is the one named */
	size_t *ord = xmalloc(sizeof(*ord) * n);
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && node_pos(&x->g.nodes[ord[k]]) < node_pos(&x->g.nodes[ord[k - 1]]); k--) {
			size_t tmp = ord[k];
			ord[k] = ord[k - 1];
			ord[k - 1] = tmp;
		}
	for (size_t j = 0; j < n; j++) {
		size_t i = ord[j];
		struct stale_state cur = in[i];
		struct transfer t = { s, &cur, true };
		stale_node(&t, &x->g.nodes[i]);
	}
	free(ord);
	free(in);
	free(out);
	free(s);
}

/* ---- gfp-derived-divergence ---- */

/* `M & <capability bits>` or a capability predicate of M; the mask and bits. */
static bool mask_test(struct fnctx *x, const struct cx *e, const char **mask, const char **bit)
{
	e = cx_strip(e);
	if (!e)
		return false;
	if (e->kind == CX_BINARY && !strcmp(e->text, "&")) {
		for (int side = 0; side < 2; side++) {
			const struct cx *v = side ? e->b : e->a, *c = side ? e->a : e->b;
			const char *n = var_of(v);
			struct var *var = n ? var_get(x, n) : NULL;
			if (!var || var->kind != VK_GFP)
				continue;
			for (size_t k = 0; capability_bits[k]; k++)
				if (cx_mentions(c, capability_bits[k])) {
					*mask = n;
					*bit = capability_bits[k];
					return true;
				}
		}
		return false;
	}
	const char *callee = cx_callee(e);
	if (callee && in_list(capability_preds, callee) && e->nargs >= 1) {
		const char *n = var_of(e->args[0]);
		struct var *var = n ? var_get(x, n) : NULL;
		if (var && var->kind == VK_GFP) {
			*mask = n;
			*bit = callee;
			return true;
		}
	}
	return false;
}

struct leaves {
	const char *mask;
	bool has_test;
	const char *bit; /* of the first test */
	const struct cx *foreign[8];
	bool restricts[8]; /* negated under &&, or under ||: narrows or widens the test */
	size_t nforeign;
};

static bool is_const_leaf(const struct cx *e)
{
	if (e->kind == CX_NUM)
		return true;
	if (e->kind != CX_IDENT)
		return false;
	if (!strcmp(e->text, "true") || !strcmp(e->text, "false"))
		return true;
	for (const char *p = e->text; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			return false;
	return true; /* an all-caps macro constant */
}

/* Walk the boolean structure of a value: mask tests of l->mask, constants,
 * and "foreign" conditions.  `neg`: under an odd number of '!'; `op`: the
 * nearest enclosing && or ||. */
static void leaves_in(struct fnctx *x, const struct cx *e, struct leaves *l, bool neg, char op)
{
	e = cx_strip(e);
	if (!e)
		return;
	const char *m, *b;
	if (mask_test(x, e, &m, &b) && !strcmp(m, l->mask)) {
		if (!l->has_test)
			l->bit = b;
		l->has_test = true;
		return;
	}
	if (e->kind == CX_UNARY && !strcmp(e->text, "!")) {
		leaves_in(x, e->a, l, !neg, op);
		return;
	}
	if (e->kind == CX_BINARY && (!strcmp(e->text, "&&") || !strcmp(e->text, "||") ||
				     !strcmp(e->text, "&") || !strcmp(e->text, "|"))) {
		/* De Morgan: under '!', && and || swap */
		char o = e->text[0] == '&' ? '&' : '|';
		if (neg)
			o = o == '&' ? '|' : '&';
		leaves_in(x, e->a, l, neg, o);
		leaves_in(x, e->b, l, neg, o);
		return;
	}
	if (is_const_leaf(e))
		return;
	if (l->nforeign < 8) {
		l->restricts[l->nforeign] = (op == '&' && neg) || op == '|';
		l->foreign[l->nforeign++] = e;
	}
}

static void find_leaves(struct fnctx *x, const struct cx *e, struct leaves *l)
{
	leaves_in(x, e, l, false, 0);
}

struct vdef {
	const struct cx *rhs;   /* value (initializer or right side) */
	const struct cx *at;    /* the assignment or initializer */
	const char *op;         /* "=", "&=", "|=" */
	int line, col;
	const struct cs *stmt;
	int node;
};

struct clears {
	const char *mask;
	const char *bit;
	bool hit;
};

static bool clears_visit(const struct cx *e, void *data)
{
	struct clears *c = data;
	if (e->kind != CX_ASSIGN)
		return false;
	const char *n = var_of(e->a);
	if (!n || strcmp(n, c->mask))
		return false;
	if ((!strcmp(e->text, "&=") || !strcmp(e->text, "=")) && cx_mentions(e->b, "~") &&
	    (cx_mentions(e->b, c->bit) || (!strcmp(c->bit, "__GFP_DIRECT_RECLAIM") && cx_mentions(e->b, "__GFP_RECLAIM"))))
		c->hit = true;
	return c->hit;
}

static bool node_clears(const struct cnode *n, const char *mask, const char *bit)
{
	struct nexprs ne;
	node_exprs(n, &ne);
	struct clears c = { mask, bit, false };
	for (size_t k = 0; k < ne.n && !c.hit; k++)
		cx_walk(ne.e[k], clears_visit, &c);
	return c.hit;
}

static bool block_clears(const struct cs *blk, const char *mask, const char *bit)
{
	if (!blk)
		return false;
	struct clears c = { mask, bit, false };
	for (size_t i = 0; i < blk->nkids && !c.hit; i++)
		if (blk->kids[i]->kind == CS_EXPR)
			cx_walk(blk->kids[i]->e, clears_visit, &c);
	return c.hit;
}

struct sinkw {
	const char *mask;
	const struct cx *hit;
};

static bool sink_visit(const struct cx *e, void *data)
{
	struct sinkw *w = data;
	if (e->kind != CX_CALL || !is_sink(cx_callee(e)))
		return false;
	for (size_t k = 0; k < e->nargs; k++) {
		const char *n = var_of(e->args[k]);
		if (n && !strcmp(n, w->mask)) {
			w->hit = e;
			return true;
		}
	}
	return false;
}

/* Sinks reachable from node `from` where the mask still has the bit. */
static size_t find_sinks(struct fnctx *x, int from, const char *mask, const char *bit,
			 const struct cx **out, size_t max)
{
	size_t n = x->g.n, nout = 0;
	char *seen = xcalloc(n, 1);
	int *stack = xmalloc(sizeof(*stack) * (n + 1));
	size_t sp = 0;
	for (size_t k = 0; k < x->g.nodes[from].nsucc; k++)
		stack[sp++] = x->g.nodes[from].succ[k];
	while (sp && nout < max) {
		int i = stack[--sp];
		if (seen[i])
			continue;
		seen[i] = 1;
		const struct cnode *nd = &x->g.nodes[i];
		struct nexprs ne;
		node_exprs(nd, &ne);
		for (size_t k = 0; k < ne.n && nout < max; k++) {
			struct sinkw w = { mask, NULL };
			cx_walk(ne.e[k], sink_visit, &w);
			if (!w.hit)
				continue;
			bool dup = false;
			for (size_t j = 0; j < nout; j++)
				dup |= !strcmp(cx_callee(out[j]), cx_callee(w.hit));
			if (!dup)
				out[nout++] = w.hit;
		}
		if (node_clears(nd, mask, bit))
			continue;
		for (size_t k = 0; k < nd->nsucc; k++)
			if (!seen[nd->succ[k]] && sp < n)
				stack[sp++] = nd->succ[k];
	}
	free(seen);
	free(stack);
	return nout;
}

static int node_of_stmt(struct fnctx *x, const struct cs *s)
{
	for (size_t i = 0; i < x->g.n; i++)
		if (x->g.nodes[i].s == s && x->g.nodes[i].kind == CN_STMT)
			return (int)i;
	return -1;
}

struct defs {
	const char *var;
	struct vdef d[32];
	size_t n;
	const struct cs *cur;
};

static bool def_visit(const struct cx *e, void *data)
{
	struct defs *d = data;
	if (e->kind == CX_ASSIGN && d->n < 32) {
		const char *n = var_of(e->a);
		if (n && !strcmp(n, d->var))
			d->d[d->n++] = (struct vdef){ e->b, e, e->text, e->line, e->col, d->cur, -1 };
	}
	return false;
}

static bool def_stmt(const struct cs *s, void *data)
{
	struct defs *d = data;
	d->cur = s;
	for (size_t i = 0; i < s->ndecls && d->n < 32; i++)
		if (!strcmp(s->decls[i].name, d->var) && s->decls[i].init)
			d->d[d->n++] = (struct vdef){ s->decls[i].init, s->decls[i].init, "=", s->decls[i].line,
						       s->decls[i].col, s, -1 };
	if (s->kind == CS_EXPR || s->kind == CS_RETURN)
		cx_walk(s->e, def_visit, d);
	return false;
}

static void check_divergence(struct fnctx *x)
{
	for (size_t vi = 0; vi < x->nv; vi++) {
		struct var *v = &x->v[vi];
		if (!v->local || v->kind != VK_OTHER || v->pointer)
			continue;
		struct defs *d = xcalloc(1, sizeof(*d));
		d->var = v->name;
		cs_walk(x->body, def_stmt, d);
		/* the first definition that tests a capability bit of a mask */
		size_t first = d->n;
		const char *mask = NULL, *bit = NULL;
		for (size_t i = 0; i < d->n && first == d->n; i++) {
			for (size_t k = 0; k < x->nv && first == d->n; k++) {
				if (x->v[k].kind != VK_GFP)
					continue;
				struct leaves any = { .mask = x->v[k].name };
				find_leaves(x, d->d[i].rhs, &any);
				if (any.has_test) {
					mask = x->v[k].name;
					bit = any.bit;
					first = i;
				}
			}
		}
		if (first == d->n || !bit) {
			free(d);
			continue;
		}
		/* does some definition test the mask alone?  Then the local stands for
		 * the bit, and anything else assigned to it later disagrees. */
		bool pure = false;
		for (size_t i = first; i < d->n && !pure; i++) {
			struct leaves l = { .mask = mask };
			find_leaves(x, d->d[i].rhs, &l);
			pure = l.has_test && !l.nforeign && !strcmp(d->d[i].op, "=");
		}
		for (size_t i = first; i < d->n; i++) {
			const struct vdef *df = &d->d[i];
			struct leaves l = { .mask = mask };
			const struct cx *foreign = NULL;
			find_leaves(x, df->rhs, &l);
			if (strcmp(df->op, "="))
				foreign = pure ? df->rhs : NULL; /* &=, |= add a new condition */
			else if (l.has_test) {
				/* a condition that switches the capability off (&& !c) or on
				 * (|| c); an ANDed positive condition makes a new predicate
				 * (costly_noretry), not a copy of the bit */
				for (size_t k = 0; k < l.nforeign && !foreign; k++)
					if ((l.restricts[k] || pure) && !cx_is_ident(l.foreign[k], v->name))
						foreign = l.foreign[k];
			} else if (pure && i > first)
				foreign = df->rhs; /* overwritten with something else */
			if (!foreign)
				continue;
			/* the same block clears the bit from the mask: consistent */
			const struct cs *blk = df->stmt ? df->stmt->parent : NULL;
			if (blk && blk->kind == CS_BLOCK && block_clears(blk, mask, bit))
				continue;
			int node = node_of_stmt(x, df->stmt);
			if (node < 0)
				continue;
			const struct cx *sinks[4];
			size_t ns = find_sinks(x, node, mask, bit, sinks, 4);
			if (!ns)
				continue;
			char *ft = cx_text(foreign);
			struct strbuf sl = STRBUF_INIT;
			for (size_t k = 0; k < ns; k++)
				strbuf_addf(&sl, "%s'%s' (line %d)", k ? ", " : "", cx_callee(sinks[k]), sinks[k]->line);
			struct cons_finding *f = add_finding(x, CONS_DIVERGENCE, df->at, df->line, df->col, v->name,
				"'%s' is derived from '%s' ('%s') but combined with '%s', which is not in the mask, "
				"while '%s' still flows to %s: the flag and the mask now disagree; "
				"change the mask (clear the bit) or the caller instead",
				v->name, mask, bit, ft, mask, sl.buf);
			add_ev(f, d->d[first].line, "store: '%s' derived from '%s'", v->name, mask);
			if (df->line != d->d[first].line)
				add_ev(f, df->line, "store: '%s' combined with '%s'", v->name, ft);
			for (size_t k = 0; k < ns; k++)
				add_ev(f, sinks[k]->line, "call: '%s' still reaches '%s'", mask, cx_callee(sinks[k]));
			free(ft);
			strbuf_release(&sl);
		}
		free(d);
	}
}

/* sparse's warnings on lines that involve alloc_flags become mix findings. */
static void merge_sparse(struct csrc *c, const struct cons_opts *o, const char *path, struct cons_result *out)
{
	struct sparse_warning *w;
	size_t nw;
	if (sparse_run(path, o->tree, o->include_dir, &w, &nw)) {
		out->sparse_note = xstrdup(err_last());
		return;
	}
	for (size_t i = 0; i < nw; i++) {
		bool alloc_line = false;
		for (size_t k = 0; k < c->ntoks && !alloc_line; k++)
			if (c->toks[k].line == w[i].line &&
			    (!strncmp(c->toks[k].text, "ALLOC_", 6) || strstr(c->toks[k].text, "alloc_flags")))
				alloc_line = true;
		if (!alloc_line)
			continue;
		bool merged = false;
		for (size_t k = 0; k < out->n; k++)
			if (out->f[k].rule == CONS_MIX && out->f[k].line == w[i].line) {
				out->f[k].sparse = true;
				merged = true;
			}
		if (merged)
			continue;
		const char *fn = "";
		for (size_t k = 0; k < c->nfuncs; k++) {
			struct cfunc *f = &c->funcs[k];
			if (c->toks[f->body_tb].line <= w[i].line && c->toks[f->body_te - 1].line >= w[i].line)
				fn = f->name;
		}
		ALLOC_GROW(out->f, out->n + 1, out->alloc);
		struct cons_finding *f = &out->f[out->n++];
		memset(f, 0, sizeof(*f));
		f->rule = CONS_MIX;
		f->line = w[i].line;
		f->col = w[i].col;
		f->function = xstrdup(fn);
		f->subject = xstrdup("gfp_t");
		f->expr = xasprintf("sparse:%s", w[i].text);
		const char *txt = w[i].text;
		if (!strncmp(txt, "warning: ", 9))
			txt += 9;
		f->message = xasprintf("sparse: %s (a gfp mask mixed with alloc_flags)", txt);
		f->sparse = true;
	}
	sparse_warnings_free(w, nw);
}

/* ---- driver ---- */

static void file_aliases(struct fnctx *x, struct csrc *c, const struct slowpath_model *m,
			 const char **g, const char **a, size_t cap)
{
	size_t n = 0;
	if (m)
		for (size_t i = 0; i < m->naliases && n < cap; i++) {
			g[n] = m->aliases[i].gfp;
			a[n++] = m->aliases[i].alloc;
		}
	const struct ctok *t = c->toks;
	for (size_t i = 0; i + 1 < c->ntoks && n < cap; i++) {
		if (strcmp(t[i].text, "BUILD_BUG_ON") || strcmp(t[i + 1].text, "("))
			continue;
		const char *gg = NULL, *aa = NULL;
		int depth = 0;
		for (size_t k = i + 1; k < c->ntoks; k++) {
			if (!strcmp(t[k].text, "(")) depth++;
			else if (!strcmp(t[k].text, ")") && --depth == 0) break;
			else if (!strcmp(t[k].text, "==")) { gg = aa = NULL; break; }
			if (!strncmp(t[k].text, "__GFP_", 6)) gg = t[k].text;
			if (!strncmp(t[k].text, "ALLOC_", 6)) aa = t[k].text;
		}
		if (!gg || !aa)
			continue;
		bool dup = false;
		for (size_t k = 0; k < n; k++)
			dup |= !strcmp(g[k], gg) && !strcmp(a[k], aa);
		if (!dup) {
			g[n] = gg;
			a[n++] = aa;
		}
	}
	x->naliases = n;
	x->alias_where = NULL;
	if (m && m->naliases && m->aliases[0].line && m->facts[SPF_ALLOC_FLAGS].file) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "asserted with BUILD_BUG_ON at %s:", m->facts[SPF_ALLOC_FLAGS].file);
		for (size_t i = 0; i < m->naliases; i++)
			strbuf_addf(&sb, "%s%d", i ? "," : "", m->aliases[i].line);
		x->alias_owned = strbuf_detach(&sb);
		x->alias_where = x->alias_owned;
	} else if (n > (m ? m->naliases : 0))
		x->alias_where = "asserted with BUILD_BUG_ON in this file";
	else if (m && m->naliases)
		x->alias_where = m->aliases[0].line ? "asserted with BUILD_BUG_ON in the tree" : "built-in allocator model";
}

static int cmp_finding(const void *a, const void *b)
{
	const struct cons_finding *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return (int)x->rule - (int)y->rule;
}

int consistency_check(const char *path, const char *contents, size_t len,
		      const struct cons_opts *o, struct cons_result *out)
{
	memset(out, 0, sizeof(*out));
	struct csrc *c;
	const struct kconf *cfg = NULL;
	int rc = csrc_parse(path, contents, len, cfg, &c);
	if (rc)
		return rc;
	const char *ag[16], *aa[16];
	struct fnctx base = { .c = c, .o = o, .out = out, .path = path, .alias_gfp = ag, .alias_alloc = aa };
	file_aliases(&base, c, o->model, ag, aa, 16);
	for (size_t i = 0; i < c->nfuncs; i++) {
		struct fnctx x = base;
		x.f = &c->funcs[i];
		/* only functions that touch masks at all */
		bool relevant = false;
		for (size_t k = x.f->body_tb; k < x.f->body_te && !relevant; k++)
			relevant = !strncmp(c->toks[k].text, "__GFP_", 6) || !strncmp(c->toks[k].text, "ALLOC_", 6) ||
				   strstr(c->toks[k].text, "gfp");
		for (size_t k = 0; k < x.f->nparams && !relevant; k++)
			relevant = strstr(x.f->params[k].type, "gfp_t") != NULL;
		if (!relevant)
			continue;
		x.body = csrc_body(c, x.f);
		function_vars(&x);
		cfg_build(&x.g, x.body);
		if (o->rules & CONS_DIVERGENCE)
			check_divergence(&x);
		if (o->rules & CONS_STALE)
			check_stale(&x);
		if (o->rules & CONS_MIX)
			check_mix(&x);
		cfg_release(&x.g);
		free(x.v);
	}
	free(base.alias_owned);
	if ((o->rules & CONS_MIX) && o->sparse) {
		bool candidate = false;
		for (size_t k = 0; k < c->ntoks && !candidate; k++)
			candidate = !strncmp(c->toks[k].text, "ALLOC_", 6);
		if (candidate)
			merge_sparse(c, o, path, out);
	}
	if (out->n > 1)
		qsort(out->f, out->n, sizeof(*out->f), cmp_finding);
	csrc_free(c);
	return 0;
}
