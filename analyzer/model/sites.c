/* Site discovery (see sites.h). */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <stdio.h>
#include "gfpaudit/sites.h"
#include "gfpaudit/eval.h"
#include "gfpaudit/attempts.h"
#include "gfpaudit/usage.h"
#include "gfpaudit/callers.h"
#include "gfpaudit/frees.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

#define MAX_WRAPPER_PASSES 3

/* One allocator call in one function, joined over every time the
 * interpreter reached it (loops reach it several times). */
struct call_rec {
	struct node *call;
	const struct alloc_entry *ent;
	struct aval gfp, order, size, count;
	bool has_gfp, has_order, has_size, has_count;
	int visits;
	/* the same call's order, size and count with the module parameters at
	 * their defaults (defaults_run), when the function reads any */
	struct aval dorder, dsize, dcount;
	bool has_dorder, has_dsize, has_dcount;
};

/* Does a call's order, size or count read a module parameter? */
static bool reads_param(const struct call_rec *r)
{
	return ((r->has_order ? r->order.src : 0) | (r->has_size ? r->size.src : 0) |
		(r->has_count ? r->count.src : 0)) & SRCB(PARAM);
}

/* What the callers in this file pass to a static function's parameters. */
struct binding {
	const char *name;
	struct aval *args;
	unsigned nargs;
	bool seen;
};

struct fn_scan {
	const struct tu *tu;
	const struct sites_opts *o;
	struct fn_model *fn;
	struct call_rec *recs;
	size_t n, alloc;
	struct binding *bind;   /* collect arguments of calls to these */
	size_t nbind;
	struct summary_cache *cache;
	const struct aval *args; /* what the run bound the parameters to */
	unsigned nargs;
	bool kv_def;             /* the function is a kvmalloc-family helper's definition */
	struct file_result *facts_out; /* observations for the fact base, or NULL */
	const struct usage_scope *scope; /* the file's functions, for contiguity */
};

static void on_fact(void *data, const char *key, const struct aval *v, unsigned line)
{
	struct fn_scan *s = data;
	if (s->facts_out && key)
		file_result_add_fact(s->facts_out, key, v->iv, v->src, (int)line);
}

/* What a call in the file passes to a function: observations of its
 * parameters (calls to allocators are sites, not facts). */
static void note_call_args(struct fn_scan *s, struct node *call, const struct aval *args, unsigned nargs)
{
	if (!s->facts_out || !call->line)
		return;
	CXCursor ref = clang_getCursorReferenced(call->cur);
	if (clang_getCursorKind(ref) != CXCursor_FunctionDecl)
		return;
	for (unsigned i = 0; i < nargs && i < 16; i++) {
		char *key = eval_param_key(ref, s->o->report_path, (int)i);
		if (key) /* none for an address */
			file_result_add_fact(s->facts_out, key, args[i].iv, args[i].src, (int)call->line);
		free(key);
	}
}

/* ---- argument resolution ---- */

static int param_index_in(CXCursor decl, const char *name, bool *named)
{
	int n = clang_Cursor_getNumArguments(decl);
	for (int i = 0; i < n; i++) {
		CXString s = clang_getCursorSpelling(clang_Cursor_getArgument(decl, (unsigned)i));
		const char *p = clang_getCString(s);
		int eq = p && !strcmp(p, name);
		if (p && *p)
			*named = true;
		clang_disposeString(s);
		if (eq)
			return i;
	}
	return -1;
}

/* Parameter names can be missing on the declaration the call refers to;
 * try the canonical declaration and the definition too. */
static int param_index(CXCursor decl, const char *name)
{
	CXCursor cands[3] = { decl, clang_getCanonicalCursor(decl), clang_getCursorDefinition(decl) };
	for (int k = 0; k < 3; k++) {
		bool named = false;
		if (clang_Cursor_isNull(cands[k]))
			continue;
		int i = param_index_in(cands[k], name, &named);
		if (i >= 0)
			return i;
	}
	return -1;
}

static int gfp_param_index(CXCursor decl)
{
	int n = clang_Cursor_getNumArguments(decl);
	for (int i = 0; i < n; i++) {
		CXType t = clang_getCursorType(clang_Cursor_getArgument(decl, (unsigned)i));
		CXString s = clang_getTypeSpelling(t);
		int is = strstr(clang_getCString(s), "gfp_t") != NULL;
		clang_disposeString(s);
		if (is)
			return i;
	}
	return -1;
}

/* The argument node index for a role, or -1. */
static int role_index(const struct node *call, const struct arg_ref *r, bool is_gfp)
{
	CXCursor decl = clang_getCursorReferenced(call->cur);
	switch (r->how) {
	case ARG_INDEX:
		return r->index;
	case ARG_PARAM:
		return clang_Cursor_isNull(decl) ? -1 : param_index(decl, r->text);
	case ARG_NONE:
		return is_gfp && !clang_Cursor_isNull(decl) ? gfp_param_index(decl) : -1;
	default:
		return -1;
	}
}

static bool role_const(const struct tu *t, const struct arg_ref *r, const struct alloc_entry *e,
		       bool is_gfp, struct aval *out)
{
	if (r->how != ARG_CONST)
		return false;
	long long v;
	if (is_gfp && e->probe >= 0 && tu_probe_value(t, (size_t)e->probe, &v)) {
		*out = aval_unknown();
		out->g = gfp_const(aval_canon(t, v));
		out->iv = iv_const(v);
		return true;
	}
	if (!is_gfp && r->text && isdigit((unsigned char)r->text[0])) {
		v = strtoll(r->text, NULL, 0);
		*out = aval_unknown();
		out->iv = iv_const(v);
		out->iv.known = true;
		out->g = gfp_const(aval_canon(t, v));
		return true;
	}
	return false;
}

/* ---- the call hook ---- */

static bool is_alloc_name(void *data, const char *name)
{
	struct fn_scan *s = data;
	return alloc_table_find(s->o->table, name) != NULL;
}

static void join_into(struct aval *dst, bool *has, const struct aval *v)
{
	*dst = *has ? aval_join(*dst, *v) : *v;
	*has = true;
}

static void dump(const struct node *n, int depth)
{
	long long v = 0;
	bool c = tu_eval_int(n->cur, &v);
	fprintf(stderr, "%*s kind %d op %s name %s var %d line %u %s%lld\n", depth * 2, "", n->kind,
		n->op ? n->op : "-", n->name ? n->name : "-", n->var, n->line, c ? "const " : "", v);
	for (unsigned i = 0; i < n->nkids; i++)
		dump(n->kids[i], depth + 1);
}

static void on_call(struct eval_ctx *cx, struct node *call, const struct aval *args, unsigned nargs,
		    const struct state *st)
{
	struct fn_scan *s = cx->data;
	(void)st;
	if (debug_on())
		fprintf(stderr, "debug: call %s line %u\n", call->name ? call->name : "?", call->line);
	for (size_t b = 0; call->name && b < s->nbind; b++) {
		struct binding *bd = &s->bind[b];
		if (strcmp(bd->name, call->name) || nargs != bd->nargs)
			continue;
		for (unsigned i = 0; i < nargs; i++)
			bd->args[i] = bd->seen ? aval_join(bd->args[i], args[i]) : args[i];
		bd->seen = true;
	}
	if (!call->name || !call->line)
		return;
	const struct alloc_entry *e = alloc_table_find(s->o->table, call->name);
	if (!e) {
		note_call_args(s, call, args, nargs);
		return;
	}
	struct call_rec *r = NULL;
	for (size_t i = 0; i < s->n; i++)
		if (s->recs[i].call == call)
			r = &s->recs[i];
	if (!r) {
		ALLOC_GROW(s->recs, s->n + 1, s->alloc);
		r = &s->recs[s->n++];
		memset(r, 0, sizeof(*r));
		r->call = call;
		r->ent = e;
	}
	r->visits++;
	struct aval v;
	int gi = role_index(call, &e->gfp, true);
	if (debug_on())
		fprintf(stderr, "debug: allocator %s gfp arg %d of %u: iv %lld..%lld must %llx may %llx kind %d\n", call->name, gi, nargs,
			gi >= 0 ? (long long)args[gi].iv.lo : 0, gi >= 0 ? (long long)args[gi].iv.hi : 0,
			gi >= 0 ? (unsigned long long)args[gi].g.must : 0, gi >= 0 ? (unsigned long long)args[gi].g.may : 0,
			gi >= 0 ? (int)node_arg(call, gi)->kind : -1);
	if (debug_on() && getenv("GFPAUDIT_DUMP") && gi >= 0)
		dump(node_arg(call, gi), 1);
	if (gi >= 0 && (unsigned)gi < nargs) {
		v = args[gi];
		if (e->wrapper && e->gfp.how == ARG_INDEX) {
			struct aval w = v;
			w.g.must = (v.g.must & ~e->gfp_clr_may) | e->gfp_set_must;
			w.g.may = (v.g.may & ~e->gfp_clr) | e->gfp_set_may;
			v = w;
		}
		join_into(&r->gfp, &r->has_gfp, &v);
	} else if (role_const(s->tu, &e->gfp, e, true, &v)) {
		join_into(&r->gfp, &r->has_gfp, &v);
	} else if (e->wrapper && e->gfp_fixed) {
		v = aval_unknown();
		v.g = e->gfp_bits;
		join_into(&r->gfp, &r->has_gfp, &v);
	}
	int oi = role_index(call, &e->order, false);
	if (debug_on())
		fprintf(stderr, "debug:   entry %s order how %d text %s -> %d\n", e->name, e->order.how, e->order.text ? e->order.text : "-", oi);
	if (debug_on() && oi >= 0 && (unsigned)oi < nargs)
		fprintf(stderr, "debug:   order arg %lld..%lld param %d\n", (long long)args[oi].iv.lo,
			(long long)args[oi].iv.hi, args[oi].param);
	if (oi >= 0 && (unsigned)oi < nargs)
		join_into(&r->order, &r->has_order, &args[oi]);
	else if (role_const(s->tu, &e->order, e, false, &v))
		join_into(&r->order, &r->has_order, &v);
	int si = role_index(call, &e->size, false);
	if (si >= 0 && (unsigned)si < nargs)
		join_into(&r->size, &r->has_size, &args[si]);
	int ci = role_index(call, &e->count, false);
	if (ci >= 0 && (unsigned)ci < nargs)
		join_into(&r->count, &r->has_count, &args[ci]);
}

/* ---- syntax helpers for fallbacks ---- */

static bool has_alloc_call(const struct node *n, const struct alloc_table *tab);

/* A copy of s without blanks (C text compared as written, spacing aside). */
static char *no_blanks(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *w = out;
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			*w++ = *s;
	*w = 0;
	return out;
}

/* The text of a call's argument for a role, blanks dropped ("" when the
 * call has no such argument).  Caller frees. */
static char *role_text(const struct tu *t, const struct node *call, const struct arg_ref *r)
{
	int i = role_index(call, r, false);
	const struct node *a = i >= 0 ? node_arg(call, (unsigned)i) : NULL;
	char *s = a ? node_text(t, a) : NULL;
	char *bare = no_blanks(s ? s : "");
	free(s);
	return bare;
}

/* Does `b` ask for what `a` asked for again (the same size and count
 * written the same way: `p = kzalloc(size); if (!p) p = kzalloc(size);`)?
 * Such a retry is no smaller, so it is no fallback. */
static bool same_request(const struct tu *t, const struct call_rec *a, const struct call_rec *b)
{
	char *sa = role_text(t, a->call, &a->ent->size), *sb = role_text(t, b->call, &b->ent->size);
	char *ca = role_text(t, a->call, &a->ent->count), *cb = role_text(t, b->call, &b->ent->count);
	bool same = *sa && !strcmp(sa, sb) && !strcmp(ca, cb);
	free(sa);
	free(sb);
	free(ca);
	free(cb);
	return same;
}

/* Collect local variables referenced in a subtree. */
static void vars_in(const struct node *n, int *vars, int *nv, int max)
{
	node_vars(n, false, vars, nv, max);
}

/* A node modifying variable v: v--, v -= k, v >>= k, v = ... (not a decl),
 * at or after byte offset `after` (0: anywhere). */
static const struct node *modifies_after(const struct node *n, int v, unsigned after)
{
	if (node_modifies(n, v) && n->off >= after)
		return n;
	for (unsigned i = 0; i < n->nkids; i++) {
		const struct node *m = modifies_after(n->kids[i], v, after);
		if (m)
			return m;
	}
	return NULL;
}

static const struct node *modifies(const struct node *n, int v)
{
	return modifies_after(n, v, 0);
}

/* In loop `l`, a change of v that happens after the call: in the rest of
 * the body, or in the condition / increment evaluated between iterations. */
static const struct node *loop_step_after(struct node *l, int v, const struct node *call)
{
	struct node *init, *cond, *inc, *body;
	if (l->kind == CXCursor_ForStmt) {
		node_for_parts(l, &init, &cond, &inc, &body);
	} else if (l->kind == CXCursor_WhileStmt && l->nkids >= 2) {
		cond = l->kids[0], inc = NULL, body = l->kids[l->nkids - 1];
	} else if (l->kind == CXCursor_DoStmt && l->nkids >= 2) {
		cond = l->kids[l->nkids - 1], inc = NULL, body = l->kids[0];
	} else {
		return NULL;
	}
	const struct node *m = NULL;
	if (cond && (m = modifies(cond, v)))
		return m;
	if (inc && (m = modifies(inc, v)))
		return m;
	return body ? modifies_after(body, v, call->off + 1) : NULL;
}

/* Does the modification lower the value? (decrement, -=, >>=, /=, or an
 * assignment inside the loop, which we accept as a retry at another order) */
static bool lowers(const struct node *m)
{
	if (m->kind == CXCursor_UnaryOperator)
		return !strcmp(m->op, "--");
	if (m->kind == CXCursor_CompoundAssignOperator)
		return !strcmp(m->op, "-=") || !strcmp(m->op, ">>=") || !strcmp(m->op, "/=");
	return true;
}

static const struct node *find_goto_back(const struct node *n, const struct node *call)
{
	if (n->kind == CXCursor_GotoStmt && n->line > call->line && n->name) {
		return n;
	}
	for (unsigned i = 0; i < n->nkids; i++) {
		const struct node *g = find_goto_back(n->kids[i], call);
		if (g)
			return g;
	}
	return NULL;
}

static const struct node *find_label(const struct node *n, const char *name)
{
	if (n->kind == CXCursor_LabelStmt && n->name && !strcmp(n->name, name))
		return n;
	for (unsigned i = 0; i < n->nkids; i++) {
		const struct node *l = find_label(n->kids[i], name);
		if (l)
			return l;
	}
	return NULL;
}

/* The statement/expression the allocation's value goes to. */
static struct node *result_target(struct node *call, char **lvalue, const struct tu *t)
{
	struct node *n = call;
	*lvalue = NULL;
	/* jump over the alloc_hooks() statement expression around the call */
	for (struct node *p = call->parent; p; p = p->parent)
		if (p->kind == CXCursor_StmtExpr && p->line == call->line && p->col == call->col)
			n = p;
	for (struct node *p = n->parent; p; n = p, p = p->parent) {
		switch (p->kind) {
		case CXCursor_ParenExpr:
		case CXCursor_UnexposedExpr:
		case CXCursor_CStyleCastExpr:
			continue;
		case CXCursor_BinaryOperator:
			if (p->op && !strcmp(p->op, "=") && p->nkids == 2 && p->kids[1] == n) {
				*lvalue = node_text(t, p->kids[0]);
				return p;
			}
			return p;
		case CXCursor_VarDecl:
			*lvalue = xstrdup(p->name ? p->name : "");
			return p;
		default:
			return p;
		}
	}
	return n;
}

/* Is `cond` a test that `lv` is NULL (when true)? */
/* `s` (no blanks) without the parentheses around all of it and without a
 * likely()/unlikely() around all of it, in place. */
static char *strip_wrappers(char *s)
{
	for (;;) {
		size_t n = strlen(s);
		const char *w = !strncmp(s, "unlikely(", 9) ? "unlikely(" : !strncmp(s, "likely(", 7) ? "likely(" : "(";
		size_t wl = strlen(w);
		if (n <= wl || strncmp(s, w, wl) || s[n - 1] != ')')
			return s;
		int depth = 0;
		bool whole = true;
		for (size_t k = wl - 1; k < n - 1; k++) {
			depth += s[k] == '(' ? 1 : s[k] == ')' ? -1 : 0;
			if (depth == 0) {
				whole = false; /* "(a)&&(b)": the first ( closes early */
				break;
			}
		}
		if (!whole)
			return s;
		s[n - 1] = 0;
		s += wl;
	}
}

/* 1: `e` is exactly a failure test of lv (!lv, lv == NULL, IS_ERR_OR_NULL(lv)),
 * 0: exactly a success test (lv, lv != NULL, !!lv), -1: neither. */
static int null_test_kind(char *e, const char *lv)
{
	e = strip_wrappers(e);
	char *f1 = xasprintf("!%s", lv), *f2 = xasprintf("%s==NULL", lv), *f3 = xasprintf("NULL==%s", lv),
	     *f4 = xasprintf("IS_ERR_OR_NULL(%s)", lv), *s2 = xasprintf("%s!=NULL", lv), *s3 = xasprintf("NULL!=%s", lv),
	     *s4 = xasprintf("!!%s", lv);
	int k = -1;
	char *inner = e[0] == '!' && e[1] == '(' ? xstrdup(e + 1) : NULL;
	if (inner && !strcmp(strip_wrappers(inner), lv))
		k = 1; /* !(lv) */
	else if (!strcmp(e, f1) || !strcmp(e, f2) || !strcmp(e, f3) || !strcmp(e, f4))
		k = 1;
	else if (!strcmp(e, lv) || !strcmp(e, s2) || !strcmp(e, s3) || !strcmp(e, s4))
		k = 0;
	free(f1);
	free(f2);
	free(f3);
	free(f4);
	free(s2);
	free(s3);
	free(s4);
	free(inner);
	return k;
}

/* Split `e` at its top-level `op` ("||" or "&&"): the operands, in place. */
static size_t split_top_level(char *e, const char *op, char **parts, size_t max)
{
	size_t n = 0;
	int depth = 0;
	parts[n++] = e;
	for (char *q = e; *q && n < max; q++) {
		depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
		if (depth == 0 && q[0] == op[0] && q[1] == op[1]) {
			*q = 0;
			q++;
			parts[n++] = q + 1;
		}
	}
	return n;
}

/* Does `cond` test whether lv is NULL?  *when_true: the condition holds on
 * failure.  Only the condition itself, or an operand of its top-level ||
 * or &&, counts: a condition that merely names lv
 * (`!copy_from_iter_full(buf, ...)`) does not. */
static bool tests_null(const struct tu *t, struct node *cond, const char *lv, bool *when_true)
{
	if (!lv || !*lv)
		return false;
	char *txt = node_text(t, cond);
	char *nb = no_blanks(txt), *lvn = no_blanks(lv);
	bool r = false;
	char *e = strip_wrappers(nb);
	char *whole = xstrdup(e);
	int k = null_test_kind(whole, lvn);
	free(whole);
	if (k >= 0) {
		r = true;
		*when_true = k == 1;
	} else {
		/* an operand of a top-level || or && that tests lv says which
		 * branch failure reaches: `ret || small` falls through only on
		 * failure, `!p || x` and `!p && x` take the branch on it */
		static const char *const ops[] = { "||", "&&" };
		for (size_t o2 = 0; o2 < 2 && !r; o2++) {
			char *parts[16];
			char *copy = xstrdup(e);
			size_t n = split_top_level(copy, ops[o2], parts, 16);
			for (size_t i = 0; n > 1 && i < n && !r; i++) {
				int pk = null_test_kind(parts[i], lvn);
				if (pk >= 0) {
					r = true;
					*when_true = pk == 1;
				}
			}
			free(copy);
		}
	}
	free(nb);
	free(lvn);
	free(txt);
	return r;
}

/* A goto in `n` back to a label of `root` placed before `call`. */
static const struct node *goto_back_in(const struct node *root, const struct node *n, const struct node *call)
{
	if (n->kind == CXCursor_GotoStmt && n->name) {
		const struct node *lab = find_label(root, n->name);
		if (lab && lab->off < call->off)
			return n;
	}
	for (unsigned i = 0; i < n->nkids; i++) {
		const struct node *g = goto_back_in(root, n->kids[i], call);
		if (g)
			return g;
	}
	return NULL;
}

/* A slab size retried smaller on NULL (the size is not an order, so the
 * order-loop tests do not apply): after the call, the branch of an `if`
 * taken when `lv` is NULL lowers the size variable v and jumps back to a
 * label before the call.  A goto back outside the failure branch (a buffer
 * allocated again for the next piece) is not a fallback.  Returns the
 * lowering. */
static const struct node *size_goto_retry(const struct tu *t, const struct node *root, const struct node *n,
					   const struct node *call, const char *lv, int v)
{
	if (n->kind == CXCursor_IfStmt && n->nkids >= 2 && n->off > call->off) {
		bool when_true;
		if (tests_null(t, n->kids[0], lv, &when_true)) {
			const struct node *br = when_true ? n->kids[1] : (n->nkids >= 3 ? n->kids[2] : NULL);
			const struct node *g = br ? goto_back_in(root, br, call) : NULL;
			const struct node *m = g ? modifies(br, v) : NULL;
			if (m && lowers(m) && m->off < g->off)
				return m;
		}
	}
	for (unsigned i = 0; i < n->nkids; i++) {
		const struct node *m = size_goto_retry(t, root, n->kids[i], call, lv, v);
		if (m)
			return m;
	}
	return NULL;
}

static bool name_has(const struct node *n, const char *needle)
{
	if (n->name && strstr(n->name, needle))
		return true;
	for (unsigned i = 0; i < n->nkids; i++)
		if (name_has(n->kids[i], needle))
			return true;
	return false;
}

static char *line_text(const struct tu *t, unsigned line)
{
	const char *p = t->main_text, *end = t->main_text + t->main_len;
	for (unsigned l = 1; l < line && p < end; p++)
		if (*p == '\n')
			l++;
	const char *e = p;
	while (e < end && *e != '\n')
		e++;
	while (p < e && isspace((unsigned char)*p))
		p++;
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	size_t n = (size_t)(e - p);
	if (n > 120)
		n = 120;
	return xstrndup(p, n);
}

static void add_ev(struct site *s, const struct tu *t, const char *file, unsigned line, const char *what)
{
	if (!line)
		return;
	char *txt = line_text(t, line);
	char *note = xasprintf("%s: %s", what, txt);
	site_add_evidence(s, file, (int)line, note);
	free(note);
	free(txt);
}

/* A line the value of the call's mask, order or size (`what`) comes from,
 * labelled by what the line does to it: "guard (order): if (order > 3)"
 * when a condition bounds it, else "store (order): order = ...", with
 * "caller " before a line outside the function (a caller's argument, from
 * the fact base).  The call's own line is left to the "call:" note. */
static bool starts_word(const char *p, const char *w)
{
	size_t n = strlen(w);
	return !strncmp(p, w, n) && !isalnum((unsigned char)p[n]) && p[n] != '_';
}

static void add_value_ev(struct site *s, const struct tu *t, const char *file, unsigned line, unsigned call_line,
			 const struct fn_model *fn, const char *what)
{
	if (!line || line == call_line)
		return;
	/* outside the function: a caller's line (the fact base's bindings) */
	unsigned lo = 0, hi = 0;
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(fn->cur)), NULL, &lo, NULL, NULL);
	clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(fn->cur)), NULL, &hi, NULL, NULL);
	bool caller = lo && hi && (line < lo || line > hi);
	char *txt = line_text(t, line);
	const char *p = txt;
	if (*p == '}')
		for (p++; isspace((unsigned char)*p); p++)
			;
	if (starts_word(p, "else"))
		for (p += 4; isspace((unsigned char)*p); p++)
			;
	bool guard = starts_word(p, "if") || starts_word(p, "while") || starts_word(p, "for") ||
		     starts_word(p, "switch") || starts_word(p, "case") || !strncmp(p, "&&", 2) ||
		     !strncmp(p, "||", 2);
	char *note = xasprintf("%s%s (%s): %s", caller ? "caller " : "", guard ? "guard" : "store", what, txt);
	site_add_evidence(s, file, (int)line, note);
	free(note);
	free(txt);
}

/* Does the statement always leave (return, goto, break, continue)? */
static bool always_exits(const struct node *n)
{
	if (!n)
		return false;
	switch (n->kind) {
	case CXCursor_ReturnStmt:
	case CXCursor_GotoStmt:
	case CXCursor_BreakStmt:
	case CXCursor_ContinueStmt:
		return true;
	case CXCursor_CompoundStmt:
		return n->nkids && always_exits(n->kids[n->nkids - 1]);
	case CXCursor_IfStmt:
		return n->nkids >= 3 && always_exits(n->kids[n->nkids - 2]) && always_exits(n->kids[n->nkids - 1]);
	default:
		return false;
	}
}

/* Is `later` past an exit taken on one outcome of `call` whose result is
 * `lv`: after an `if (lv) <leave>;` (on_failure false: success leaves, so
 * `later` is on the failure path) or an `if (!lv) <leave>;` (on_failure
 * true: a failed call never gets there, and an allocation there is for
 * something else) in an enclosing block? */
static bool after_exit(const struct tu *t, const struct node *call, const struct node *later, const char *lv,
		       bool on_failure)
{
	for (const struct node *p = call; p && p->parent; p = p->parent) {
		const struct node *blk = p->parent;
		if (blk->kind != CXCursor_CompoundStmt || !node_contains(blk, later))
			continue;
		for (unsigned i = 0; i < blk->nkids; i++) {
			struct node *k = blk->kids[i];
			bool when_true;
			if (k->off <= call->off || k->off >= later->off || k->kind != CXCursor_IfStmt || k->nkids < 2 ||
			    node_contains(k, later))
				continue;
			if (tests_null(t, k->kids[0], lv, &when_true) && when_true == on_failure &&
			    always_exits(k->kids[1]))
				return true;
		}
	}
	return false;
}

/* A loop over a mask of allowed orders: the order is taken from a mask
 * variable in the loop (`order = __fls(orders)`, `order =
 * highest_order(orders)`) and the mask loses the failed order after the
 * call (`orders &= ~BIT(order)`, `order = next_order(&orders, order)`).
 * Returns the statement that steps the mask. */
static const struct node *loop_mask_step(struct node *l, int v, const struct node *call)
{
	const struct node *m = modifies(l, v);
	if (!m || m->off > call->off || m->nkids < 2)
		return NULL;
	int vars[4], nv = 0;
	vars_in(m->kids[m->nkids - 1], vars, &nv, 4);
	for (int i = 0; i < nv; i++) {
		if (vars[i] == v)
			continue;
		const struct node *step = loop_step_after(l, vars[i], call);
		if (step && step->kind == CXCursor_CompoundAssignOperator && step->op &&
		    (!strcmp(step->op, "&=") || !strcmp(step->op, "^=")))
			return step;
		if (step && lowers(step))
			return step;
	}
	return NULL;
}

static bool is_jump(const struct node *n, const void *arg)
{
	(void)arg;
	return n->kind == CXCursor_GotoStmt || n->kind == CXCursor_BreakStmt || n->kind == CXCursor_ContinueStmt ||
	       n->kind == CXCursor_IndirectGotoStmt;
}

static bool has_jump(const struct node *n)
{
	if (is_jump(n, NULL))
		return true;
	for (unsigned i = 0; i < n->nkids; i++)
		if (has_jump(n->kids[i]))
			return true;
	return false;
}

/* Does later never run after call?  A block on the way up from call has a
 * `return` of its own past call (`if (!t->q) { q = alloc(); if (!q) return
 * -ENOMEM; ...; return 0; } if (grow) q = alloc();`), or, in the block that
 * holds both, a `return` or `break` comes between them (two cases of a
 * switch); or, for a failed call, a test of its result lv whose failure
 * branch returns (`if (buf) { ... } else { ...; return; }`) comes first.
 * Not when a goto, break or continue before that exit may leave the way, or
 * a label before later may be jumped to. */
static bool unreachable_after(const struct tu *t, const struct node *call, const struct node *later, const char *lv)
{
	for (const struct node *p = call; p && p->parent; p = p->parent) {
		const struct node *blk = p->parent;
		if (node_contains(p, later))
			return false;
		if (blk->kind != CXCursor_CompoundStmt)
			continue;
		bool both = node_contains(blk, later);
		bool jump = false;
		for (unsigned i = 0; i < blk->nkids; i++) {
			const struct node *k = blk->kids[i];
			if (k->off < p->off)
				continue;
			if (both && (node_contains(k, later) || k->kind == CXCursor_LabelStmt))
				return false;
			if (k != p && (k->kind == CXCursor_ReturnStmt || (both && k->kind == CXCursor_BreakStmt)))
				return !jump;
			bool when_true;
			if (k != p && k->kind == CXCursor_IfStmt && k->nkids >= 2 && tests_null(t, k->kids[0], lv, &when_true)) {
				const struct node *fail = when_true ? k->kids[1] : k->nkids >= 3 ? k->kids[2] : NULL;
				if (fail && always_exits(fail) && !has_jump(fail))
					return !jump;
			}
			jump = jump || has_jump(k);
		}
		if (both || jump)
			return false;
	}
	return false;
}

/* Are a and b in different branches of one if/else (never both run)? */
static bool exclusive(const struct node *a, const struct node *b)
{
	for (const struct node *p = a->parent; p; p = p->parent) {
		if (p->kind != CXCursor_IfStmt || p->nkids < 3 || !node_contains(p, b))
			continue;
		const struct node *t = p->kids[p->nkids - 2], *e = p->kids[p->nkids - 1];
		if ((node_contains(t, a) && node_contains(e, b)) || (node_contains(e, a) && node_contains(t, b)))
			return true;
	}
	return false;
}

/* ---- building sites ---- */

/* A failure the function returns, and every caller the tree shows copes
 * with it (callers.h): a fallback in the callers. */
static void caller_fallback(struct fn_scan *s, const struct call_rec *r, struct site *st)
{
	static const enum fallback_kind kind[] = {
		[CALLER_FEATURE_OFF] = FB_CALLER_OFF, [CALLER_OTHER_PATH] = FB_CALLER_PATH,
		[CALLER_SMALLER] = FB_CALLER_SMALLER,
	};
	struct caller_fallback cf;
	if (!s->o->facts || !s->fn->in_main || !s->fn->name || !callers_failure_returns(s->tu, r->call, NULL) ||
	    !callers_cope(s->o->facts, s->tu, s->scope ? s->scope->fns : NULL, s->scope ? s->scope->n : 0,
			  s->o->table, s->fn->cur, s->o->report_path, &cf))
		return;
	st->fallback = kind[cf.how];
	st->fallback_line = cf.line;
	if (strcmp(cf.file, st->file))
		st->fallback_file = xstrdup(cf.file);
	char *via = cf.via ? xasprintf(" (handed on by '%s')", cf.via) : xstrdup("");
	char *note = xasprintf("caller: %s returns the failure%s, and %s %s (%s, %u call%s across the tree)",
			       s->fn->name, via, cf.ncallers == 1 ? "its caller" : "every caller",
			       cf.how == CALLER_SMALLER ? "retries smaller" : cf.how == CALLER_OTHER_PATH
			       ? "falls back to another allocation" : "goes on without it",
			       caller_handling_name(cf.how), cf.ncallers, cf.ncallers == 1 ? "" : "s");
	site_add_evidence(st, cf.file, cf.line, note);
	free(note);
	free(via);
	free(cf.file);
	free(cf.via);
}

struct floor_info {
	bool have;
	int var;
	char *text;
	struct interval k;
	int rhs_var; /* F is a local variable (a symbolic floor), else -1 */
};

/* The loop's floor: the order the loop stops at, from `V-- > F`, `V > F`,
 * `V >= F`. */
static void loop_floor(const struct tu *t, struct node *loop, int v, struct floor_info *fl,
		       struct fn_model *fn, const struct call_rec *r)
{
	struct node *cond = NULL;
	if (loop->kind == CXCursor_WhileStmt && loop->nkids >= 2)
		cond = loop->kids[0];
	else if (loop->kind == CXCursor_DoStmt && loop->nkids >= 2)
		cond = loop->kids[loop->nkids - 1];
	else if (loop->kind == CXCursor_ForStmt) {
		struct node *i, *c, *inc, *b;
		node_for_parts(loop, &i, &c, &inc, &b);
		cond = c;
	}
	cond = node_strip(cond);
	(void)fn;
	(void)r;
	if (!cond || cond->kind != CXCursor_BinaryOperator || !cond->op || cond->nkids != 2)
		return;
	struct node *l = node_strip(cond->kids[0]);
	if (l->kind == CXCursor_UnaryOperator && l->nkids == 1)
		l = node_strip(l->kids[0]);
	if (l->kind != CXCursor_DeclRefExpr || l->var != v)
		return;
	if (strcmp(cond->op, ">") && strcmp(cond->op, ">="))
		return;
	long long k;
	struct node *rhs = node_strip(cond->kids[1]);
	fl->have = true;
	fl->var = v;
	fl->rhs_var = rhs && rhs->kind == CXCursor_DeclRefExpr && rhs->var >= 0 && rhs->var != v ? rhs->var : -1;
	fl->text = node_text(t, node_strip(cond->kids[1]));
	fl->k = iv_unknown();
	if (tu_eval_int(node_strip(cond->kids[1])->cur, &k))
		fl->k = iv_const(!strcmp(cond->op, ">=") ? k - 1 : k);
	if (!strcmp(cond->op, ">=") && !iv_is_const(fl->k)) {
		free(fl->text);
		fl->text = NULL; /* V >= F: the floor is F, attempts above it are "V > F" only textually unknown */
	}
}

/* ---- attempt classes: the runs read what this call saw ---- */

static void scan_reset(void *data)
{
	struct fn_scan *s = data;
	free(s->recs);
	s->recs = NULL;
	s->n = s->alloc = 0;
}

static bool scan_probe(void *data, const struct node *call, struct gfp_bits *g, struct order_range *o)
{
	struct fn_scan *s = data;
	for (size_t i = 0; i < s->n; i++) {
		const struct call_rec *r = &s->recs[i];
		if (r->call != call)
			continue;
		*g = r->has_gfp ? r->gfp.g : gfp_unknown();
		g->must |= r->ent->adds;
		g->may |= g->must;
		*o = r->has_order ? aval_order(&r->order, s->tu->facts.max_order) : (struct order_range){ 0, 0, false };
		return true;
	}
	return false;
}

static void site_attempts(struct fn_scan *s, struct call_rec *r, struct site *st, int order_var,
			  const struct node *oa, const struct floor_info *fl)
{
	const struct tu *t = s->tu;
	struct fn_scan s2 = { .tu = t, .o = s->o, .fn = s->fn, .cache = s->cache };
	struct attempt_env env = {
		.cx = { .tu = t, .fn = s->fn, .on_call = on_call, .data = &s2, .cache = s->cache,
			.is_allocator = is_alloc_name, .facts = s->o->facts, .file = s->o->report_path },
		.reset = scan_reset,
		.probe = scan_probe,
	};
	const struct node *os = oa ? node_strip((struct node *)oa) : NULL;
	struct attempt_plan p = {
		.call = r->call,
		.var = os && os->kind == CXCursor_DeclRefExpr && os->var == order_var ? order_var : -1,
		.costly = t->facts.costly_order,
		.floor_var = fl->have && fl->var == order_var ? fl->rhs_var : -1,
		.has_floor_k = fl->have && fl->var == order_var && iv_is_const(fl->k),
		.floor_k = fl->k.lo,
		.args = s->args,
		.nargs = s->nargs,
	};
	if (st->kind == API_KV) {
		site_default_attempts(st);
		return;
	}
	attempts_build(&env, &p, st);
	scan_reset(&s2);
}

/* What one call's arguments are: the positions and nodes the site's parts
 * read, and the variable an order loop would step (or -1). */
struct site_args {
	int oi, si;
	struct node *oa;
	int order_var;
};

/* A new site for the call: where it is, its API and mask, the texts and
 * spelling ranges of its arguments (for fingerprints and fixes). */
static struct site *site_start(struct fn_scan *s, struct call_rec *r, struct file_result *out,
			       struct site_args *a)
{
	const struct tu *t = s->tu;
	const struct alloc_entry *e = r->ent;
	struct site *st = file_result_add_site(out);
	st->file = xstrdup(s->o->report_path);
	st->line = (int)r->call->line;
	st->col = (int)r->call->col;
	st->function = xstrdup(s->fn->name ? s->fn->name : "");
	char *written = tu_expansion_name(t, r->call->cur);
	st->api = written ? written : xstrdup(e->name);
	st->kind = e->wrapper ? API_WRAPPER : e->kind;
	st->gfp = r->has_gfp ? r->gfp.g : gfp_unknown();
	st->gfp.must |= e->adds;
	st->gfp.may |= st->gfp.must;

	int gi = role_index(r->call, &e->gfp, true);
	a->oi = role_index(r->call, &e->order, false);
	a->si = role_index(r->call, &e->size, false);
	a->order_var = -1;
	struct node *ga = gi >= 0 ? node_arg(r->call, (unsigned)gi) : NULL;
	a->oa = a->oi >= 0 ? node_arg(r->call, (unsigned)a->oi)
			   : (a->si >= 0 ? node_arg(r->call, (unsigned)a->si) : NULL);
	if (ga) {
		st->gfp_expr = node_text(t, ga);
		tu_main_range(t, ga->cur, &st->gfp_begin, &st->gfp_end);
	}
	if (a->oa) {
		st->order_expr = node_text(t, a->oa);
		tu_main_range(t, a->oa->cur, &st->order_begin, &st->order_end);
	}
	tu_main_range(t, r->call->cur, &st->call_begin, &st->call_end);
	/* with alloc_hooks the call's range is the macro invocation */
	unsigned b, en;
	for (struct node *p = r->call->parent; p; p = p->parent)
		if (p->kind == CXCursor_StmtExpr && p->line == r->call->line && p->col == r->call->col &&
		    tu_main_range(t, p->cur, &b, &en)) {
			st->call_begin = b;
			st->call_end = en;
		}
	return st;
}

/* A page API's (or an order wrapper's) order, and the variable it is read from. */
static void site_order_of_pages(struct fn_scan *s, struct call_rec *r, struct site *st, struct site_args *a)
{
	const struct tree_facts *tf = &s->tu->facts;
	if (!r->has_order)
		return;
	st->order = aval_order(&r->order, tf->max_order);
	site_set_source(st, r->order.src | (r->order.top_user ? SRC_TOP_USER : 0), r->order.src_why,
			(int)r->order.src_line);
	if (!st->order.known && (r->order.src & (SRC_CONTROLLED | SRCB(RUNTIME)))) {
		/* someone outside controls it: any order the allocator takes */
		st->order = (struct order_range){ 0, tf->max_order, true };
		site_add_evidence(st, s->o->report_path, (int)r->call->line,
				  "call (order): not bounded here; the allocator refuses above MAX_PAGE_ORDER");
	} else if (!st->order.known) {
		st->unknown_why = xstrdup("the order is not bounded in this file");
	}
	if (a->oa) {
		int vars[4], nv = 0;
		vars_in(a->oa, vars, &nv, 4);
		if (nv == 1)
			a->order_var = vars[0];
	}
}

/* A sized API's order from its size (and count).  False when slab caches
 * serve every size it can ask for: then it is no page-allocator site. */
static bool api_has_overhead(const struct alloc_entry *e)
{
	return e->size_pad || e->size_align || e->size_extra;
}

/* The bytes the allocator asks the slab for when given `iv` (the
 * table's pad=, align= and extra=: alloc_skb's data and skb_shared_info). */
static struct interval api_bytes(const struct alloc_entry *e, struct interval iv)
{
	if (!iv.known || iv.lo < 0 || iv.hi >= (1LL << 40) || !api_has_overhead(e))
		return iv;
	int64_t a = e->size_align ? e->size_align : 1;
	iv.lo = (iv.lo + e->size_pad + a - 1) / a * a + e->size_extra;
	iv.hi = (iv.hi + e->size_pad + a - 1) / a * a + e->size_extra;
	return iv;
}

static bool site_order_of_size(struct fn_scan *s, struct call_rec *r, struct site *st)
{
	const struct tu *t = s->tu;
	const char *file = s->o->report_path;
	const struct alloc_entry *e = r->ent;
	const struct tree_facts *tf = &t->facts;
	struct aval sz = r->size;
	if (r->has_count) {
		sz.iv = iv_norm(iv_mul(sz.iv, r->count.iv));
		sz.pdep |= r->count.pdep;
		aval_src_merge(&sz, &r->count);
	}
	st->size = sz.iv;
	site_set_source(st, sz.src | (sz.top_user && !r->has_count ? SRC_TOP_USER : 0), sz.src_why,
			(int)sz.src_line);
	/* someone outside controls it, or the machine it runs on does */
	bool controlled = (sz.src & (SRC_CONTROLLED | SRCB(RUNTIME))) && !s->kv_def;
	const char *unknown_why = NULL;
	if (sz.pdep && sz.iv.known && !s->kv_def && !controlled &&
	    get_order_of(sz.iv.hi, tf->page_shift) > tf->max_order) {
		sz.iv = iv_unknown(); /* the callers decide the size */
		unknown_why = "the callers decide the size";
	}
	/* a bound of 1 GiB or more only says "an int": not a bound */
	if (sz.iv.known && sz.iv.hi >= (1LL << 30))
		sz.iv = iv_unknown();
	if (!sz.iv.known && controlled) {
		/* up to KMALLOC_MAX_SIZE */
		sz.iv = iv_range(sz.iv.lo > 0 ? sz.iv.lo : 0,
				 (int64_t)1 << (tf->max_order + tf->page_shift));
		site_add_evidence(st, file, (int)r->call->line,
				  "call (size): not bounded here; bounded only by KMALLOC_MAX_SIZE");
	}
	if (s->kv_def)
		site_add_evidence(st, file, (int)r->call->line,
				  "call (size): the kvmalloc helper's attempt, for callers passing GFP_KERNEL "
				  "and a costly size");
	if (sz.iv.known && sz.iv.lo >= 0 && api_has_overhead(e)) {
		sz.iv = api_bytes(e, sz.iv);
		st->size = sz.iv; /* what the slab is asked for */
		char pad[32] = "";
		if (e->size_pad)
			snprintf(pad, sizeof(pad), " + %lld", (long long)e->size_pad);
		char *note = xasprintf("call (size): '%s' asks the slab for %lld..%lld bytes (the size%s aligned to "
				       "%lld, + %lld of its own)", e->name, (long long)sz.iv.lo, (long long)sz.iv.hi, pad,
				       (long long)(e->size_align ? e->size_align : 1), (long long)e->size_extra);
		site_add_evidence(st, file, (int)r->call->line, note);
		free(note);
	}
	if (sz.iv.known && sz.iv.lo >= 0) {
		long long kmcs = t->kmalloc_max_cache_size;
		if (e->kind == API_EXACT) {
			struct interval o = iv_get_order(sz.iv, tf->page_shift);
			st->order = (struct order_range){ (int)o.lo, (int)(o.hi > tf->max_order ? tf->max_order : o.hi), true };
		} else if (sz.iv.hi > kmcs) {
			int lo = sz.iv.lo > kmcs ? (int)get_order_of(sz.iv.lo, tf->page_shift) : 0;
			int64_t hi = get_order_of(sz.iv.hi, tf->page_shift);
			st->order = (struct order_range){ lo, (int)(hi > tf->max_order ? tf->max_order : hi), true };
		} else {
			/* served by slab caches, never by the page allocator directly */
			return false;
		}
	} else {
		/* unbounded size: listed, with the reason, never judged */
		st->order = (struct order_range){ 0, 0, false };
		st->unknown_why = xstrdup(unknown_why ? unknown_why : "the size is not bounded in this file");
	}
	if (e->kind == API_KV && sz.iv.hi > (1LL << tf->page_shift)) {
		/* kvmalloc's kmalloc attempt above PAGE_SIZE (mm/util.c) */
		st->gfp.must |= GFPB(NOWARN);
		if (!gfp_may(st->gfp, GFPB(RETRY_MAYFAIL)))
			st->gfp.must |= GFPB(NORETRY);
		st->gfp.must &= ~GFPB(NOFAIL);
		st->gfp.may = (st->gfp.may | st->gfp.must) & ~GFPB(NOFAIL);
	}
	return true;
}

/* An order loop around the call, or a goto back to it, that lowers the order. */
static void fallback_order_loop(struct fn_scan *s, struct call_rec *r, struct site *st, int order_var,
				struct floor_info *fl)
{
	const struct tu *t = s->tu;
	const char *file = s->o->report_path;
	for (struct node *p = r->call->parent; p; p = p->parent) {
		if (!node_is_loop(p))
			continue;
		const struct node *m = loop_step_after(p, order_var, r->call);
		if (!m || !lowers(m))
			m = loop_mask_step(p, order_var, r->call);
		if (m) {
			st->fallback = FB_ORDER_LOOP;
			st->fallback_line = (int)m->line;
			add_ev(st, t, file, m->line, "fallback: the loop lowers the order");
			loop_floor(t, p, order_var, fl, s->fn, r);
			return;
		}
	}
	const struct node *g = find_goto_back(s->fn->body, r->call);
	const struct node *lab = g ? find_label(s->fn->body, g->name) : NULL;
	if (g && lab && lab->line <= r->call->line) {
		const struct node *m = modifies(s->fn->body, order_var);
		if (m && lowers(m) && m->line > r->call->line && m->line <= g->line) {
			st->fallback = FB_ORDER_LOOP;
			st->fallback_line = (int)m->line;
			add_ev(st, t, file, m->line, "fallback: retried at a lower order via goto");
		}
	}
}

/* A slab size retried smaller: if (!p) { n >>= 1; if (n >= min) goto again; } */
static void fallback_size_goto(struct fn_scan *s, struct call_rec *r, struct site *st, const char *lv, int si)
{
	int vars[4], nv = 0;
	vars_in(node_arg(r->call, (unsigned)si), vars, &nv, 4);
	const struct node *m = nv == 1 ? size_goto_retry(s->tu, s->fn->body, s->fn->body, r->call, lv, vars[0]) : NULL;
	if (m) {
		st->fallback = FB_ORDER_LOOP;
		st->fallback_line = (int)m->line;
		add_ev(st, s->tu, s->o->report_path, m->line, "fallback: the failure branch lowers the size and retries via goto");
	}
}

/* Is `later` in the branch a failed `lv` takes (if (!lv) later; or the else of if (lv))? */
static bool in_failure_branch(const struct tu *t, const struct node *site, const struct node *later, const char *lv)
{
	for (struct node *p = later->parent; p; p = p->parent) {
		if (p->kind != CXCursor_IfStmt || p->nkids < 2 || node_contains(p, site))
			continue;
		bool when_true;
		if (tests_null(t, p->kids[0], lv, &when_true)) {
			if (when_true ? node_contains(p->kids[1], later)
				      : (p->nkids >= 3 && node_contains(p->kids[2], later)))
				return true;
		}
	}
	return false;
}

/* A later allocation into the same place, or in the failure branch: a
 * vmalloc, a page API at a lower order, or a smaller slab request. */
static void fallback_later_alloc(struct fn_scan *s, struct call_rec *r, struct site *st, const char *lv)
{
	const struct tu *t = s->tu;
	const char *file = s->o->report_path;
	const struct tree_facts *tf = &t->facts;
	for (size_t i = 0; i < s->n; i++) {
		struct call_rec *o2 = &s->recs[i];
		if (o2 == r || o2->call->line < r->call->line ||
		    (o2->call->line == r->call->line && o2->call->col <= r->call->col))
			continue;
		if (exclusive(r->call, o2->call) || unreachable_after(t, r->call, o2->call, lv))
			continue;
		char *lv2 = NULL;
		result_target(o2->call, &lv2, t);
		bool same = lv && lv2 && !strcmp(lv, lv2);
		free(lv2);
		bool in_fail = in_failure_branch(t, r->call, o2->call, lv);
		if (!in_fail && !after_exit(t, r->call, o2->call, lv, false) &&
		    (!same || after_exit(t, r->call, o2->call, lv, true)))
			continue;
		if (o2->ent->kind == API_VMALLOC || o2->ent->kind == API_KV) {
			st->fallback = FB_VMALLOC;
			st->fallback_line = (int)o2->call->line;
			add_ev(st, t, file, o2->call->line, "fallback: vmalloc after a failure");
			return;
		}
		struct order_range o2r = o2->has_order ? aval_order(&o2->order, tf->max_order)
						       : (struct order_range){ 0, 0, false };
		if ((o2->ent->kind == API_PAGES || o2->ent->wrapper) && o2r.known &&
		    (!st->order.known || o2r.hi < st->order.hi)) {
			st->fallback = FB_LOWER_ORDER;
			st->fallback_line = (int)o2->call->line;
			add_ev(st, t, file, o2->call->line, "fallback: retried at a lower order");
			return;
		}
		if (o2->ent->kind == API_SLAB && r->ent->kind == API_SLAB && same_request(t, r, o2))
			continue;
		if (o2->ent->kind == API_SLAB) {
			st->fallback = FB_LOWER_ORDER;
			st->fallback_line = (int)o2->call->line;
			add_ev(st, t, file, o2->call->line, "fallback: a smaller allocation after a failure");
			return;
		}
	}
}

/* THP: a failed huge allocation returns *_FALLBACK, the fault is retried with base pages */
static void fallback_thp(struct fn_scan *s, struct call_rec *r, struct site *st, const char *lv)
{
	for (struct node *p = r->call; p && p->parent; p = p->parent) {
		struct node *blk = p->parent;
		if (blk->kind != CXCursor_CompoundStmt)
			continue;
		for (unsigned i = 0; i < blk->nkids; i++) {
			struct node *k = blk->kids[i];
			bool when_true;
			if (k->line < r->call->line || k->kind != CXCursor_IfStmt || k->nkids < 2)
				continue;
			if (tests_null(s->tu, k->kids[0], lv, &when_true) && when_true &&
			    name_has(k->kids[1], "FALLBACK")) {
				st->fallback = FB_LOWER_ORDER;
				st->fallback_line = (int)k->line;
				add_ev(st, s->tu, s->o->report_path, k->line, "fallback: the caller retries with base pages");
				return;
			}
		}
	}
}

static const struct node *calls_reaching_alloc(const struct fn_scan *s, const struct node *n, int depth);

/* Does function `name` of this file reach an allocator call, itself or
 * through the file's functions it calls (depth calls deep)? */
static bool reaches_alloc(const struct fn_scan *s, const char *name, int depth)
{
	if (!name || !s->scope || depth < 0)
		return false;
	for (size_t i = 0; i < s->scope->n; i++) {
		const struct fn_model *f = s->scope->fns[i];
		if (!f->name || strcmp(f->name, name) || !f->body)
			continue;
		if (has_alloc_call(f->body, s->o->table))
			return true;
		return calls_reaching_alloc(s, f->body, depth - 1) != NULL;
	}
	return false;
}

/* The first call below n into a function of this file that reaches an allocator. */
static const struct node *calls_reaching_alloc(const struct fn_scan *s, const struct node *n, int depth)
{
	if (n->kind == CXCursor_CallExpr && n->name && reaches_alloc(s, n->name, depth))
		return n;
	for (unsigned i = 0; i < n->nkids; i++) {
		const struct node *c = calls_reaching_alloc(s, n->kids[i], depth);
		if (c)
			return c;
	}
	return NULL;
}

/* Is statement b a return, or a block that ends in one? */
static bool ends_in_return(const struct node *b)
{
	if (b && b->kind == CXCursor_CompoundStmt)
		b = b->nkids ? b->kids[b->nkids - 1] : NULL;
	return b && b->kind == CXCursor_ReturnStmt;
}

/* The first `if (success of lv) return ...;` (no else) after the call. */
static const struct node *success_return_after(const struct tu *t, const struct node *n, const struct node *call,
					       const char *lv, bool pointer)
{
	bool when_null;
	if (n->kind == CXCursor_IfStmt && n->nkids == 2 && n->off > call->off &&
	    tests_null(t, n->kids[0], lv, &when_null) && when_null != pointer && ends_in_return(n->kids[1]))
		return n;
	for (unsigned i = 0; i < n->nkids; i++) {
		const struct node *k = success_return_after(t, n->kids[i], call, lv, pointer);
		if (k)
			return k;
	}
	return NULL;
}

/* The function's own other path: the failure is not handed back (no
 * return or goto on it), a later test returns on success, and the
 * statements after that test call a function of this file that
 * allocates: `err = alloc_big(order); if (err) break; ... if (!err)
 * return; fallback: alloc_small(...);` (mm/readahead.c). */
static void fallback_other_path(struct fn_scan *s, struct call_rec *r, struct site *st, const char *lv)
{
	const struct tu *t = s->tu;
	if (callers_failure_returns(t, r->call, lv))
		return;
	CXType ty = clang_getCanonicalType(clang_getCursorType(r->call->cur));
	bool pointer = ty.kind == CXType_Pointer;
	if (!pointer && ty.kind != CXType_Int && ty.kind != CXType_Long && ty.kind != CXType_Bool)
		return;
	const struct node *k = success_return_after(t, s->fn->body, r->call, lv, pointer);
	const struct node *blk = k ? k->parent : NULL;
	if (!blk || blk->kind != CXCursor_CompoundStmt)
		return;
	for (unsigned i = 0; i < blk->nkids; i++) {
		const struct node *stmt = blk->kids[i];
		if (stmt->off <= k->off)
			continue;
		const struct node *c = calls_reaching_alloc(s, stmt, 3);
		if (c) {
			st->fallback = FB_OTHER_PATH;
			st->fallback_line = (int)c->line;
			add_ev(st, t, s->o->report_path, c->line,
			       "fallback: past the success test, the function calls another allocation path");
			return;
		}
		if (stmt->kind == CXCursor_ReturnStmt)
			return;
	}
}

/* A void function that goes on without physically contiguous memory: its
 * failure path is the designed degraded mode (judged on 6.12: sdhci's
 * bounce buffer, wbsd's ISA DMA buffer).  Only for physical memory: where
 * vmalloc memory would serve, kvmalloc is the fix and the finding stays. */
static void fallback_feature_off(struct fn_scan *s, struct call_rec *r, struct site *st)
{
	int line = callers_failure_ends_void(s->tu, r->call, s->fn->cur);
	if (!line)
		return;
	st->fallback = FB_FEATURE_OFF;
	st->fallback_line = line;
	add_ev(st, s->tu, s->o->report_path, (unsigned)line,
	       "fallback: a failure ends the function, which returns void and stores no error: it goes on "
	       "without the memory (a feature off)");
}

/* The site's fallback, tried shape by shape until one is found.  Returns
 * the node the result is stored to (for the contiguity of its uses). */
static struct node *site_fallback(struct fn_scan *s, struct call_rec *r, struct site *st,
				  const struct site_args *a, struct floor_info *fl)
{
	const struct alloc_entry *e = r->ent;
	char *lv = NULL;
	struct node *target = result_target(r->call, &lv, s->tu);
	st->result_lvalue = lv;
	st->fallback = FB_NONE;
	if (e->kind == API_KV)
		st->fallback = gfp_may(st->gfp, GFPB(DIRECT_RECLAIM)) ? FB_KVMALLOC : FB_NONE;
	else if (e->wrapper && e->fallback >= 0)
		st->fallback = (enum fallback_kind)e->fallback;
	if (st->fallback == FB_NONE && a->order_var >= 0)
		fallback_order_loop(s, r, st, a->order_var, fl);
	if (st->fallback == FB_NONE && a->order_var < 0 && r->has_size && lv && a->si >= 0)
		fallback_size_goto(s, r, st, lv, a->si);
	if (st->fallback == FB_NONE)
		fallback_later_alloc(s, r, st, lv);
	if (st->fallback == FB_NONE && lv)
		fallback_thp(s, r, st, lv);
	if (st->fallback == FB_NONE && lv)
		fallback_other_path(s, r, st, lv);
	if (st->fallback == FB_NONE)
		caller_fallback(s, r, st);
	/* Handed straight back (`return alloc_pages(...)`) is the same as
	 * `if (!p) return NULL;`: an error return, so "none".  (A parameter
	 * order would have made the function a wrapper instead.) */
	return target;
}

/* The mask of each attempt class, whether it can stall, what its memory
 * must be, and the lines its mask, order and size come from. */
static void site_finish(struct fn_scan *s, struct call_rec *r, struct site *st, const struct site_args *a,
			struct floor_info *fl, struct node *target)
{
	const struct tu *t = s->tu;
	const char *file = s->o->report_path;
	int costly = t->facts.costly_order ? t->facts.costly_order : PAGE_ALLOC_COSTLY_ORDER_DEFAULT;
	if (r->ent->physical && site_can_be_costly(st, costly)) {
		st->contig = CONTIG_PHYSICAL;
		st->contig_line = (int)r->call->line;
		st->contig_why = xasprintf("'%s' returns memory that must be physically contiguous", r->ent->name);
	} else if (s->scope && site_can_be_costly(st, costly))
		st->contig = usage_contiguity(s->scope, s->fn, target, &st->contig_line, &st->contig_why);
	if (st->fallback == FB_NONE && st->contig == CONTIG_PHYSICAL)
		fallback_feature_off(s, r, st);
	/* callers that go on without the block: a designed degraded mode only
	 * where the memory must be physically contiguous, as for a function's
	 * own (fallback_feature_off); where vmalloc memory would do, kvmalloc
	 * is the fix and a failure that only turns a feature off is no fallback
	 * (judged on 6.12: HDCP, tc offload and ACL arrays, issue14-precision-f.md).
	 * kmalloc's only: pages stay pages (kvmalloc replaces no page API) */
	if (st->fallback == FB_CALLER_OFF && st->kind == API_SLAB && st->contig != CONTIG_PHYSICAL) {
		st->fallback = FB_NONE;
		site_add_evidence(st, st->fallback_file ? st->fallback_file : st->file, st->fallback_line,
				  "the callers go on without it, but nothing needs it physically contiguous: no fallback "
				  "(vmalloc memory would do)");
		free(st->fallback_file);
		st->fallback_file = NULL;
		st->fallback_line = 0;
	}
	site_attempts(s, r, st, a->order_var, a->oa, fl);
	st->stall = site_stall_of(st, costly);

	if (r->has_gfp)
		for (int i = 0; i < r->gfp.nev; i++)
			add_value_ev(st, t, file, r->gfp.evl[i], r->call->line, s->fn, "gfp");
	if (r->has_order)
		for (int i = 0; i < r->order.nev; i++)
			add_value_ev(st, t, file, r->order.evl[i], r->call->line, s->fn, "order");
	if (r->has_size)
		for (int i = 0; i < r->size.nev; i++)
			add_value_ev(st, t, file, r->size.evl[i], r->call->line, s->fn, "size");
}

/* The order the call asks for with the module parameters at their
 * defaults (defaults_run), made of those defaults and constants alone:
 * when every path of it is costly, the site is costly as the code ships
 * (SRC_AT_DEFAULT), whatever the parameters could be set to. */
static void site_at_defaults(struct fn_scan *s, const struct call_rec *r, struct site *st)
{
	const struct tu *t = s->tu;
	const struct tree_facts *tf = &t->facts;
	int costly = tf->costly_order ? tf->costly_order : PAGE_ALLOC_COSTLY_ORDER_DEFAULT;
	const unsigned ok = SRCB(CONST) | SRCB(CONFIG) | SRCB(PARAM);
	/* only for an order that is costly on some paths, not on every one */
	if (!st->order.known || st->order.hi <= costly || st->order.lo > costly || !reads_param(r))
		return;
	struct aval v;
	int lo;
	if (st->kind == API_PAGES || (r->ent->wrapper && r->ent->order.how != ARG_NONE)) {
		if (!r->has_dorder)
			return;
		v = r->dorder;
		struct order_range o = aval_order(&v, tf->max_order);
		if (!o.known)
			return;
		lo = o.lo;
	} else {
		if (!r->has_dsize || r->has_count != r->has_dcount)
			return;
		v = r->dsize;
		if (r->has_dcount) {
			v.iv = iv_norm(iv_mul(v.iv, r->dcount.iv));
			aval_src_merge(&v, &r->dcount);
		}
		if (!v.iv.known || v.iv.lo < 0 || v.iv.hi >= (1LL << 30))
			return;
		v.iv = api_bytes(r->ent, v.iv);
		lo = v.iv.lo > t->kmalloc_max_cache_size || r->ent->kind == API_EXACT
			? (int)get_order_of(v.iv.lo, tf->page_shift) : 0;
	}
	if (lo <= costly || (v.src & ~ok) || !(v.src & SRCB(PARAM)))
		return;
	st->src |= SRC_AT_DEFAULT;
	char *note = v.src_why ? xasprintf("%s gives order %d", v.src_why, lo)
			       : xasprintf("the module parameters' defaults give order %d", lo);
	site_add_evidence(st, s->o->report_path, v.src_line ? (int)v.src_line : (int)r->call->line, note);
	free(note);
}

static void build_site(struct fn_scan *s, struct call_rec *r, struct file_result *out)
{
	const struct alloc_entry *e = r->ent;
	if (e->kind == API_VMALLOC)
		return;
	struct site_args a;
	struct site *st = site_start(s, r, out, &a);
	if (e->kind == API_PAGES || (e->wrapper && e->order.how != ARG_NONE)) {
		site_order_of_pages(s, r, st, &a);
	} else if (r->has_size && !site_order_of_size(s, r, st)) {
		site_release(st);
		out->nsites--;
		return;
	}
	site_at_defaults(s, r, st);
	char *note = xasprintf("call: gfp '%s', %s '%s'", st->gfp_expr ? st->gfp_expr : "?",
			       a.oi >= 0 ? "order" : "size", st->order_expr ? st->order_expr : "?");
	site_add_evidence(st, s->o->report_path, (int)r->call->line, note);
	free(note);

	struct floor_info fl = { .rhs_var = -1 };
	struct node *target = site_fallback(s, r, st, &a, &fl);
	site_finish(s, r, st, &a, &fl, target);
	free(fl.text);
}

/* ---- wrappers ---- */

/* If the function forwards a parameter as the order (or size) of an
 * allocation, it is an allocator for its callers. */
static bool promote_wrapper(struct fn_scan *s)
{
	bool added = false;
	if (!s->fn->in_main || !s->fn->name || alloc_table_find(s->o->table, s->fn->name))
		return false;
	for (size_t i = 0; i < s->n; i++) {
		struct call_rec *r = &s->recs[i];
		const struct alloc_entry *e = r->ent;
		if (e->kind == API_VMALLOC)
			continue;
		bool by_order = (e->kind == API_PAGES || (e->wrapper && e->order.how != ARG_NONE)) &&
				r->has_order && r->order.param >= 0;
		bool by_get_order = !by_order && (e->kind == API_PAGES || e->wrapper) && r->has_order &&
				    r->order.gparam >= 0;
		bool by_size = !by_order && r->has_size && r->size.param >= 0 && !r->has_count &&
			       (e->kind == API_SLAB || e->kind == API_KV || e->kind == API_EXACT);
		if (debug_on())
			fprintf(stderr, "debug: wrapper? %s: by_order %d by_size %d by_get_order %d gfp.param %d\n",
				s->fn->name, by_order, by_size, by_get_order, r->has_gfp ? r->gfp.param : -9);
		if (!by_order && !by_size && !by_get_order)
			continue;
		/* a wrapper passes its caller's mask on, or hands the memory
		 * straight back: otherwise the parameter is just an input */
		char *lv = NULL;
		struct node *tgt = result_target(r->call, &lv, s->tu);
		free(lv);
		bool returned = tgt && tgt->kind == CXCursor_ReturnStmt;
		if (!(r->has_gfp && r->gfp.param >= 0) && !returned)
			continue;
		struct alloc_entry *w = alloc_table_add(s->o->table, s->fn->name,
							e->wrapper ? API_PAGES : e->kind);
		if (e->wrapper)
			w->kind = e->kind == API_WRAPPER ? API_PAGES : e->kind;
		w->wrapper = true;
		if (by_order) {
			w->order.how = ARG_INDEX;
			w->order.index = r->order.param;
			if (w->kind != API_PAGES && w->kind != API_WRAPPER)
				w->kind = API_PAGES;
		} else if (by_get_order) {
			w->kind = API_EXACT;
			w->size.how = ARG_INDEX;
			w->size.index = r->order.gparam;
			w->order.how = ARG_NONE;
		} else {
			w->size.how = ARG_INDEX;
			w->size.index = r->size.param;
			w->physical = e->physical;
			w->size_pad = e->size_pad;
			w->size_align = e->size_align;
			w->size_extra = e->size_extra;
		}
		if (r->has_gfp && r->gfp.param >= 0) {
			w->gfp.how = ARG_INDEX;
			w->gfp.index = r->gfp.param;
			w->gfp_set_must = r->gfp.pset_must;
			w->gfp_set_may = r->gfp.pset_may;
			w->gfp_clr = r->gfp.pclr;
			w->gfp_clr_may = r->gfp.pclr_may;
		} else {
			w->gfp.how = ARG_NONE;
			w->gfp_fixed = true;
			w->gfp_bits = r->has_gfp ? r->gfp.g : gfp_unknown();
			/* ARG_NONE would pick the gfp_t parameter: there is none to take */
			w->gfp.how = ARG_INDEX;
			w->gfp.index = 1000;
		}
		w->fallback = -1;
		added = true;
		break;
	}
	return added;
}

/* ---- driver ---- */

struct fn_list {
	struct fn_model **f;
	size_t n, alloc;
};

struct collect_ctx {
	const struct tu *t;
	struct fn_list *fns;
};

static enum CXChildVisitResult collect_fns(CXCursor c, CXCursor parent, CXClientData data)
{
	struct collect_ctx *cc = data;
	(void)parent;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	unsigned off;
	if (!tu_main_loc(cc->t, c, NULL, NULL, &off))
		return CXChildVisit_Continue;
	struct fn_model *f = fn_build(cc->t, c);
	if (f) {
		ALLOC_GROW(cc->fns->f, cc->fns->n + 1, cc->fns->alloc);
		cc->fns->f[cc->fns->n++] = f;
	}
	return CXChildVisit_Continue;
}

static bool has_alloc_call(const struct node *n, const struct alloc_table *tab)
{
	if (n->kind == CXCursor_CallExpr && n->name && alloc_table_find(tab, n->name))
		return true;
	for (unsigned i = 0; i < n->nkids; i++)
		if (has_alloc_call(n->kids[i], tab))
			return true;
	return false;
}

/* Is function `name` referenced other than as the callee of a call? */
static bool used_as_value(const struct node *n, const char *name)
{
	if (n->kind == CXCursor_DeclRefExpr && n->var < 0 && n->name && !strcmp(n->name, name)) {
		const struct node *p = n->parent, *c = n;
		while (p && (p->kind == CXCursor_UnexposedExpr || p->kind == CXCursor_ParenExpr)) {
			c = p;
			p = p->parent;
		}
		if (!(p && p->kind == CXCursor_CallExpr && p->nkids && p->kids[0] == c))
			return true;
	}
	for (unsigned i = 0; i < n->nkids; i++)
		if (used_as_value(n->kids[i], name))
			return true;
	return false;
}

struct ref_scan {
	const struct tu *t;
	const char *name;
	bool found;
};

static enum CXChildVisitResult find_ref(CXCursor c, CXCursor parent, CXClientData data)
{
	struct ref_scan *rs = data;
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		CXString sp = clang_getCursorSpelling(c);
		if (!strcmp(clang_getCString(sp), rs->name))
			rs->found = true;
		clang_disposeString(sp);
	}
	return rs->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Top-level initializers of the file (ops tables) that name the function. */
static enum CXChildVisitResult find_ref_top(CXCursor c, CXCursor parent, CXClientData data)
{
	struct ref_scan *rs = data;
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_VarDecl && tu_main_loc(rs->t, c, NULL, NULL, NULL))
		clang_visitChildren(c, find_ref, rs);
	return rs->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Static functions whose every use is a direct call in this file: their
 * parameters are what those callers pass ("callers in the file tell more"). */
static size_t find_bindable(const struct tu *t, struct fn_model **fns, size_t n,
			    const struct alloc_table *tab, struct binding **out)
{
	struct binding *b = NULL;
	size_t nb = 0, alloc = 0;
	for (size_t i = 0; i < n; i++) {
		struct fn_model *f = fns[i];
		if (!f->name || !f->nparams || clang_getCursorLinkage(f->cur) != CXLinkage_Internal ||
		    !has_alloc_call(f->body, tab))
			continue;
		bool taken = false;
		for (size_t k = 0; k < n && !taken; k++)
			taken = used_as_value(fns[k]->body, f->name);
		if (!taken) {
			struct ref_scan rs = { t, f->name, false };
			clang_visitChildren(clang_getTranslationUnitCursor(t->tu), find_ref_top, &rs);
			taken = rs.found;
		}
		if (taken)
			continue;
		ALLOC_GROW(b, nb + 1, alloc);
		b[nb].name = f->name;
		b[nb].nargs = (unsigned)f->nparams;
		b[nb].args = xcalloc((size_t)f->nparams, sizeof(struct aval));
		b[nb].seen = false;
		nb++;
	}
	*out = b;
	return nb;
}

static bool calls_any(const struct node *n, const struct binding *b, size_t nb)
{
	if (n->kind == CXCursor_CallExpr && n->name)
		for (size_t i = 0; i < nb; i++)
			if (!strcmp(n->name, b[i].name))
				return true;
	for (unsigned i = 0; i < n->nkids; i++)
		if (calls_any(n->kids[i], b, nb))
			return true;
	return false;
}

/* A kvmalloc-family helper defined in this file (mm/util.c): its own
 * kmalloc attempt is judged here, once, as its callers make it: a
 * GFP_KERNEL mask and a size above PAGE_ALLOC_COSTLY_ORDER.  Fills `args`
 * (nparams entries) and returns true when f is one. */
static bool kv_definition_args(const struct tu *t, const struct alloc_table *tab, const struct fn_model *f,
			       struct aval **out)
{
	const struct alloc_entry *e = f->name ? alloc_table_find(tab, f->name) : NULL;
	if (!e || e->kind != API_KV || !f->in_main || !f->nparams || e->size.how != ARG_PARAM || !e->size.text)
		return false;
	const struct tree_facts *tf = &t->facts;
	int ps = tf->page_shift ? tf->page_shift : 12;
	struct aval *a = xcalloc((size_t)f->nparams, sizeof(*a));
	bool have_size = false, have_gfp = false;
	for (int i = 0; i < f->nparams; i++)
		a[i] = aval_unknown();
	for (int v = 0; v < f->nvars; v++) {
		const struct fn_var *fv = &f->vars[v];
		if (fv->param < 0 || fv->param >= f->nparams)
			continue;
		if (!strcmp(fv->name, e->size.text)) {
			a[fv->param].iv = iv_range(((int64_t)1 << (ps + tf->costly_order)) + 1,
						   (int64_t)1 << (ps + tf->max_order));
			have_size = true;
		} else if (fv->is_gfp && !have_gfp) {
			uint64_t canon = GFPB(DIRECT_RECLAIM) | GFPB(KSWAPD_RECLAIM) | GFPB(IO) | GFPB(FS);
			a[fv->param].g = gfp_const(canon);
			a[fv->param].iv = iv_const((int64_t)gfp_table_from_canon(&t->gfp, canon));
			have_gfp = true;
		}
	}
	if (!have_size || !have_gfp) {
		free(a);
		return false;
	}
	*out = a;
	return true;
}

/* ---- fact-base observations in file-scope initializers ---- */

struct init_walk {
	const struct tu *t;
	const struct sites_opts *o;
	struct file_result *out;
};

static enum CXChildVisitResult init_refs(CXCursor c, CXCursor parent, CXClientData d)
{
	struct init_walk *w = d;
	(void)parent;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr) {
		CXCursor r = clang_getCursorReferenced(c);
		if (clang_getCursorKind(r) == CXCursor_FunctionDecl) {
			/* an ops table: the function is called through a pointer */
			unsigned line = 0;
			tu_main_loc(w->t, c, &line, NULL, NULL);
			char *key = eval_param_key(r, w->o->report_path, -1);
			file_result_add_fact(w->out, key, iv_unknown(), SRCB(UNKNOWN), (int)line);
			free(key);
			key = callers_key(r, w->o->report_path);
			if (key)
				file_result_add_fact(w->out, key, iv_const(CALLER_PROPAGATES), SRCB(CONST), (int)line);
			free(key);
		}
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

/* A designated initializer `.f = v` shows as an expression whose first
 * child is a MemberRef to f and whose last is v. */
struct desig {
	CXCursor member, value;
	int n;
};

static enum CXChildVisitResult desig_kids(CXCursor c, CXCursor parent, CXClientData d)
{
	struct desig *x = d;
	(void)parent;
	if (x->n == 0 && clang_getCursorKind(c) == CXCursor_MemberRef)
		x->member = c;
	x->value = c;
	x->n++;
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult init_fields(CXCursor c, CXCursor parent, CXClientData d)
{
	struct init_walk *w = d;
	(void)parent;
	if (clang_isExpression(clang_getCursorKind(c))) {
		struct desig x = { clang_getNullCursor(), clang_getNullCursor(), 0 };
		clang_visitChildren(c, desig_kids, &x);
		if (x.n == 2 && !clang_Cursor_isNull(x.member)) {
			CXCursor fld = clang_getCursorReferenced(x.member);
			char *key = eval_field_key(fld);
			long long v;
			unsigned line = 0;
			tu_main_loc(w->t, c, &line, NULL, NULL);
			if (key) {
				if (clang_getCursorKind(x.value) != CXCursor_InitListExpr && tu_eval_int(x.value, &v))
					file_result_add_fact(w->out, key, iv_const(v), SRCB(CONST), (int)line);
				else if (clang_getCursorKind(x.value) != CXCursor_InitListExpr)
					file_result_add_fact(w->out, key, iv_unknown(), SRCB(UNKNOWN), (int)line);
			}
			free(key);
		}
	}
	init_refs(c, parent, d);
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult global_inits(CXCursor c, CXCursor parent, CXClientData d)
{
	struct init_walk *w = d;
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_VarDecl || !tu_main_loc(w->t, c, NULL, NULL, NULL))
		return CXChildVisit_Continue;
	clang_visitChildren(c, init_fields, d);
	return CXChildVisit_Continue;
}

static int cmp_site(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	return x->line != y->line ? x->line - y->line : x->col - y->col;
}

/* What callers in the file pass to static functions with sites: two
 * rounds, so that a chain of static helpers gets what round one learned. */
static void bind_rounds(const struct tu *t, struct sites_opts *o, const struct fn_list *fns,
			struct summary_cache *cache, struct binding *bind, size_t nbind)
{
	for (int round = 0; nbind && round < 2; round++) {
		for (size_t b = 0; b < nbind; b++)
			bind[b].seen = false;
		for (size_t i = 0; i < fns->n; i++) {
			struct fn_model *f = fns->f[i];
			if (!calls_any(f->body, bind, nbind))
				continue;
			struct fn_scan s = { .tu = t, .o = o, .fn = f, .bind = bind, .nbind = nbind };
			struct eval_ctx cx = { .tu = t, .fn = f, .on_call = on_call, .data = &s,
					       .cache = cache, .is_allocator = is_alloc_name,
					       .facts = o->facts, .file = o->report_path };
			struct binding *mine = NULL;
			for (size_t b = 0; b < nbind; b++)
				if (!strcmp(bind[b].name, f->name ? f->name : ""))
					mine = &bind[b];
			if (mine && round && mine->seen)
				eval_function(&cx, mine->args, mine->nargs);
			else
				eval_function(&cx, NULL, 0);
			free(s.recs);
		}
	}
}

/* A wrapper's (or an allocator API's) own site has its order from the
 * caller: unknown here, unless it is a kvmalloc helper's definition. */
static void unknown_wrapper_orders(const struct fn_scan *s, struct file_result *out, size_t first_site)
{
	const char *name = s->fn->name ? s->fn->name : "";
	for (size_t k = first_site; k < out->nsites; k++) {
		if (strcmp(out->sites[k].function, name) || out->sites[k].kind == API_WRAPPER)
			continue;
		bool param_order = false;
		for (size_t m = 0; m < s->n; m++)
			if ((int)s->recs[m].call->line == out->sites[k].line &&
			    ((s->recs[m].has_order && (s->recs[m].order.param >= 0 || s->recs[m].order.gparam >= 0)) ||
			     (s->recs[m].has_size && s->recs[m].size.param >= 0)))
				param_order = true;
		if (param_order && !s->kv_def)
			out->sites[k].order.known = false;
	}
}

/* The function run again with its module parameters at their defaults
 * (eval_ctx.at_defaults): what each call that reads one asks for when
 * nobody sets them.  A costly order there is the code's own choice, as a
 * constant's is (hfi1's sdma_comp_size 128 requests; vhost-scsi's 128
 * queues).  No observations, no bindings: the first run made those. */
static void defaults_run(struct fn_scan *s, const struct eval_ctx *cx)
{
	bool any = false;
	for (size_t k = 0; k < s->n && !any; k++)
		any = reads_param(&s->recs[k]);
	if (!any || s->kv_def)
		return;
	struct fn_scan d = *s;
	d.recs = NULL;
	d.n = d.alloc = 0;
	d.bind = NULL;
	d.nbind = 0;
	d.facts_out = NULL;
	struct eval_ctx dc = { .tu = cx->tu, .fn = cx->fn, .on_call = on_call, .data = &d,
			       .cache = cx->cache, .is_allocator = is_alloc_name,
			       .facts = cx->facts, .file = cx->file, .at_defaults = true };
	eval_function(&dc, d.args, d.nargs);
	for (size_t k = 0; k < s->n; k++) {
		struct call_rec *r = &s->recs[k];
		for (size_t j = 0; j < d.n && reads_param(r); j++) {
			const struct call_rec *q = &d.recs[j];
			if (q->call != r->call)
				continue;
			r->dorder = q->order;
			r->has_dorder = q->has_order;
			r->dsize = q->size;
			r->has_dsize = q->has_size;
			r->dcount = q->count;
			r->has_dcount = q->has_count;
		}
	}
	free(d.recs);
}

/* One pass over the functions with allocator calls: their sites.  True
 * when a function became a wrapper (the table changed: another pass). */
static bool sites_pass(const struct tu *t, struct sites_opts *o, const struct fn_list *fns,
		       struct summary_cache *cache, const struct binding *bind, size_t nbind,
		       const struct usage_scope *scope, bool *wrapper_done, int pass,
		       struct file_result *out, size_t first_site)
{
	bool new_wrappers = false;
	summary_cache_forget_calls(cache);
	for (size_t i = 0; i < fns->n; i++) {
		struct fn_model *f = fns->f[i];
		if (debug_on())
			fprintf(stderr, "debug: function %s (%d nodes, %d kept)%s\n", f->name, f->nnodes,
				fn_kept_nodes(f), has_alloc_call(f->body, o->table) ? " has allocator calls" : "");
		if (!has_alloc_call(f->body, o->table))
			continue;
		struct fn_scan s = { .tu = t, .o = o, .fn = f, .cache = cache,
				     .facts_out = o->collect_facts && pass == 0 ? out : NULL, .scope = scope };
		struct eval_ctx cx = { .tu = t, .fn = f, .on_call = on_call, .data = &s,
				       .cache = cache, .is_allocator = is_alloc_name,
				       .on_fact = o->collect_facts && pass == 0 ? on_fact : NULL,
				       .facts = o->facts, .file = o->report_path };
		const struct binding *mine = NULL;
		for (size_t b = 0; b < nbind; b++)
			if (bind[b].seen && !strcmp(bind[b].name, f->name ? f->name : ""))
				mine = &bind[b];
		s.args = mine ? mine->args : NULL;
		s.nargs = mine ? mine->nargs : 0;
		struct aval *kvargs = NULL;
		if (kv_definition_args(t, o->table, f, &kvargs)) {
			s.kv_def = true;
			s.args = kvargs;
			s.nargs = (unsigned)f->nparams;
		}
		eval_function(&cx, s.args, s.nargs);
		defaults_run(&s, &cx);
		if (!wrapper_done[i] && promote_wrapper(&s)) {
			wrapper_done[i] = true;
			new_wrappers = true;
			summary_cache_forget_calls(cache);
		}
		for (size_t k = 0; k < s.n; k++)
			build_site(&s, &s.recs[k], out);
		free(kvargs);
		if (wrapper_done[i] || (f->name && alloc_table_find(o->table, f->name)))
			unknown_wrapper_orders(&s, out, first_site);
		free(s.recs);
	}
	return new_wrappers;
}

/* The fact base: what the functions without allocations store and pass,
 * the globals' initializers, and how each function handles the failures
 * of those it calls and frees what they return. */
static void publish_facts(const struct tu *t, struct sites_opts *o, const struct fn_list *fns,
			  struct summary_cache *cache, struct file_result *out)
{
	struct init_walk w = { t, o, out };
	summary_cache_forget_calls(cache);
	clang_visitChildren(clang_getTranslationUnitCursor(t->tu), global_inits, &w);
	for (size_t i = 0; i < fns->n; i++) {
		struct fn_model *f = fns->f[i];
		if (!f->in_main || has_alloc_call(f->body, o->table))
			continue;
		struct fn_scan s = { .tu = t, .o = o, .fn = f, .cache = cache, .facts_out = out };
		struct eval_ctx cx = { .tu = t, .fn = f, .on_call = on_call, .data = &s, .cache = cache,
				       .is_allocator = is_alloc_name, .on_fact = on_fact,
				       .facts = o->facts, .file = o->report_path, .budget = 20000 };
		eval_function(&cx, NULL, 0);
		free(s.recs);
	}
	callers_publish(t, fns->f, fns->n, o->report_path, o->table, out);
	for (size_t i = 0; i < fns->n; i++)
		frees_publish(fns->f[i], out);
}

/* One site per written call (alloc_hooks can expand a call twice), in
 * order, each with its confidence. */
static void sites_settle(const struct tu *t, struct file_result *out, size_t first_site)
{
	if (out->nsites > first_site)
		qsort(out->sites + first_site, out->nsites - first_site, sizeof(*out->sites), cmp_site);
	size_t w = first_site;
	for (size_t i = first_site; i < out->nsites; i++) {
		if (w > first_site && out->sites[w - 1].line == out->sites[i].line &&
		    out->sites[w - 1].col == out->sites[i].col && !strcmp(out->sites[w - 1].api, out->sites[i].api)) {
			struct site *p = &out->sites[w - 1];
			p->gfp = gfp_join(p->gfp, out->sites[i].gfp);
			site_release(&out->sites[i]);
			continue;
		}
		if (w != i)
			out->sites[w] = out->sites[i];
		w++;
	}
	out->nsites = w;
	for (size_t i = first_site; i < out->nsites; i++) {
		struct site *p = &out->sites[i];
		if (!p->order.known && !p->unknown_why)
			p->unknown_why = xstrdup("the callers decide the order");
		p->conf = site_confidence(p, t->facts.costly_order ? t->facts.costly_order
								  : PAGE_ALLOC_COSTLY_ORDER_DEFAULT);
	}
}

int sites_find(const struct tu *t, struct sites_opts *o, struct file_result *out)
{
	struct fn_list fns = { 0 };
	struct collect_ctx cc = { t, &fns };
	clang_visitChildren(clang_getTranslationUnitCursor(t->tu), collect_fns, &cc);
	o->nfunctions = (int)fns.n;
	struct summary_cache *cache = summary_cache_new();
	size_t first_site = out->nsites;
	struct usage_scope scope = { fns.f, fns.n, o->facts };

	struct binding *bind = NULL;
	size_t nbind = find_bindable(t, fns.f, fns.n, o->table, &bind);
	bind_rounds(t, o, &fns, cache, bind, nbind);

	bool *wrapper_done = xcalloc(fns.n + 1, sizeof(bool));
	for (int pass = 0; pass < MAX_WRAPPER_PASSES; pass++) {
		/* drop sites of the previous pass: the table changed */
		while (out->nsites > first_site)
			site_release(&out->sites[--out->nsites]);
		if (!sites_pass(t, o, &fns, cache, bind, nbind, &scope, wrapper_done, pass, out, first_site))
			break;
	}
	if (o->collect_facts) {
		publish_facts(t, o, &fns, cache, out);
		usage_publish(&scope, o->report_path, out);
	}
	sites_settle(t, out, first_site);

	free(wrapper_done);
	for (size_t b = 0; b < nbind; b++)
		free(bind[b].args);
	free(bind);
	for (size_t i = 0; i < fns.n; i++)
		fn_free(fns.f[i]);
	free(fns.f);
	summary_cache_free(cache);
	return 0;
}
