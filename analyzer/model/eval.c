/* The abstract interpreter (see eval.h). */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include "gfpaudit/eval.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/ksrc.h"
#include "gfpaudit/facts.h"

#define SUMMARY_MAX_NODES 6000
#define SUMMARY_MAX_DEPTH 4
#define LOOP_ITERS 4

/* ---- values ---- */

static struct interval iv_top(void) { return iv_norm((struct interval){ IV_MIN, IV_MAX, false }); }

struct aval aval_unknown(void)
{
	struct aval a;
	memset(&a, 0, sizeof(a));
	a.iv = iv_top();
	a.g = gfp_unknown();
	a.param = -1;
	a.gparam = -1;
	a.src = SRCB(UNKNOWN);
	a.src_why_kind = -1;
	return a;
}

struct aval aval_source(enum src_kind kind, const char *why, unsigned line)
{
	struct aval a = aval_unknown();
	a.src = 1u << kind;
	a.src_why = str_intern(why);
	a.src_why_kind = why ? (int)kind : -1;
	a.src_line = line;
	return a;
}

void aval_src_merge(struct aval *a, const struct aval *b)
{
	a->src |= b->src;
	if (b->src_why && (!a->src_why || src_rank(b->src_why_kind) > src_rank(a->src_why_kind))) {
		a->src_why = b->src_why;
		a->src_why_kind = b->src_why_kind;
		a->src_line = b->src_line;
	}
}

/* `r` is computed from `a` (and `b`): its provenance is theirs only. */
static void src_from(struct aval *r, const struct aval *a, const struct aval *b)
{
	r->src = 0;
	r->src_why = NULL;
	r->src_why_kind = -1;
	r->src_line = 0;
	aval_src_merge(r, a);
	if (b)
		aval_src_merge(r, b);
}

static struct aval aval_const(const struct tu *t, long long v)
{
	struct aval a = aval_unknown();
	a.iv = iv_norm(iv_const(v));
	a.g = gfp_const(aval_canon(t, v));
	a.src = SRCB(CONST);
	return a;
}

uint64_t aval_canon(const struct tu *t, long long v)
{
	return gfp_table_to_canon(&t->gfp, (uint64_t)v);
}

static void ev_add(struct aval *a, unsigned line)
{
	if (!line)
		return;
	for (int i = 0; i < a->nev; i++)
		if (a->evl[i] == line)
			return;
	if (a->nev < EV_MAX)
		a->evl[a->nev++] = line;
	else {
		memmove(a->evl, a->evl + 1, (EV_MAX - 1) * sizeof(a->evl[0]));
		a->evl[EV_MAX - 1] = line;
	}
}

static void ev_merge(struct aval *a, const struct aval *b)
{
	for (int i = 0; i < b->nev; i++)
		ev_add(a, b->evl[i]);
}

struct aval aval_join(struct aval a, struct aval b)
{
	struct aval r = aval_unknown();
	r.iv = iv_norm(iv_join(a.iv, b.iv));
	r.g = gfp_join(a.g, b.g);
	if (a.param >= 0 && a.param == b.param) {
		r.param = a.param;
		r.pset_must = a.pset_must & b.pset_must;
		r.pset_may = a.pset_may | b.pset_may;
		r.pclr = a.pclr & b.pclr;
		r.pclr_may = a.pclr_may | b.pclr_may;
	}
	r.pdep = a.pdep | b.pdep;
	r.gparam = a.gparam == b.gparam ? a.gparam : -1;
	ev_merge(&r, &a);
	ev_merge(&r, &b);
	src_from(&r, &a, &b);
	/* the top is the higher side's (either's on a tie) */
	r.top_user = (a.top_user && a.iv.hi >= b.iv.hi) || (b.top_user && b.iv.hi >= a.iv.hi);
	if (a.ffs_var && a.ffs_var == b.ffs_var) {
		r.ffs_var = a.ffs_var;
		r.ffs_hi = a.ffs_hi > b.ffs_hi ? a.ffs_hi : b.ffs_hi;
	}
	return r;
}

static bool aval_same(const struct aval *a, const struct aval *b)
{
	return a->iv.lo == b->iv.lo && a->iv.hi == b->iv.hi && a->g.must == b->g.must &&
	       a->g.may == b->g.may && a->param == b->param && a->pset_must == b->pset_must &&
	       a->pset_may == b->pset_may && a->pclr == b->pclr && a->pclr_may == b->pclr_may &&
	       a->pdep == b->pdep &&
	       a->gparam == b->gparam && a->src == b->src && a->top_user == b->top_user &&
	       a->ffs_var == b->ffs_var && a->ffs_hi == b->ffs_hi;
}

struct order_range aval_order(const struct aval *a, int max_order)
{
	struct order_range r = { 0, 0, false };
	if (!a->iv.known || a->iv.hi > 64 || a->iv.lo < -64)
		return r;
	int64_t lo = a->iv.lo < 0 ? 0 : a->iv.lo, hi = a->iv.hi < 0 ? 0 : a->iv.hi;
	if (lo <= max_order && hi > max_order)
		hi = max_order; /* the allocator refuses orders above MAX_PAGE_ORDER */
	r.lo = (int)lo;
	r.hi = (int)hi;
	r.known = true;
	return r;
}

/* ---- states ---- */

static struct state st_new(int n)
{
	struct state s = { xcalloc((size_t)(n ? n : 1), sizeof(struct aval)), n, false };
	for (int i = 0; i < n; i++)
		s.v[i] = aval_unknown();
	return s;
}

static struct state st_copy(const struct state *s)
{
	struct state r = { xmalloc((size_t)(s->n ? s->n : 1) * sizeof(struct aval)), s->n, s->dead };
	memcpy(r.v, s->v, (size_t)s->n * sizeof(struct aval));
	return r;
}

static void st_free(struct state *s)
{
	free(s->v);
	s->v = NULL;
}

/* a := a JOIN b; dead states are the identity */
static void st_join_into(struct state *a, const struct state *b)
{
	if (b->dead)
		return;
	if (a->dead) {
		memcpy(a->v, b->v, (size_t)a->n * sizeof(struct aval));
		a->dead = false;
		return;
	}
	for (int i = 0; i < a->n; i++)
		a->v[i] = aval_join(a->v[i], b->v[i]);
}

static bool st_same(const struct state *a, const struct state *b)
{
	if (a->dead != b->dead)
		return false;
	for (int i = 0; i < a->n; i++)
		if (!aval_same(&a->v[i], &b->v[i]))
			return false;
	return true;
}

/* After loop iterations that keep moving a bound, give up on that bound
 * (towards the type bound) so the fixpoint terminates. */
static void st_widen(struct state *a, const struct state *prev, const struct fn_model *fn)
{
	if (a->dead || prev->dead)
		return;
	for (int i = 0; i < a->n; i++) {
		struct interval *x = &a->v[i].iv;
		const struct interval *p = &prev->v[i].iv;
		const struct fn_var *v = &fn->vars[i];
		if (x->lo < p->lo)
			x->lo = (v->bits && !v->is_signed) ? 0 : IV_MIN;
		if (x->hi > p->hi) {
			x->hi = (v->bits && v->bits < 32) ? ((int64_t)1 << v->bits) - 1 : IV_MAX;
			/* grows with a trip count nothing here bounds */
			a->v[i].src |= SRCB(UNKNOWN);
			a->v[i].top_user = false;
		}
		*x = iv_norm(*x);
	}
}

/* ---- the interpreter ---- */

struct loop_frame {
	struct state brk, cont;
	struct loop_frame *up;
};

struct label_state {
	const char *name;
	struct state st;
	bool has;
	unsigned visited_off; /* offset of the label once this pass reached it, else 0 */
	bool visited;
};

static struct label_state *label_get(struct eval_ctx *cx, const char *name)
{
	for (int i = 0; i < cx->nlabels; i++)
		if (!strcmp(cx->labels[i].name, name))
			return &cx->labels[i];
	if (cx->nlabels >= cx->labels_alloc) {
		cx->labels_alloc = cx->labels_alloc ? cx->labels_alloc * 2 : 8;
		cx->labels = xrealloc(cx->labels, (size_t)cx->labels_alloc * sizeof(*cx->labels));
	}
	struct label_state *l = &cx->labels[cx->nlabels++];
	memset(l, 0, sizeof(*l));
	l->name = name;
	return l;
}

struct summary_cache {
	struct fn_model **fns;
	size_t n, alloc;
	CXCursor *keys;
	size_t keys_alloc;
	/* clang_hashCursor(key) -> slot + 1 of the newest key with that hash;
	 * same_hash[slot]: the next older slot + 1 (0: none) */
	GHashTable *by_hash;
	size_t *same_hash;
	/* the summary with every argument unknown, per function (most calls) */
	struct aval *generic;
	bool *generic_done, *generic_has;
	size_t generic_alloc;
	struct ksrc_params *params; /* the file's module parameters, when asked */
	bool params_done;
	struct ksrc_policies *policies; /* the file's netlink policies, when asked */
	bool policies_done;
	/* call_summary's memo (below) and the recordings under way */
	GHashTable *memo;
	struct memo_rec *rec;
	unsigned long memo_hits, memo_misses;
};

struct summary_cache *summary_cache_new(void)
{
	return xcalloc(1, sizeof(struct summary_cache));
}

static void memo_entries_free(void *p);

void summary_cache_free(struct summary_cache *c)
{
	if (!c)
		return;
	if (getenv("GFPAUDIT_PROFILE") && (c->memo_hits || c->memo_misses))
		fprintf(stderr, "profile: summary memo %lu hits %lu misses\n", c->memo_hits, c->memo_misses);
	if (c->memo)
		g_hash_table_destroy(c->memo);
	for (size_t i = 0; i < c->n; i++)
		fn_free(c->fns[i]);
	free(c->fns);
	free(c->keys);
	free(c->same_hash);
	if (c->by_hash)
		g_hash_table_destroy(c->by_hash);
	free(c->generic);
	free(c->generic_done);
	free(c->generic_has);
	ksrc_params_free(c->params);
	ksrc_policies_free(c->policies);
	free(c);
}

static struct fn_model *summary_fn(struct eval_ctx *cx, CXCursor def, size_t *slot)
{
	struct summary_cache *c = cx->cache;
	if (!c->by_hash)
		c->by_hash = g_hash_table_new(g_direct_hash, g_direct_equal);
	gpointer hk = GUINT_TO_POINTER(clang_hashCursor(def));
	size_t newest = GPOINTER_TO_SIZE(g_hash_table_lookup(c->by_hash, hk));
	for (size_t i1 = newest; i1; i1 = c->same_hash[i1 - 1])
		if (clang_equalCursors(c->keys[i1 - 1], def)) {
			*slot = i1 - 1;
			return c->fns[i1 - 1];
		}
	struct fn_model *f = fn_build(cx->tu, def);
	if (f && f->nnodes > SUMMARY_MAX_NODES) {
		fn_free(f);
		f = NULL;
	}
	ALLOC_GROW(c->fns, c->n + 1, c->alloc);
	if (c->keys_alloc < c->alloc) {
		c->keys = xrealloc(c->keys, c->alloc * sizeof(*c->keys));
		c->same_hash = xrealloc(c->same_hash, c->alloc * sizeof(*c->same_hash));
		c->keys_alloc = c->alloc;
	}
	c->same_hash[c->n] = newest;
	g_hash_table_insert(c->by_hash, hk, GSIZE_TO_POINTER(c->n + 1));
	if (c->generic_alloc < c->alloc) {
		c->generic = xrealloc(c->generic, c->alloc * sizeof(*c->generic));
		c->generic_done = xrealloc(c->generic_done, c->alloc * sizeof(*c->generic_done));
		c->generic_has = xrealloc(c->generic_has, c->alloc * sizeof(*c->generic_has));
		c->generic_alloc = c->alloc;
	}
	c->fns[c->n] = f;
	c->keys[c->n] = def;
	c->generic_done[c->n] = false;
	*slot = c->n;
	c->n++;
	return f;
}

static bool aval_is_unknown(const struct aval *a)
{
	return !a->iv.known && a->g.must == 0 && a->g.may == GFP_ALL_BITS && a->param < 0;
}

static struct aval eval(struct eval_ctx *cx, struct node *n, struct state *st);

/* ---- attempt classes (eval_assume) ---- */

static int ptr_cmp(const void *a, const void *b)
{
	const struct node *x = *(const struct node *const *)a, *y = *(const struct node *const *)b;
	return x < y ? -1 : x > y;
}

static bool is_tied(const struct eval_ctx *cx, const struct node *n)
{
	const struct eval_assume *a = cx->assume;
	if (!a || !n || n->var < 0 || n->var != a->var || !a->ntied)
		return false;
	return bsearch(&n, a->tied, a->ntied, sizeof(*a->tied), ptr_cmp) != NULL;
}

/* A read of the class variable that sees the value the call passes: the
 * path goes on only where that value is in the class. */
static void narrow_tied(struct eval_ctx *cx, const struct node *n, struct state *st)
{
	if (st->dead || !is_tied(cx, n))
		return;
	struct interval cur = st->v[n->var].iv, k = cx->assume->iv;
	int64_t lo = cur.lo > k.lo ? cur.lo : k.lo, hi = cur.hi < k.hi ? cur.hi : k.hi;
	if (lo > hi)
		st->dead = true;
	else
		st->v[n->var].iv = iv_norm(iv_range(lo, hi));
}

static const char *mirror_op(const char *op);

/* The truth of comparison `c` when it compares a tied read of the class
 * variable with the class's relation variable: 1, 0, or -1 (not decided). */
static int assume_cmp(const struct eval_ctx *cx, struct node *c)
{
	const struct eval_assume *a = cx->assume;
	if (!a || a->rel == REL_NONE || a->rel_var < 0 || !c || c->nkids != 2 || !c->op)
		return -1;
	struct node *l = node_strip(c->kids[0]), *r = node_strip(c->kids[1]);
	const char *op = c->op;
	if (!l || !r)
		return -1;
	if (r->kind == CXCursor_DeclRefExpr && is_tied(cx, r)) {
		struct node *t = l;
		l = r;
		r = t;
		op = mirror_op(op);
	}
	if (l->kind != CXCursor_DeclRefExpr || !is_tied(cx, l) || r->kind != CXCursor_DeclRefExpr ||
	    r->var != a->rel_var)
		return -1;
	bool gt = a->rel == REL_GT, eq = a->rel == REL_EQ, lt = a->rel == REL_LT;
	if (!strcmp(op, ">")) return gt;
	if (!strcmp(op, ">=")) return gt || eq;
	if (!strcmp(op, "<")) return lt;
	if (!strcmp(op, "<=")) return lt || eq;
	if (!strcmp(op, "==")) return eq;
	if (!strcmp(op, "!=")) return !eq;
	return -1;
}

static bool is_cmp_op(const char *op)
{
	return op && (!strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=") ||
		      !strcmp(op, "==") || !strcmp(op, "!="));
}

static void exec(struct eval_ctx *cx, struct node *n, struct state *st);

static struct aval type_bounded(struct node *n, struct aval a)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(n->cur));
	int bits = 0;
	bool sgn = false;
	switch (t.kind) {
	case CXType_Bool: bits = 1; break;
	case CXType_Char_U: case CXType_UChar: bits = 8; break;
	case CXType_Char_S: case CXType_SChar: bits = 8; sgn = true; break;
	case CXType_UShort: bits = 16; break;
	case CXType_Short: bits = 16; sgn = true; break;
	case CXType_UInt: bits = 32; break;
	case CXType_Int: bits = 32; sgn = true; break;
	case CXType_ULong: case CXType_ULongLong: bits = 64; break;
	default: break;
	}
	if (!bits)
		return a;
	if (bits == 64 || (bits == 32 && !a.iv.known)) {
		/* an unknown int is no bound ("up to 4 GiB" says nothing);
		 * unsigned: at least not negative */
		if (!sgn && !a.iv.known && a.iv.lo < 0)
			a.iv.lo = 0;
		a.iv = iv_norm(a.iv);
		return a;
	}
	int64_t hi = a.iv.hi;
	a.iv = iv_norm(iv_type_bound(a.iv, bits, sgn));
	if (a.iv.hi != hi)
		a.top_user = false; /* wrapped or cut: not the user's top */
	return a;
}

static int var_bits_bound(const struct fn_var *v, struct interval *iv)
{
	if (!v->bits)
		return 0;
	/* small types bound any value (u16 <= 65535); an int only keeps a
	 * known value in range: an unknown one stays unknown */
	if (v->bits < 32 || (v->bits == 32 && iv->known))
		*iv = iv_type_bound(*iv, v->bits, v->is_signed);
	else if (!v->is_signed && iv->lo < 0)
		iv->lo = 0;
	*iv = iv_norm(*iv);
	return 1;
}

static void assign(struct eval_ctx *cx, struct state *st, int var, struct aval val, unsigned line)
{
	if (var < 0 || st->dead)
		return;
	int64_t hi = val.iv.hi;
	var_bits_bound(&cx->fn->vars[var], &val.iv);
	if (val.iv.hi != hi)
		val.top_user = false;
	ev_add(&val, line);
	st->v[var] = val;
}

/* Is `n` a plain reference to a local variable (through parens/casts)? */
static int local_of(struct node *n)
{
	n = node_strip(n);
	return n && (n->kind == CXCursor_DeclRefExpr || n->kind == CXCursor_MemberRefExpr) ? n->var : -1;
}

/* ---- stores and reads through a pointer to a local ---- */

/* The initializer of a VarDecl node: its last expression kid, when it
 * has one (`typeof(e) v;` has an expression kid, the operand of typeof,
 * and no initializer). */
static struct node *decl_init(struct node *d)
{
	struct node *init = NULL;
	for (unsigned k = 0; k < d->nkids; k++)
		if (clang_isExpression(d->kids[k]->kind))
			init = d->kids[k];
	if (init && clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(d->cur)))
		return NULL;
	return init;
}

/* The declaration node of local `v` (first found), or NULL. */
static struct node *var_decl_node(struct node *n, int v)
{
	if (!n)
		return NULL;
	if (n->kind == CXCursor_VarDecl && n->var == v)
		return n;
	for (unsigned i = 0; i < n->nkids; i++) {
		struct node *r = var_decl_node(n->kids[i], v);
		if (r)
			return r;
	}
	return NULL;
}

/* How many times the function writes local `v` after its declaration
 * (taking its address counts: a callee may write it); *last is the last
 * write seen. */
static int var_writes(struct node *n, int v, struct node **last)
{
	if (!n)
		return 0;
	int c = node_modifies(n, v);
	if (!c && n->kind == CXCursor_UnaryOperator && n->op && !strcmp(n->op, "&") && n->nkids == 1) {
		struct node *k = node_strip(n->kids[0]);
		c = k && k->kind == CXCursor_DeclRefExpr && k->var == v;
	}
	if (c)
		*last = n;
	for (unsigned i = 0; i < n->nkids; i++)
		c += var_writes(n->kids[i], v, last);
	return c;
}

/* The one value local `v` is ever given: its initializer when nothing
 * assigns it again (a macro's temporary), or its only assignment when it
 * has no initializer (`a = tb[X];`); else NULL.  Flow-insensitive: a read
 * before that assignment would read an uninitialized local. */
static struct node *var_init_once(const struct eval_ctx *cx, int v)
{
	if (v < 0 || cx->fn->vars[v].param >= 0)
		return NULL;
	struct node *d = var_decl_node(cx->fn->root, v);
	struct node *init = d ? decl_init(d) : NULL, *w = NULL;
	int nw = var_writes(cx->fn->body, v, &w);
	if (init)
		return nw ? NULL : node_strip(init);
	if (nw != 1 || w->kind != CXCursor_BinaryOperator || w->nkids != 2)
		return NULL;
	return node_strip(w->kids[1]);
}

static enum CXChildVisitResult first_kid(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	*(CXCursor *)d = c;
	return CXChildVisit_Break;
}

/* Is a variable's initializer a unary operator (`&x`), through parens and
 * implicit conversions?  A cheap test before walking the function. */
static bool init_takes_address(CXCursor decl)
{
	CXCursor c = clang_Cursor_getVarDeclInitializer(decl);
	for (int i = 0; i < 8 && !clang_Cursor_isNull(c); i++) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k == CXCursor_UnaryOperator)
			return true;
		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr)
			return false;
		CXCursor kid = clang_getNullCursor();
		clang_visitChildren(c, first_kid, &kid);
		c = kid;
	}
	return false;
}

/* What a pointer expression points to: x for `&x` (through casts:
 * WRITE_ONCE()'s `*(volatile typeof(x) *)&(x)`), or for a local pointer
 * that is initialized with `&x` and never assigned (the temporaries of
 * the kernel's statement-expression macros: check_shl_overflow()'s
 * `typeof(d) _d = d`).  NULL when not known. */
static struct node *pointee_node(const struct eval_ctx *cx, struct node *p)
{
	p = node_strip(p);
	while (p && p->kind == CXCursor_CStyleCastExpr && p->nkids)
		p = node_strip(p->kids[p->nkids - 1]);
	if (!p)
		return NULL;
	if (p->kind == CXCursor_DeclRefExpr) {
		if (p->var < 0 || !init_takes_address(cx->fn->vars[p->var].decl))
			return NULL;
		p = var_init_once(cx, p->var);
	}
	if (!p || p->kind != CXCursor_UnaryOperator || !p->op || strcmp(p->op, "&") || p->nkids != 1)
		return NULL;
	return p->kids[0];
}

/* The local (or field path) a pointer expression points to, or -1. */
static int pointee_var(const struct eval_ctx *cx, struct node *p)
{
	struct node *x = pointee_node(cx, p);
	return x ? local_of(x) : -1;
}

/* `*p` with p pointing to a known place: that place's node, or NULL. */
static struct node *deref_node(const struct eval_ctx *cx, struct node *n)
{
	n = node_strip(n);
	if (!n || n->kind != CXCursor_UnaryOperator || !n->op || strcmp(n->op, "*") || n->nkids != 1)
		return NULL;
	return pointee_node(cx, n->kids[0]);
}

static int deref_var(const struct eval_ctx *cx, struct node *n)
{
	struct node *x = deref_node(cx, n);
	return x ? local_of(x) : -1;
}

/* ---- provenance at the leaves (ksrc.h) ---- */

static char *cursor_spelling(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
	clang_disposeString(s);
	return r;
}

/* An address: the tree's facts bound sizes, orders and masks, and the
 * joined interval of a pointer's stores says nothing a reader uses (it
 * only widens the facts passes: every file that stores a pointer into a
 * list_head would publish into what an allocating function reads). */
static bool type_is_address(CXType t)
{
	t = clang_getCanonicalType(t);
	switch (t.kind) {
	case CXType_Pointer:
	case CXType_BlockPointer:
	case CXType_ConstantArray:
	case CXType_IncompleteArray:
	case CXType_VariableArray:
	case CXType_DependentSizedArray:
	case CXType_FunctionProto:
	case CXType_FunctionNoProto:
		return true;
	default:
		return false;
	}
}

char *eval_field_key(CXCursor fld)
{
	if (clang_Cursor_isNull(fld) || clang_getCursorKind(fld) != CXCursor_FieldDecl)
		return NULL;
	if (type_is_address(clang_getCursorType(fld)))
		return NULL;
	CXCursor par = clang_getCursorSemanticParent(fld);
	if (clang_Cursor_isAnonymous(par))
		return NULL;
	char *rec = cursor_spelling(par), *name = cursor_spelling(fld);
	char *k = *rec && *name ? xasprintf("field:%s.%s", rec, name) : NULL;
	free(rec);
	free(name);
	return k;
}

char *eval_param_key(CXCursor fn, const char *file, int i)
{
	if (i >= 0) {
		CXType ft = clang_getCursorType(fn);
		if (ft.kind == CXType_FunctionProto && i < clang_getNumArgTypes(ft) &&
		    type_is_address(clang_getArgType(ft, (unsigned)i)))
			return NULL;
	}
	char *name = cursor_spelling(fn);
	bool st = clang_Cursor_getStorageClass(fn) == CX_SC_Static;
	char idx[16];
	if (i < 0)
		snprintf(idx, sizeof(idx), "*");
	else
		snprintf(idx, sizeof(idx), "%d", i);
	char *k = st ? xasprintf("param:%s:%s#%s", file ? file : "?", name, idx)
		     : xasprintf("param:%s#%s", name, idx);
	free(name);
	return k;
}

struct memo_rec;
static void memo_note(struct summary_cache *sc, const char *key, const struct aval *v, unsigned line);

static void fact_note(struct eval_ctx *cx, const char *key, const struct aval *v, unsigned line)
{
	if (!cx->on_fact || !key)
		return;
	cx->on_fact(cx->data, key, v, line);
	if (cx->cache)
		memo_note(cx->cache, key, v, line);
}

/* An unbounded join that holds a constant too large for any costly
 * order to be avoided (above PAGE_SIZE << PAGE_ALLOC_COSTLY_ORDER, and
 * below KMALLOC_MAX_SIZE, so no U32_MAX-like sentinel): that constant is
 * what one caller passes or one store sets, a path the tree shows, so the
 * read is taken as it (a witness, not a bound).  Smaller constants tell
 * nothing about the other, unbounded, observations: false. */
/* The smallest costly size of any tree: 4 KiB pages (PAGE_SHIFT is 12 or
 * more on every architecture) << PAGE_ALLOC_COSTLY_ORDER (3). */
#define FACT_WITNESS_FLOOR ((int64_t)1 << (12 + 3))

/* SRC_FROM_FACTS for a value stored into a field (or a global) in other
 * files: that store may be for another instance of the struct (amdgpu's
 * per-ASIC tables share one field), so its constants make a costly order
 * likely, not proven.  A constant a caller passes (param:) is a call path
 * that exists: it stays a constant. */
static unsigned fact_far(const char *key)
{
	return strncmp(key, "param:", 6) ? SRC_FROM_FACTS : 0;
}

static bool fact_witness(const struct eval_ctx *cx, const char *key, const struct fact_value *fv,
			 struct aval *out)
{
	const struct tree_facts *tf = &cx->tu->facts;
	int64_t costly = (int64_t)1 << (tf->page_shift + tf->costly_order);
	int64_t kmax = (int64_t)1 << (tf->page_shift + tf->max_order);
	if (costly < FACT_WITNESS_FLOOR) /* no tree has: keeps eval_fact_text() exact */
		costly = FACT_WITNESS_FLOOR;
	if (!fv->has_cmax || fv->cmax <= costly || fv->cmax > kmax)
		return false;
	char *why = xasprintf("%s = %lld at %s, one of %u observations, the others unbounded", key,
			      (long long)fv->cmax, fv->cmax_where ? fv->cmax_where : "?", fv->nobs);
	*out = aval_source(SRC_CONST, why, 0);
	free(why);
	out->src |= fact_far(key);
	/* the witnessed path alone: a guard in this function that sends it
	 * elsewhere (vmalloc above a limit) then leaves nothing costly */
	out->iv = iv_const(fv->cmax);
	/* no gfp bits: one store's mask is no mask of this read (a witness is
	 * for sizes; address_space.gfp_mask's largest constant, GFP_HIGHUSER |
	 * __GFP_RETRY_MAYFAIL of one driver, made readahead's NORETRY a false
	 * gfp-contradiction error) */
	return true;
}

/* The tree's joined value for `key`, as a value of this function: false
 * when the tree shows nothing, or nothing bounded and nothing telling.
 * `mask`: the value read is a gfp_t; a witness (one store's constant
 * beside unbounded ones) is for sizes, not for a mask: the largest
 * constant stored into address_space.gfp_mask across the tree (one
 * driver's GFP_HIGHUSER | __GFP_RETRY_MAYFAIL) made every readahead mask
 * carry __GFP_RETRY_MAYFAIL beside its __GFP_NORETRY (false
 * gfp-contradiction errors on mm/readahead.c, erofs, bcachefs). */
static bool fact_value(const struct eval_ctx *cx, const char *key, bool mask, struct aval *out)
{
	/* what it takes from the answer: keep eval_fact_text() in step */
	struct fact_value fv;
	if (!cx->facts || !key || !factbase_get(cx->facts, key, &fv))
		return false;
	/* Only a bound is worth taking from elsewhere: the kinds of an
	 * unbounded join (a field the whole tree stores, kvec.iov_len) say
	 * nothing about this read. */
	if (!fv.iv.known)
		return !mask && fact_witness(cx, key, &fv, out);
	int kind = src_primary(fv.src);
	char *why = xasprintf("%s (%u store%s across the tree, e.g. %s)", key, fv.nobs,
			      fv.nobs == 1 ? "" : "s", fv.where ? fv.where : "?");
	/* Constants stored everywhere are constants; any other join of what
	 * the tree stores is "unknown": judged on 6.12, the kinds of stores
	 * made far away mostly do not describe this read
	 * (bench/accuracy/judged-issue14-*.tsv) */
	bool consts = fv.src && !(fv.src & ~(SRCB(CONST) | SRCB(CONFIG) | SRC_FROM_FACTS));
	(void)kind;
	*out = aval_source(consts ? SRC_CONST : SRC_UNKNOWN, why, 0);
	free(why);
	out->src = consts ? fv.src | fact_far(key) : SRCB(UNKNOWN);
	out->iv = fv.iv.known ? iv_norm(fv.iv) : iv_top();
	if (iv_is_const(out->iv))
		out->g = gfp_const(aval_canon(cx->tu, out->iv.lo));
	return true;
}

/* fact_value()'s view (facts.h): an unbounded join is no answer unless it
 * may hold a witness (a constant above FACT_WITNESS_FLOOR: this tells
 * apart at least what fact_witness() does on every tree); a bounded one is its range, the
 * kinds when they are constants (else "unknown" whatever they are), and
 * the count and first place its note names.  The files of the second
 * observation and their count are not read. */
char *eval_fact_text(const struct fact_value *v)
{
	if (!v)
		return xstrdup("-");
	if (!v->iv.known) {
		if (!v->has_cmax || v->cmax <= FACT_WITNESS_FLOOR)
			return xstrdup("-");
		return xasprintf("witness %lld %s %u", (long long)v->cmax, v->cmax_where ? v->cmax_where : "?",
				 v->nobs);
	}
	bool consts = v->src && !(v->src & ~(SRCB(CONST) | SRCB(CONFIG) | SRC_FROM_FACTS));
	return xasprintf("bound %lld %lld %x %u %s", (long long)v->iv.lo, (long long)v->iv.hi,
			 consts ? v->src : SRCB(UNKNOWN), v->nobs, v->where ? v->where : "?");
}

/* Is the declaration's (or expression's) type spelled gfp_t (a mask)? */
static bool decl_is_gfp(CXCursor decl)
{
	CXString ts = clang_getTypeSpelling(clang_getCursorType(decl));
	bool r = strstr(clang_getCString(ts), "gfp_t") != NULL;
	clang_disposeString(ts);
	return r;
}

/* A read of field `fld` nothing in the function stored: what the field is
 * (device, wire, a known kernel field), else what its base pointer is, else
 * unknown. */
static struct aval field_value(const struct eval_ctx *cx, CXCursor fld, const struct aval *base, unsigned line,
				bool *joined)
{
	if (joined)
		*joined = false;
	if (clang_Cursor_isNull(fld) || clang_getCursorKind(fld) != CXCursor_FieldDecl)
		return base && (base->src & SRC_CONTROLLED) ? *base : aval_source(SRC_UNKNOWN, "a field", line);
	if (cx && cx->facts) {
		char *key = eval_field_key(fld);
		struct aval fv;
		bool have = fact_value(cx, key, decl_is_gfp(fld), &fv);
		free(key);
		if (have) {
			if (joined)
				*joined = true;
			return fv;
		}
	}
	CXCursor par = clang_getCursorSemanticParent(fld);
	char *rec = cursor_spelling(par), *name = cursor_spelling(fld);
	CXString ts = clang_getTypeSpelling(clang_getCursorType(fld));
	const char *why = NULL;
	int k = ksrc_field(rec, name, clang_getCString(ts), &why);
	clang_disposeString(ts);
	struct aval r;
	char *text = xasprintf("%s '%s.%s'", k >= 0 ? why : "field", *rec ? rec : "?", name);
	if (k >= 0) {
		r = aval_source((enum src_kind)k, text, line);
	} else if (base && (base->src & SRC_CONTROLLED)) {
		r = aval_unknown();
		src_from(&r, base, NULL);
	} else {
		r = aval_source(SRC_UNKNOWN, text, line);
	}
	free(text);
	free(rec);
	free(name);
	return r;
}

/* Does the function take a buffer from user space (a __user pointer)?
 * Its size_t parameters are then the user's counts. */
static bool takes_user_buffer(const struct fn_model *f)
{
	for (int i = 0; i < f->nvars; i++)
		if (f->vars[i].param >= 0 && f->vars[i].user_ptr)
			return true;
	return false;
}

static bool is_size_t(CXCursor decl)
{
	CXString s = clang_getTypeSpelling(clang_getCursorType(decl));
	bool r = !strcmp(clang_getCString(s), "size_t");
	clang_disposeString(s);
	return r;
}

/* The value a variable has when nothing in the function set it: at entry,
 * and after a call may have written it. */
static struct aval var_initial(const struct eval_ctx *cx, const struct fn_model *f, int i)
{
	const struct fn_var *v = &f->vars[i];
	struct aval a;
	struct aval fv;
	char *pkey = NULL;
	if (v->param >= 0 && cx && cx->facts && f->in_main)
		pkey = eval_param_key(f->cur, cx->file, v->param);
	bool have = pkey && fact_value(cx, pkey, v->is_gfp, &fv);
	free(pkey);
	if (have) {
		a = fv;
	} else if (v->is_member) {
		a = field_value(cx, v->field, NULL, 0, NULL);
	} else if (v->param >= 0 && !v->user_ptr && is_size_t(v->decl) && takes_user_buffer(f)) {
		char *why = xasprintf("the count of a user buffer, '%s'", v->name);
		a = aval_source(SRC_USER, why, 0);
		free(why);
	} else if (v->param >= 0) {
		char *why = xasprintf("parameter '%s' of %s()", v->name, f->name ? f->name : "?");
		a = aval_source(SRC_UNKNOWN, why, 0);
		free(why);
	} else {
		a = aval_unknown();
	}
	var_bits_bound(v, &a.iv);
	return a;
}

/* A quantity the configuration or the kernel bounds (nr_cpu_ids <=
 * NR_CPUS, an xattr value's size <= XATTR_SIZE_MAX, a netlink attribute's
 * payload <= U16_MAX - NLA_HDRLEN), as the tree says. */
static void runtime_bound(const struct eval_ctx *cx, struct aval *r, enum ksrc_bound kb)
{
	const struct tree_facts *tf = &cx->tu->facts;
	long long b = kb == KB_NR_CPUS ? tf->nr_cpus : kb == KB_MAX_NUMNODES ? tf->max_numnodes
		    : kb == KB_XATTR_SIZE_MAX ? tf->xattr_size_max
		    : kb == KB_PAGECACHE_ORDER ? tf->pagecache_max_order
		    : kb == KB_NLA_PAYLOAD ? 0xffff - 4 : 0;
	if (b > 0)
		r->iv = iv_range(0, b);
	if (b > 0 && kb == KB_XATTR_SIZE_MAX && (r->src & SRCB(USER))) {
		r->src |= SRC_USER_LIMIT;
		r->top_user = true;
	}
	/* the mapping's largest folio order: MAX_PAGECACHE_ORDER on every
	 * filesystem that enables large folios, reached by any large write */
	if (b > 0 && kb == KB_PAGECACHE_ORDER && (r->src & SRCB(CONFIG)))
		r->top_user = true;
}

/* A global variable's value: a kernel runtime quantity, a module
 * parameter, or unknown. */
static struct aval global_value(struct eval_ctx *cx, struct node *n)
{
	CXCursor ref = clang_getCursorReferenced(n->cur);
	if (clang_getCursorKind(ref) == CXCursor_FunctionDecl && cx->on_fact) {
		/* its address is taken: callers the tree does not show */
		char *key = eval_param_key(ref, cx->file, -1);
		struct aval u = aval_unknown();
		fact_note(cx, key, &u, n->line);
		free(key);
	}
	if (clang_getCursorKind(ref) != CXCursor_VarDecl)
		return aval_unknown();
	char *name = cursor_spelling(ref);
	const char *why = NULL;
	enum ksrc_bound kb = KB_NONE;
	int k = ksrc_global(name, &why, &kb);
	struct aval r;
	if (k >= 0) {
		r = aval_source((enum src_kind)k, why, n->line);
		runtime_bound(cx, &r, kb);
	} else {
		struct summary_cache *sc = cx->cache;
		if (sc && !sc->params_done) {
			sc->params = ksrc_params_new(cx->tu);
			sc->params_done = true;
		}
		bool has_def = false;
		long long def = 0;
		if (sc && sc->params && ksrc_params_has(sc->params, ref, &has_def, &def)) {
			char *w = has_def ? xasprintf("module parameter '%s' (default %lld)", name, def)
					  : xasprintf("module parameter '%s'", name);
			r = aval_source(SRC_PARAM, w, n->line);
			if (cx->at_defaults && has_def) {
				/* the parameter's data, the default's value */
				struct aval d = aval_const(cx->tu, def);
				d.src = r.src;
				d.src_why = r.src_why;
				d.src_why_kind = r.src_why_kind;
				d.src_line = r.src_line;
				r = d;
			}
			free(w);
		} else {
			char *w = xasprintf("global '%s'", name);
			r = aval_source(SRC_UNKNOWN, w, n->line);
			free(w);
		}
	}
	free(name);
	return r;
}

/* The caller's text for what pointer argument `a` points to, and the
 * separator its fields follow ("p" and "->", or "x" and "." for &x). */
static char *arg_base(const struct eval_ctx *cx, struct node *call, unsigned a, const char **sep)
{
	struct node *arg = node_strip(node_arg(call, a));
	if (!arg)
		return NULL;
	CXType t = clang_getCanonicalType(clang_getCursorType(node_arg(call, a)->cur));
	if (t.kind != CXType_Pointer)
		return NULL;
	*sep = "->";
	if (arg->kind == CXCursor_UnaryOperator && arg->op && !strcmp(arg->op, "&") && arg->nkids == 1) {
		arg = node_strip(arg->kids[0]);
		*sep = ".";
	}
	return fn_path_text(cx->fn, arg);
}

/* Is tracked path `key` under `base` (base->x, base.x, base[3].x)? */
static bool key_under(const char *key, const char *base, size_t bl)
{
	return !strncmp(key, base, bl) && (key[bl] == '-' || key[bl] == '.' || key[bl] == '[' || !key[bl]);
}

/* A call may write the fields it can reach through the pointers it is
 * given: forget the field paths rooted at a pointer argument's text
 * (helper(rq) forgets rq->order).  Fields reached otherwise (globals,
 * aliases) are not tracked soundly; see README. */
static void forget_members(struct eval_ctx *cx, struct node *call, struct state *st)
{
	if (st->dead)
		return;
	unsigned na = node_nargs(call);
	for (unsigned a = 0; a < na; a++) {
		const char *sep;
		char *base = arg_base(cx, call, a, &sep);
		size_t bl = base ? strlen(base) : 0;
		for (int i = 0; bl && i < st->n; i++) {
			const struct fn_var *v = &cx->fn->vars[i];
			if (!v->is_member || !key_under(v->key, base, bl))
				continue;
			st->v[i] = var_initial(cx, cx->fn, i);
		}
		free(base);
	}
}

/* Does a name refer to a constant (an enumerator, a const variable), not to
 * a variable whose initializer is only its first value? */
static bool const_decl(struct node *n)
{
	CXCursor r = clang_getCursorReferenced(n->cur);
	enum CXCursorKind k = clang_getCursorKind(r);
	if (k == CXCursor_EnumConstantDecl)
		return true;
	if (k != CXCursor_VarDecl)
		return true; /* not a variable: what clang folds is constant */
	return clang_isConstQualifiedType(clang_getCursorType(r));
}

static bool const_leaf(struct node *n, long long *v)
{
	switch (n->kind) {
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_UnaryExpr: /* sizeof, alignof: layout from libclang */
		return tu_eval_int(n->cur, v);
	case CXCursor_DeclRefExpr:
		return n->var < 0 && const_decl(n) && tu_eval_int(n->cur, v);
	default:
		return false;
	}
}

/* A comparison (or && / ||) whose operand intervals decide it: 1, 0, or -1. */
static int cmp_decided(const char *op, struct interval a, struct interval b)
{
	if (!a.known || !b.known)
		return -1;
	if (!strcmp(op, "&&") || !strcmp(op, "||")) {
		bool az = a.lo == 0 && a.hi == 0, bz = b.lo == 0 && b.hi == 0;
		bool anz = a.lo > 0 || a.hi < 0, bnz = b.lo > 0 || b.hi < 0;
		if (!strcmp(op, "&&"))
			return az || bz ? 0 : anz && bnz ? 1 : -1;
		return anz || bnz ? 1 : az && bz ? 0 : -1;
	}
	bool lt = a.hi < b.lo, gt = a.lo > b.hi, le = a.hi <= b.lo, ge = a.lo >= b.hi;
	bool eq = iv_is_const(a) && iv_is_const(b) && a.lo == b.lo;
	if (!strcmp(op, "<")) return lt ? 1 : ge ? 0 : -1;
	if (!strcmp(op, ">")) return gt ? 1 : le ? 0 : -1;
	if (!strcmp(op, "<=")) return le ? 1 : gt ? 0 : -1;
	if (!strcmp(op, ">=")) return ge ? 1 : lt ? 0 : -1;
	if (!strcmp(op, "==")) return eq ? 1 : lt || gt ? 0 : -1;
	if (!strcmp(op, "!=")) return eq ? 0 : lt || gt ? 1 : -1;
	return -1;
}

static struct aval binop(struct eval_ctx *cx, const char *op, struct aval a, struct aval b)
{
	struct aval r = aval_unknown();
	ev_merge(&r, &a);
	ev_merge(&r, &b);
	r.pdep = a.pdep | b.pdep;
	src_from(&r, &a, &b);
	if (!op)
		return r;
	if (!strcmp(op, "+")) r.iv = iv_add(a.iv, b.iv);
	else if (!strcmp(op, "-")) r.iv = iv_sub(a.iv, b.iv);
	else if (!strcmp(op, "*")) r.iv = iv_mul(a.iv, b.iv);
	else if (!strcmp(op, "/")) r.iv = iv_div(a.iv, b.iv);
	else if (!strcmp(op, "%")) r.iv = (b.iv.lo > 0 && a.iv.lo >= 0) ? iv_range(0, b.iv.hi - 1) : iv_top();
	else if (!strcmp(op, "<<")) r.iv = iv_shl(a.iv, b.iv);
	else if (!strcmp(op, ">>")) r.iv = iv_shr(a.iv, b.iv);
	else if (!strcmp(op, "&")) {
		r.iv = iv_and(a.iv, b.iv);
		r.g = (struct gfp_bits){ a.g.must & b.g.must, a.g.may & b.g.may };
		const struct aval *p = a.param >= 0 ? &a : (b.param >= 0 ? &b : NULL);
		const struct aval *k = p == &a ? &b : &a;
		if (p && k->param < 0 && k->g.must == k->g.may) {
			r.param = p->param;
			r.pclr = p->pclr | (~k->g.may & GFP_ALL_BITS);
			r.pclr_may = p->pclr_may | (~k->g.must & GFP_ALL_BITS);
			r.pset_must = p->pset_must & k->g.may;
			r.pset_may = p->pset_may & k->g.may;
		}
	} else if (!strcmp(op, "|")) {
		r.iv = iv_or(a.iv, b.iv);
		r.g = (struct gfp_bits){ a.g.must | b.g.must, a.g.may | b.g.may };
		const struct aval *p = a.param >= 0 ? &a : (b.param >= 0 ? &b : NULL);
		const struct aval *k = p == &a ? &b : &a;
		if (p && k->param < 0) {
			r.param = p->param;
			r.pset_must = p->pset_must | k->g.must;
			r.pset_may = p->pset_may | k->g.may;
			r.pclr = p->pclr & ~k->g.may;
			r.pclr_may = p->pclr_may & ~k->g.must;
		}
	} else if (!strcmp(op, "^")) {
		if (iv_is_const(a.iv) && iv_is_const(b.iv))
			r.iv = iv_const(a.iv.lo ^ b.iv.lo);
		r.g = (struct gfp_bits){ (a.g.must & ~b.g.may) | (b.g.must & ~a.g.may), a.g.may | b.g.may };
	} else if (!strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=") ||
		   !strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "&&") || !strcmp(op, "||")) {
		r.iv = iv_range(0, 1);
		int d = cmp_decided(op, a.iv, b.iv);
		if (d >= 0)
			r.iv = iv_const(d);
		else if (iv_is_const(a.iv) && iv_is_const(b.iv)) {
			int64_t x = a.iv.lo, y = b.iv.lo;
			int v = !strcmp(op, "<") ? x < y : !strcmp(op, ">") ? x > y : !strcmp(op, "<=") ? x <= y :
				!strcmp(op, ">=") ? x >= y : !strcmp(op, "==") ? x == y : !strcmp(op, "!=") ? x != y :
				!strcmp(op, "&&") ? (x && y) : (x || y);
			r.iv = iv_const(v);
		}
		r.g = gfp_const(0);
		r.g.may = GFP_ALL_BITS;
	} else if (!strcmp(op, ",")) {
		return b;
	} else {
		return r;
	}
	r.iv = iv_norm(r.iv);
	/* rising in both operands: the top is the operands' tops */
	if (!strcmp(op, "+") || !strcmp(op, "*") || !strcmp(op, "<<") ||
	    ((!strcmp(op, "-") || !strcmp(op, ">>") || !strcmp(op, "/")) && iv_is_const(b.iv)))
		r.top_user = (a.top_user || iv_is_const(a.iv)) && (b.top_user || iv_is_const(b.iv)) &&
			     (a.top_user || b.top_user) && a.iv.lo >= 0 && b.iv.lo >= 0;
	if (iv_is_const(r.iv) && a.param < 0 && b.param < 0 && strcmp(op, "&") && strcmp(op, "|"))
		r.g = gfp_const(aval_canon(cx->tu, r.iv.lo));
	if (iv_is_const(r.iv) && (!strcmp(op, "&") || !strcmp(op, "|")) &&
	    iv_is_const(a.iv) && iv_is_const(b.iv))
		r.g = gfp_const(aval_canon(cx->tu, r.iv.lo));
	return r;
}

/* ---- refinement by conditions ---- */

static struct interval refine_iv(struct interval v, const char *op, struct interval k, bool truth)
{
	/* normalize to truth */
	static const struct { const char *op, *neg; } negs[] = {
		{ ">", "<=" }, { ">=", "<" }, { "<", ">=" }, { "<=", ">" }, { "==", "!=" }, { "!=", "==" },
	};
	if (!truth)
		for (size_t i = 0; i < sizeof(negs) / sizeof(negs[0]); i++)
			if (!strcmp(op, negs[i].op)) {
				op = negs[i].neg;
				break;
			}
	struct interval r = v;
	if (!strcmp(op, ">")) {
		if (k.lo < IV_MAX && k.lo + 1 > r.lo) r.lo = k.lo + 1;
	} else if (!strcmp(op, ">=")) {
		if (k.lo > r.lo) r.lo = k.lo;
	} else if (!strcmp(op, "<")) {
		if (k.hi > IV_MIN && k.hi - 1 < r.hi) r.hi = k.hi - 1;
	} else if (!strcmp(op, "<=")) {
		if (k.hi < r.hi) r.hi = k.hi;
	} else if (!strcmp(op, "==")) {
		if (k.lo > r.lo) r.lo = k.lo;
		if (k.hi < r.hi) r.hi = k.hi;
	} else if (!strcmp(op, "!=")) {
		if (iv_is_const(k)) {
			if (r.lo == k.lo) r.lo++;
			if (r.hi == k.lo) r.hi--;
		}
	}
	return iv_norm(r);
}

static const char *mirror_op(const char *op)
{
	if (!strcmp(op, ">")) return "<";
	if (!strcmp(op, "<")) return ">";
	if (!strcmp(op, ">=")) return "<=";
	if (!strcmp(op, "<=")) return ">=";
	return op;
}

/* The var a comparison side names, with an offset: `order--` compares the
 * old value, which is (current + 1) once the side effect is applied. */
static int side_var(struct node *n, int64_t *offset)
{
	n = node_strip(n);
	*offset = 0;
	if (!n)
		return -1;
	if (n->kind == CXCursor_DeclRefExpr || n->kind == CXCursor_MemberRefExpr)
		return n->var;
	if (n->kind == CXCursor_UnaryOperator && n->op && n->postfix && n->nkids == 1) {
		int v = local_of(n->kids[0]);
		if (v >= 0 && !strcmp(n->op, "--"))
			*offset = 1;
		else if (v >= 0 && !strcmp(n->op, "++"))
			*offset = -1;
		return v;
	}
	return -1;
}

static bool is_call_named(struct node *n, const char *name)
{
	n = node_strip(n);
	return n && n->kind == CXCursor_CallExpr && n->name && !strcmp(n->name, name);
}

static void refine(struct eval_ctx *cx, struct node *c, struct state *st, bool truth);

/* Narrow variable v, seen as (v + off), by "(v + off) op k" being truth.
 * An empty result on a known interval means the path cannot run. */
static void refine_var(struct state *st, int v, int64_t off, const char *op, struct interval k, bool truth)
{
	struct interval cur = st->v[v].iv;
	struct interval shifted = iv_norm(iv_add(cur, iv_const(off)));
	struct interval nr = iv_norm(iv_sub(refine_iv(shifted, op, k, truth), iv_const(off)));
	/* a value joined from what other files store into a field may miss
	 * the stores of other instances (a PMU driver outside the run setting
	 * a capability bit): it bounds sizes, it proves no path dead */
	if (nr.lo > nr.hi && cur.known && !(st->v[v].src & SRC_FROM_FACTS))
		st->dead = true;
	else if (nr.lo <= nr.hi)
		st->v[v].iv = nr;
}

/* As refine_var, with the other side's value: when the comparison lowers
 * the variable's upper bound, that bound is the other side's data.  A
 * comparison that narrows a known value is one of its lines (a guard). */
static void refine_var_by(struct state *st, int v, int64_t off, const char *op, const struct aval *k, bool truth,
			  unsigned line)
{
	struct interval was = st->v[v].iv;
	refine_var(st, v, off, op, k->iv, truth);
	if (st->dead)
		return;
	if (st->v[v].iv.hi < was.hi)
		aval_src_merge(&st->v[v], k);
	/* bounded above by other data: the value reaches its top only when
	 * that data lets it, so a user still reaches it at will only when the
	 * bound is a constant or theirs up to its top too (min(user, limit)) */
	bool upper = truth ? (!strcmp(op, "<") || !strcmp(op, "<=") || !strcmp(op, "=="))
			   : (!strcmp(op, ">") || !strcmp(op, ">="));
	if (upper && !iv_is_const(k->iv))
		st->v[v].top_user = st->v[v].top_user && k->top_user;
	if (st->v[v].iv.known && (!was.known || st->v[v].iv.hi < was.hi || st->v[v].iv.lo > was.lo))
		ev_add(&st->v[v], line);
}

/* The value of the other side of a comparison, without its side effects
 * landing twice (the condition itself was evaluated already). */
static struct aval side_value(struct eval_ctx *cx, struct node *n, const struct state *st)
{
	struct state tmp = st_copy(st);
	struct aval k = eval(cx, n, &tmp);
	st_free(&tmp);
	return k;
}

static void refine_cmp(struct eval_ctx *cx, struct node *c, struct state *st, bool truth)
{
	int t = assume_cmp(cx, c);
	if (t >= 0 && t != (int)truth) {
		st->dead = true;
		return;
	}
	struct node *l = c->kids[0], *r = c->kids[1];
	int64_t lo_off, ro_off;
	int lv = side_var(l, &lo_off), rv = side_var(r, &ro_off);
	if (lv >= 0) {
		struct aval k = side_value(cx, r, st);
		refine_var_by(st, lv, lo_off, c->op, &k, truth, c->line);
	}
	if (rv >= 0) {
		struct aval k = side_value(cx, l, st);
		refine_var_by(st, rv, ro_off, mirror_op(c->op), &k, truth, c->line);
	}
}

/* `(1 << n) - 1` (or BIT(n) - 1, GENMASK(n - 1, 0) in that shape): n's
 * variable, or -1. */
static int low_mask_var(struct node *m)
{
	m = node_strip(m);
	if (!m || m->kind != CXCursor_BinaryOperator || !m->op || strcmp(m->op, "-") || m->nkids != 2)
		return -1;
	long long one;
	struct node *sh = node_strip(m->kids[0]);
	if (!const_leaf(node_strip(m->kids[1]), &one) || one != 1 || !sh ||
	    sh->kind != CXCursor_BinaryOperator || !sh->op || strcmp(sh->op, "<<") || sh->nkids != 2 ||
	    !const_leaf(node_strip(sh->kids[0]), &one) || one != 1)
		return -1;
	int64_t off;
	int v = side_var(sh->kids[1], &off);
	return off ? -1 : v;
}

/* The path passed `x & ((1 << n) - 1)`: x has a bit set below bit n, so
 * __ffs(x) < n (the page cache's "not aligned: a smaller folio"). */
static void low_bits_set(struct node *c, struct state *st)
{
	for (int i = 0; i < 2; i++) {
		int64_t off;
		int x = side_var(c->kids[i], &off), n = low_mask_var(c->kids[1 - i]);
		if (x < 0 || off || n < 0 || x == n || !st->v[n].iv.known || st->v[n].iv.hi < 1)
			continue;
		st->v[x].ffs_var = n + 1;
		st->v[x].ffs_hi = st->v[n].iv.hi - 1;
		return;
	}
}

static void refine(struct eval_ctx *cx, struct node *c, struct state *st, bool truth)
{
	c = node_strip(c);
	if (!c || st->dead)
		return;
	if (c->kind == CXCursor_UnaryOperator && c->op && !strcmp(c->op, "!") && c->nkids == 1) {
		refine(cx, c->kids[0], st, !truth);
		return;
	}
	if (c->kind == CXCursor_CallExpr && (is_call_named(c, "__builtin_expect") ||
					     is_call_named(c, "likely") || is_call_named(c, "unlikely"))) {
		if (node_nargs(c) >= 1)
			refine(cx, node_arg(c, 0), st, truth);
		return;
	}
	if (c->kind == CXCursor_BinaryOperator && c->op && c->nkids == 2) {
		if (!strcmp(c->op, "&&")) {
			if (truth) {
				refine(cx, c->kids[0], st, true);
				refine(cx, c->kids[1], st, true);
			}
			return;
		}
		if (!strcmp(c->op, "||")) {
			if (!truth) {
				refine(cx, c->kids[0], st, false);
				refine(cx, c->kids[1], st, false);
			}
			return;
		}
		if (!strcmp(c->op, "<") || !strcmp(c->op, ">") || !strcmp(c->op, "<=") ||
		    !strcmp(c->op, ">=") || !strcmp(c->op, "==") || !strcmp(c->op, "!="))
			refine_cmp(cx, c, st, truth);
		else if (truth && !strcmp(c->op, "&"))
			low_bits_set(c, st);
		return;
	}
	int64_t off;
	int v = side_var(c, &off);
	if (v >= 0 && cx->fn->vars[v].bits)
		refine_var(st, v, off, "!=", iv_const(0), truth);
}

/* ---- calls ---- */

/* ---- the kernel's overflow helpers (linux/overflow.h) ---- */

/* Width and signedness of an integer type (0: not one). */
static int int_type_bits(CXType t, bool *sgn)
{
	t = clang_getCanonicalType(t);
	*sgn = false;
	switch (t.kind) {
	case CXType_Bool: return 1;
	case CXType_Char_U: case CXType_UChar: return 8;
	case CXType_UShort: return 16;
	case CXType_UInt: return 32;
	case CXType_ULong: case CXType_ULongLong: return 64;
	case CXType_Char_S: case CXType_SChar: *sgn = true; return 8;
	case CXType_Short: *sgn = true; return 16;
	case CXType_Int: *sgn = true; return 32;
	case CXType_Long: case CXType_LongLong: *sgn = true; return 64;
	default: return 0;
	}
}

/* The values an integer type holds (64-bit ones: up to IV_MAX, which
 * stands for "too big to be a size"). */
static struct interval int_type_range(int bits, bool sgn)
{
	if (!bits || bits >= 63)
		return iv_range(sgn || !bits ? IV_MIN : 0, IV_MAX);
	if (sgn)
		return iv_range(-((int64_t)1 << (bits - 1)), ((int64_t)1 << (bits - 1)) - 1);
	return iv_range(0, ((int64_t)1 << bits) - 1);
}

/* size_mul(), size_add(), size_sub() (and the array_size()/array3_size()
 * functions of old trees): on overflow the result saturates at SIZE_MAX,
 * which kmalloc refuses (the page allocator fails an order above
 * MAX_PAGE_ORDER at once, without reclaim).  The sizes that can be
 * allocated are the exact results that fit, so that is the value; a
 * negative operand converts to a huge size_t and saturates the same way.
 * Unbounded operands give an unbounded size (then KMALLOC_MAX_SIZE bounds
 * it when someone outside controls it, as for a plain product). */
static struct interval size_op(char op, struct interval a, struct interval b)
{
	if (a.hi < 0 || b.hi < 0)
		return iv_unknown(); /* always saturates */
	a.lo = a.lo < 0 ? 0 : a.lo;
	b.lo = b.lo < 0 ? 0 : b.lo;
	struct interval r = op == '*' ? iv_mul(a, b) : op == '+' ? iv_add(a, b) : iv_sub(a, b);
	if (r.hi < 0)
		return iv_unknown();
	if (r.lo < 0)
		r.lo = 0; /* a minuend below the subtrahend saturates */
	return iv_norm(r);
}

static bool size_helper(const char *name, struct aval *args, unsigned n, struct interval *out)
{
	if ((!strcmp(name, "size_mul") || !strcmp(name, "array_size")) && n == 2)
		*out = size_op('*', args[0].iv, args[1].iv);
	else if (!strcmp(name, "array3_size") && n == 3)
		*out = size_op('*', size_op('*', args[0].iv, args[1].iv), args[2].iv);
	else if (!strcmp(name, "size_add") && n == 2)
		*out = size_op('+', args[0].iv, args[1].iv);
	else if (!strcmp(name, "size_sub") && n == 2)
		*out = size_op('-', args[0].iv, args[1].iv);
	else
		return false;
	return true;
}

/* __builtin_{add,sub,mul}_overflow(a, b, d), what check_*_overflow()
 * expand to: the result is the overflow flag (0 when the exact result
 * always fits *d's type, 1 when it never does), and *d gets the exact
 * result within its type: the value on the path without overflow, the
 * one the kernel's idiom goes on with (`if (check_mul_overflow(n, sz,
 * &bytes)) return -EOVERFLOW;`).  A wrapped value on the overflow path
 * is not modelled.  *d is known when d is `&x` or a temporary set to it. */
static bool overflow_builtin(struct eval_ctx *cx, struct node *n, struct aval *args, unsigned na,
			     struct state *st, struct aval *out)
{
	static const struct { const char *name, *op; } ops[] = {
		{ "__builtin_add_overflow", "+" },
		{ "__builtin_sub_overflow", "-" },
		{ "__builtin_mul_overflow", "*" },
	};
	const char *op = NULL;
	for (size_t i = 0; n->name && i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(n->name, ops[i].name))
			op = ops[i].op;
	if (!op || na != 3)
		return false;
	struct aval v = binop(cx, op, args[0], args[1]);
	CXType pt = clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(node_arg(n, 2)->cur)));
	bool sgn;
	int bits = int_type_bits(pt, &sgn);
	struct interval lim = int_type_range(bits, sgn);
	bool fits = v.iv.known && v.iv.lo >= lim.lo && v.iv.hi <= lim.hi;
	bool never = v.iv.known && (v.iv.lo > lim.hi || v.iv.hi < lim.lo);
	*out = fits || never ? aval_const(cx->tu, never) : aval_unknown();
	if (!fits && !never) {
		out->iv = iv_range(0, 1);
		out->g = gfp_const(0);
		out->g.may = GFP_ALL_BITS;
	}
	src_from(out, &v, NULL);
	ev_merge(out, &v);
	int dv = pointee_var(cx, node_arg(n, 2));
	if (dv >= 0 && !st->dead) {
		struct aval d = v;
		int64_t lo = v.iv.lo > lim.lo ? v.iv.lo : lim.lo, hi = v.iv.hi < lim.hi ? v.iv.hi : lim.hi;
		d.iv = iv_norm(lo <= hi ? iv_range(lo, hi) : lim);
		if (!iv_is_const(d.iv))
			d.g = gfp_unknown();
		assign(cx, st, dv, d, n->line);
	}
	return true;
}

/* The index of the lowest set bit: 0 for 0-based ones (__ffs, ctz), 1 for
 * ffs() and its builtins (bit n gives n + 1); -1 for other names. */
static int ffs_base(const char *name)
{
	static const char *const zero[] = {
		"__ffs", "__builtin_ctzl", "__builtin_ctz", "__builtin_ctzll", "variable__ffs", "__ffs64",
	};
	static const char *const one[] = { "ffs", "variable_ffs", "__builtin_ffs", "__builtin_ffsl" };
	for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
		if (!strcmp(name, zero[i]))
			return 0;
	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		if (!strcmp(name, one[i]))
			return 1;
	return -1;
}

/* __ffs(x) where the path proved a bit of x set below bit n (low_bits_set):
 * below n, and n's data. */
static bool ffs_below(const struct eval_ctx *cx, struct node *call, const char *name, const struct state *st,
		      struct aval *r)
{
	int64_t off;
	int base = name && node_nargs(call) == 1 ? ffs_base(name) : -1;
	int x = base >= 0 ? side_var(node_arg(call, 0), &off) : -1;
	if (x < 0 || off || st->dead || !st->v[x].ffs_var || st->v[x].ffs_var > cx->fn->nvars)
		return false;
	struct aval k = st->v[st->v[x].ffs_var - 1];
	r->iv = iv_norm(iv_range(base, st->v[x].ffs_hi + base));
	src_from(r, &k, NULL);
	ev_merge(r, &k);
	r->top_user = false; /* below the top */
	return true;
}

static struct aval call_builtin(struct eval_ctx *cx, const char *name, struct aval *args, unsigned n, bool *handled)
{
	struct aval r = aval_unknown();
	*handled = true;
	int ps = cx->tu->facts.page_shift ? cx->tu->facts.page_shift : 12;
	if (n >= 1)
		ev_merge(&r, &args[0]);
	for (unsigned i = 0; i < n; i++)
		r.pdep |= args[i].pdep;
	if (n >= 1) {
		src_from(&r, &args[0], NULL);
		for (unsigned i = 1; i < n; i++)
			aval_src_merge(&r, &args[i]);
	}
	if (!strcmp(name, "get_order") && n == 1) {
		r.iv = iv_get_order(args[0].iv, ps);
		r.gparam = args[0].param;
	}
	else if ((!strcmp(name, "__ilog2_u32") || !strcmp(name, "__ilog2_u64") || !strcmp(name, "ilog2") ||
		  !strcmp(name, "__fls") || !strcmp(name, "const_ilog2")) && n == 1)
		r.iv = args[0].iv.known ? iv_ilog2(args[0].iv) : iv_range(0, 63);
	else if ((!strcmp(name, "fls") || !strcmp(name, "fls64") || !strcmp(name, "fls_long")) && n == 1)
		r.iv = args[0].iv.known ? iv_add(iv_ilog2(args[0].iv), iv_range(args[0].iv.lo > 0 ? 1 : 0, 1))
					: iv_range(0, 64);
	else if ((!strcmp(name, "__order_base_2") || !strcmp(name, "order_base_2") ||
		  !strcmp(name, "__roundup_pow_of_two_order")) && n == 1)
		r.iv = args[0].iv.known ? iv_log2_ceil(args[0].iv) : iv_range(0, 63);
	else if ((!strcmp(name, "__roundup_pow_of_two") || !strcmp(name, "roundup_pow_of_two")) && n == 1)
		r.iv = args[0].iv.known ? iv_shl(iv_const(1), iv_log2_ceil(args[0].iv)) : iv_top();
	/* the size of the kmalloc bucket (or page block) that serves x: at
	 * least x, at most the next power of two (kmalloc-96 and -192 are
	 * below it) */
	else if (!strcmp(name, "kmalloc_size_roundup") && n == 1)
		r.iv = args[0].iv.known ? iv_range(args[0].iv.lo, iv_shl(iv_const(1), iv_log2_ceil(args[0].iv)).hi)
					: iv_top();
	else if ((ffs_base(name) >= 0 || !strcmp(name, "ffz") || !strcmp(name, "variable_ffz")) && n == 1)
		r.iv = iv_range(0, 63);
	else if ((!strcmp(name, "variable__fls") || !strcmp(name, "variable_fls") ||
		  !strcmp(name, "__builtin_clzl") || !strcmp(name, "__builtin_clz")) && n == 1)
		r.iv = iv_range(0, 64);
	else if (size_helper(name, args, n, &r.iv)) {
		for (unsigned i = 1; i < n; i++)
			ev_merge(&r, &args[i]);
	}
	else if (!strcmp(name, "__builtin_expect") && n >= 1)
		return args[0];
	else if (!strcmp(name, "__builtin_constant_p"))
		r.iv = iv_range(0, 1); /* folded by the caller when clang can */
	else if ((!strcmp(name, "__builtin_clzll") || !strcmp(name, "__builtin_clzl") ||
		  !strcmp(name, "__builtin_clz")) && n == 1)
		r.iv = iv_range(0, 63);
	else {
		*handled = false;
		return r;
	}
	r.iv = iv_norm(r.iv);
	if (iv_is_const(r.iv))
		r.g = gfp_const(aval_canon(cx->tu, r.iv.lo));
	/* rising functions of one value: its top gives theirs */
	if (n == 1 && args[0].top_user && args[0].iv.known && args[0].iv.lo >= 0 &&
	    (!strcmp(name, "get_order") || !strcmp(name, "ilog2") || !strcmp(name, "__ilog2_u32") ||
	     !strcmp(name, "__ilog2_u64") || !strcmp(name, "order_base_2") || !strcmp(name, "__order_base_2") ||
	     !strcmp(name, "roundup_pow_of_two") || !strcmp(name, "__roundup_pow_of_two") ||
	     !strcmp(name, "kmalloc_size_roundup")))
		r.top_user = true;
	return r;
}

/* ---- what a summarized helper stores through its pointer parameters ----
 *
 * fq_init(fq, 4096) sets fq->flows_cnt; the caller then allocates with
 * fq->flows_cnt.  Instead of forgetting the caller's field paths rooted at
 * a pointer argument (forget_members), take the values the helper left
 * there on every exit: the join of its exit states, this call path only
 * (no tree-wide join, so a constant stays a constant).  A path the helper
 * did not write keeps its initial (unknown or fact-base) value in the
 * join, so a conditional store proves nothing. */
struct callee_exit {
	struct fn_model *f;
	struct state st;
	bool have;
};

/* The member variable of `f` whose path is `pname->rest`, or -1. */
static int callee_member(const struct fn_model *f, const char *pname, const char *rest)
{
	size_t pl = strlen(pname);
	for (int j = 0; j < f->nvars; j++) {
		const char *k = f->vars[j].key;
		if (f->vars[j].is_member && k && !strncmp(k, pname, pl) && !strncmp(k + pl, "->", 2) &&
		    !strcmp(k + pl + 2, rest))
			return j;
	}
	return -1;
}

/* The name of parameter `p` of `f`, or NULL; NULL too when `f` assigns
 * the parameter (`t = t->next`): its paths at the exits may then be
 * another object's. */
static const char *param_name(const struct fn_model *f, unsigned p)
{
	for (int j = 0; j < f->nvars; j++)
		if (f->vars[j].param == (int)p && !f->vars[j].is_member) {
			struct node *last = NULL;
			return var_writes(f->body, j, &last) ? NULL : f->vars[j].name;
		}
	return NULL;
}

/* Does the caller track a field path under one of the call's pointer
 * arguments (something a helper's stores could tell)? */
static bool tracks_arg_fields(const struct eval_ctx *cx, struct node *call)
{
	unsigned na = node_nargs(call);
	bool r = false;
	for (unsigned a = 0; a < na && !r; a++) {
		const char *sep;
		char *base = arg_base(cx, call, a, &sep);
		size_t bl = base ? strlen(base) : 0;
		for (int i = 0; bl && i < cx->fn->nvars && !r; i++) {
			const struct fn_var *v = &cx->fn->vars[i];
			r = v->is_member && v->key && !strncmp(v->key, base, bl) &&
			    !strncmp(v->key + bl, sep, strlen(sep));
		}
		free(base);
	}
	return r;
}

/* The helper's value as the caller's: its own parameters and evidence
 * lines mean nothing here (as call_summary does for a returned value). */
static struct aval callee_value(struct aval v, const struct aval *args, unsigned na, unsigned line,
				const char *path, const char *helper)
{
	if (!v.src_why || v.src_why_kind == SRC_CONST) {
		char *w = xasprintf("%s as %s() leaves it", path, helper ? helper : "?");
		v.src_why = str_intern(w);
		v.src_why_kind = src_primary(v.src);
		v.src_line = line;
		free(w);
	}
	uint32_t dep = 0;
	for (unsigned i = 0; i < na && i < 32; i++)
		if (v.pdep & ((uint32_t)1 << i))
			dep |= args[i].pdep;
	v.param = -1;
	v.gparam = -1;
	v.pset_must = v.pset_may = v.pclr = v.pclr_may = 0;
	v.pdep = dep;
	v.nev = 0;
	ev_add(&v, line);
	return v;
}

/* After the call: the caller's field paths under a pointer argument take
 * what the helper left in them (callee_exit). */
static void callee_stores(struct eval_ctx *cx, struct node *call, const struct aval *args, unsigned na,
			  struct state *st, const struct callee_exit *ce)
{
	if (debug_on() && ce->f)
		fprintf(stderr, "debug: stores of %s: %s\n", ce->f->name ? ce->f->name : "?", ce->have ? "taken" : "none");
	if (!ce->have || st->dead)
		return;
	for (unsigned a = 0; a < na; a++) {
		const char *sep, *pname = param_name(ce->f, a);
		char *base = pname ? arg_base(cx, call, a, &sep) : NULL;
		size_t bl = base ? strlen(base) : 0, sl = base ? strlen(sep) : 0;
		for (int i = 0; bl && i < st->n; i++) {
			const struct fn_var *v = &cx->fn->vars[i];
			if (!v->is_member || !v->key || strncmp(v->key, base, bl) || strncmp(v->key + bl, sep, sl))
				continue;
			int j = callee_member(ce->f, pname, v->key + bl + sl);
			if (debug_on())
				fprintf(stderr, "debug:   %s <- %s->%s (%s)\n", v->key, pname, v->key + bl + sl,
					j >= 0 ? "stored" : "not in the helper");
			if (j >= 0 && j < ce->st.n)
				st->v[i] = callee_value(ce->st.v[j], args, na, call->line, v->key, ce->f->name);
		}
		free(base);
	}
}

/* ---- call_summary's memo ----
 * A helper's summary is a function of the helper, the arguments and the
 * context the interpreter runs it in (the depth, the fact base, whether observations are wanted, the header-helper line, a
 * pending goto-back round): a loop body run to its fixed point, or a
 * helper called many times with the same values, and each attempt class
 * (attempts.c) asks the same question again.  The answer keeps what the run cost (the caller's budget is
 * charged the same, so a budget that runs out runs out at the same place)
 * and the observations it made (replayed through fact_note, so the fact
 * base gets them as often as before).  Cleared whenever the allocator
 * table may have changed (summary_cache_forget_calls). */

struct memo_fact {
	char *key;
	struct interval iv;
	unsigned src, line;
};

struct memo_entry {
	size_t slot;
	int depth;
	unsigned n, inline_line;
	bool with_facts, backward_changed;
	const struct factbase *facts;
	struct aval *args;
	/* the answer */
	bool has;
	struct aval ret;
	int consumed;
	struct memo_fact *obs;
	size_t nobs, obs_alloc;
	struct memo_entry *next; /* same hash */
};

struct memo_rec {
	struct memo_entry *e;
	struct memo_rec *up;
};

static void memo_entries_free(void *p)
{
	for (struct memo_entry *e = p, *nx; e; e = nx) {
		nx = e->next;
		for (size_t i = 0; i < e->nobs; i++)
			free(e->obs[i].key);
		free(e->obs);
		free(e->args);
		free(e);
	}
}

void summary_cache_forget_calls(struct summary_cache *c)
{
	if (c && c->memo)
		g_hash_table_remove_all(c->memo);
}

static bool memo_arg_same(const struct aval *a, const struct aval *b)
{
	if (!aval_same(a, b) || a->iv.known != b->iv.known || a->src_why != b->src_why ||
	    a->src_why_kind != b->src_why_kind || a->src_line != b->src_line || a->nev != b->nev)
		return false;
	for (int i = 0; i < a->nev && i < EV_MAX; i++)
		if (a->evl[i] != b->evl[i])
			return false;
	return true;
}

static guint memo_mix(guint h, uint64_t v)
{
	h ^= (guint)(v ^ (v >> 32));
	return h * 16777619u;
}

static guint memo_hash(const struct memo_entry *k)
{
	guint h = 2166136261u;
	h = memo_mix(h, k->slot);
	h = memo_mix(h, (uint64_t)k->depth << 32 | k->n);
	h = memo_mix(h, k->inline_line);
	for (unsigned i = 0; i < k->n; i++) {
		const struct aval *a = &k->args[i];
		h = memo_mix(h, (uint64_t)a->iv.lo);
		h = memo_mix(h, (uint64_t)a->iv.hi);
		h = memo_mix(h, a->g.must ^ (a->g.may << 1));
		h = memo_mix(h, (uint64_t)(unsigned)a->param << 32 | a->src);
	}
	return h;
}

static bool memo_key_same(const struct memo_entry *a, const struct memo_entry *b)
{
	if (a->slot != b->slot || a->depth != b->depth || a->n != b->n || a->inline_line != b->inline_line ||
	    a->with_facts != b->with_facts || a->backward_changed != b->backward_changed ||
	    a->facts != b->facts)
		return false;
	for (unsigned i = 0; i < a->n; i++)
		if (!memo_arg_same(&a->args[i], &b->args[i]))
			return false;
	return true;
}

static struct memo_entry *memo_find(struct summary_cache *sc, const struct memo_entry *k, guint h)
{
	if (!sc->memo)
		return NULL;
	for (struct memo_entry *e = g_hash_table_lookup(sc->memo, GUINT_TO_POINTER(h)); e; e = e->next)
		if (memo_key_same(e, k))
			return e;
	return NULL;
}

static void memo_add(struct summary_cache *sc, struct memo_entry *e, guint h)
{
	if (!sc->memo)
		sc->memo = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, memo_entries_free);
	g_hash_table_steal_extended(sc->memo, GUINT_TO_POINTER(h), NULL, (gpointer *)&e->next);
	g_hash_table_insert(sc->memo, GUINT_TO_POINTER(h), e);
}

/* an observation made while answers are being recorded: theirs too */
static void memo_note(struct summary_cache *sc, const char *key, const struct aval *v, unsigned line)
{
	for (struct memo_rec *r = sc->rec; r; r = r->up) {
		struct memo_entry *e = r->e;
		ALLOC_GROW(e->obs, e->nobs + 1, e->obs_alloc);
		e->obs[e->nobs++] = (struct memo_fact){ xstrdup(key), v->iv, v->src, line };
	}
}

static bool memo_off(void)
{
	static int off = -1;
	if (off < 0)
		off = getenv("GFPAUDIT_NO_SUMMARY_MEMO") != NULL;
	return off;
}

/* The helper's returned value `ret` as the caller's value of the call. */
static struct aval summary_result(struct aval ret, const struct aval *args, unsigned n)
{
	struct aval r = ret;
	r.param = -1; /* a helper's parameters are not ours */
	r.gparam = -1;
	r.nev = 0;
	r.pdep = 0;
	for (unsigned i = 0; i < n; i++)
		r.pdep |= args[i].pdep;
	for (unsigned i = 0; i < n; i++)
		ev_merge(&r, &args[i]);
	/* The helper ran on our arguments' real bits, so r.g is already this
	 * call's mask.  If it returns a parameter transformed and that argument
	 * is one of our parameters, compose the transforms: wrappers need it. */
	if (ret.param >= 0 && (unsigned)ret.param < n) {
		const struct aval *a = &args[ret.param];
		if (a->param >= 0) {
			r.param = a->param;
			r.pset_must = (a->pset_must & ~ret.pclr_may) | ret.pset_must;
			r.pset_may = (a->pset_may & ~ret.pclr) | ret.pset_may;
			r.pclr = (a->pclr | ret.pclr) & ~ret.pset_may;
			r.pclr_may = (a->pclr_may | ret.pclr_may) & ~ret.pset_must;
		}
	}
	return r;
}

static struct aval call_summary(struct eval_ctx *cx, struct node *call, struct aval *args, unsigned n,
				struct callee_exit *ce)
{
	CXCursor ref = clang_getCursorReferenced(call->cur);
	if (clang_Cursor_isNull(ref) || cx->depth >= SUMMARY_MAX_DEPTH)
		return aval_unknown();
	CXCursor def = clang_getCursorDefinition(ref);
	if (clang_Cursor_isNull(def))
		return aval_unknown();
	size_t slot;
	struct fn_model *f = summary_fn(cx, def, &slot);
	if (debug_on())
		fprintf(stderr, "debug: summary of %s: %s (%d nodes)\n", call->name ? call->name : "?",
			f ? "built" : "none", f ? f->nnodes : 0);
	if (!f || f == cx->fn)
		return aval_unknown();
	bool generic = true;
	for (unsigned i = 0; i < n && generic; i++)
		generic = aval_is_unknown(&args[i]);
	struct summary_cache *sc = cx->cache;
	/* the helper's stores are wanted: run it even when its result is cached */
	bool want_exits = ce && tracks_arg_fields(cx, call);
	/* a run at the parameters' defaults neither reads nor fills the
	 * caches: its helpers' answers are not the general ones */
	bool cached = !cx->at_defaults;
	if (generic && cached && sc->generic_done[slot] && !want_exits) {
		if (!sc->generic_has[slot])
			return aval_unknown();
		struct aval r = sc->generic[slot];
		for (unsigned i = 0; i < n; i++)
			ev_merge(&r, &args[i]);
		return r; /* all arguments unknown: no parameter dependence to carry */
	}
	struct eval_ctx sub = *cx;
	sub.fn = f;
	sub.on_call = NULL; /* sites are only recorded in the analyzed function */
	/* a header's inline helper is expanded where it is called: the calls
	 * it makes with our arguments are this file's observations
	 * (devlink_alloc() passes priv_size on to devlink_alloc_ns()) */
	if (!f->in_main && cx->on_fact)
		sub.inline_line = cx->inline_line ? cx->inline_line : call->line;
	else
		sub.inline_line = 0;
	struct memo_entry mk = { .slot = slot, .depth = cx->depth, .n = n, .inline_line = sub.inline_line,
				 .with_facts = cx->on_fact != NULL, .backward_changed = cx->backward_changed,
				 .facts = cx->facts, .args = args };
	/* an attempt class (cx->assume) and a loop capture (capture_at) name
	 * nodes of the analyzed function, never of a helper's model (its own,
	 * built by summary_fn): they do not change a helper's answer */
	bool memo = cached && !want_exits && !generic && !memo_off();
	guint mh = memo ? memo_hash(&mk) : 0;
	struct memo_entry *hit = memo ? memo_find(sc, &mk, mh) : NULL;
	struct memo_rec rec = { 0 };
	if (hit) {
		sc->memo_hits++;
		cx->budget -= hit->consumed;
		for (size_t i = 0; i < hit->nobs; i++) {
			struct aval v = aval_unknown();
			v.iv = hit->obs[i].iv;
			v.src = hit->obs[i].src;
			fact_note(cx, hit->obs[i].key, &v, hit->obs[i].line);
		}
		if (!hit->has)
			return aval_unknown();
		return summary_result(hit->ret, args, n);
	}
	if (memo) {
		sc->memo_misses++;
		rec.e = xcalloc(1, sizeof(*rec.e));
		*rec.e = mk;
		rec.e->args = xmalloc((n ? n : 1) * sizeof(*args));
		memcpy(rec.e->args, args, n * sizeof(*args));
		rec.up = sc->rec;
		sc->rec = &rec;
	}
	sub.depth = cx->depth + 1;
	sub.has_ret = false;
	sub.loops = NULL;
	sub.budget = 30000;
	sub.exits = NULL;
	if (want_exits) {
		ce->f = f;
		ce->st = st_new(f->nvars);
		ce->st.dead = true; /* no exit seen yet */
		sub.exits = &ce->st;
	}
	eval_function(&sub, args, n);
	int consumed = 30000 - (sub.budget > 0 ? sub.budget : 0);
	cx->budget -= consumed;
	if (memo) {
		sc->rec = rec.up;
		rec.e->has = sub.has_ret && sub.budget > 0;
		rec.e->ret = sub.ret;
		rec.e->consumed = consumed;
		memo_add(sc, rec.e, mh);
	}
	if (want_exits)
		ce->have = sub.budget > 0 && !ce->st.dead;
	if (generic && cached) {
		sc->generic_done[slot] = true;
		sc->generic_has[slot] = sub.has_ret && sub.budget > 0;
	}
	if (!sub.has_ret || sub.budget <= 0)
		return aval_unknown();
	if (generic && cached) {
		struct aval g = sub.ret;
		g.param = -1;
		g.gparam = -1;
		g.nev = 0;
		g.pdep = 0;
		for (unsigned i = 0; i < n; i++)
			g.pdep |= args[i].pdep;
		sc->generic[slot] = g;
	}
	return summary_result(sub.ret, args, n);
}

static bool node_is_gfp(struct node *n)
{
	return decl_is_gfp(n->cur);
}

/* What `&x` points to was filled from a source: x, and every field path
 * under it (x.len, x->n), now carry it. */
static void out_param_source(struct eval_ctx *cx, struct state *st, struct node *x, enum src_kind k,
			     const char *why, unsigned line)
{
	x = node_strip(x);
	if (!x)
		return;
	CXType xt = clang_getCanonicalType(clang_getCursorType(x->cur));
	if (xt.kind == CXType_Record && cx->on_fact) {
		/* every field of the record is the source's */
		CXCursor rd = clang_getTypeDeclaration(xt);
		if (!clang_Cursor_isAnonymous(rd)) {
			char *rec = cursor_spelling(rd);
			char *key = *rec ? xasprintf("field:%s.*", rec) : NULL;
			struct aval u = aval_source(k, why, line);
			fact_note(cx, key, &u, line);
			free(key);
			free(rec);
		}
	}
	char *base = fn_path_text(cx->fn, x);
	if (!base)
		return;
	char *w = xasprintf("%s '%s'", why, base);
	size_t bl = strlen(base);
	for (int i = 0; bl && i < st->n; i++) {
		const struct fn_var *v = &cx->fn->vars[i];
		bool hit = i == local_of(x) || (v->is_member && key_under(v->key, base, bl) && v->key[bl]);
		if (!hit)
			continue;
		struct aval a = aval_source(k, w, line);
		var_bits_bound(v, &a.iv);
		st->v[i] = a;
	}
	free(w);
	free(base);
}

/* The attribute a netlink getter reads: nla_get_u32(tb[ATTR]),
 * nla_len(info->attrs[ATTR]), or a local set once to such an element;
 * the enumerator's name, or NULL. */
static const char *nla_attr_name(const struct eval_ctx *cx, struct node *a)
{
	a = node_strip(a);
	if (a && a->kind == CXCursor_DeclRefExpr && a->var >= 0)
		a = var_init_once(cx, a->var);
	if (!a || a->kind != CXCursor_ArraySubscriptExpr || a->nkids != 2)
		return NULL;
	struct node *i = node_strip(a->kids[1]);
	if (!i || i->kind != CXCursor_DeclRefExpr || i->var >= 0 ||
	    clang_getCursorKind(clang_getCursorReferenced(i->cur)) != CXCursor_EnumConstantDecl)
		return NULL;
	return i->name;
}

/* A netlink attribute the file's policy validates (ksrc.h): the getter's
 * value is within the policy's bound. */
static void policy_bound(struct eval_ctx *cx, struct node *call, struct aval *r)
{
	struct summary_cache *sc = cx->cache;
	const char *attr = nla_attr_name(cx, node_arg(call, 0));
	if (!sc || !attr)
		return;
	if (!sc->policies_done) {
		sc->policies = ksrc_policies_new(cx->tu);
		sc->policies_done = true;
	}
	long long lo, hi;
	const char *pol = NULL;
	unsigned pline = 0;
	if (!ksrc_policy_bound(sc->policies, call->name, attr, &lo, &hi, &pol, &pline)) {
		if (debug_on())
			fprintf(stderr, "debug: %s(%s): no policy bound\n", call->name, attr);
		return;
	}
	char *why = xasprintf("%snetlink attribute %s (%lld..%lld by policy '%s')",
			      !strcmp(call->name, "nla_len") ? "the length of " : "", attr, lo, hi, pol);
	*r = aval_source(SRC_REMOTE, why, call->line);
	free(why);
	r->iv = iv_norm(iv_range(lo, hi));
	ev_add(r, pline);
	if (iv_is_const(r->iv))
		r->g = gfp_const(aval_canon(cx->tu, lo));
}

/* What a call inside a header's inline helper passes (call_summary). */
static void note_inline_call(struct eval_ctx *cx, struct node *call, const struct aval *args, unsigned na)
{
	if (!cx->on_fact || !call->name || (cx->is_allocator && cx->is_allocator(cx->data, call->name)))
		return;
	CXCursor ref = clang_getCursorReferenced(call->cur);
	if (clang_getCursorKind(ref) != CXCursor_FunctionDecl)
		return;
	for (unsigned i = 0; i < na && i < 16; i++) {
		char *key = eval_param_key(ref, cx->file, (int)i);
		fact_note(cx, key, &args[i], cx->inline_line);
		free(key);
	}
}

static struct aval eval_call(struct eval_ctx *cx, struct node *n, struct state *st)
{
	unsigned na = node_nargs(n);
	struct aval *args = xcalloc(na ? na : 1, sizeof(*args));
	struct callee_exit ce = { .f = NULL, .have = false };
	for (unsigned i = 0; i < na; i++)
		args[i] = eval(cx, node_arg(n, i), st);
	/* the callee expression itself may have side effects (rare); skip it */
	if (cx->on_call && !st->dead)
		cx->on_call(cx, n, args, na, st);
	else if (cx->inline_line && !st->dead)
		note_inline_call(cx, n, args, na);
	struct aval r = aval_unknown();
	if (overflow_builtin(cx, n, args, na, st, &r)) {
		free(args);
		return r;
	}
	bool handled = false;
	long long folded;
	if (n->name && !strcmp(n->name, "__builtin_constant_p")) {
		/* clang folds it when it can; an argument that reads a local or
		 * calls a function is no compile-time constant */
		struct node *a0 = na ? node_arg(n, 0) : NULL;
		bool have = tu_eval_int(n->cur, &folded);
		if (!have && a0 && !a0->pure) {
			folded = 0;
			have = true;
		}
		if (have) {
			free(args);
			return aval_const(cx->tu, folded);
		}
	}
	if (n->name)
		r = call_builtin(cx, n->name, args, na, &handled);
	if (handled && ffs_below(cx, n, n->name, st, &r)) {
		free(args);
		return r;
	}
	const char *why = NULL;
	enum ksrc_bound kb = KB_NONE;
	int sk = !handled && n->name ? ksrc_call_return(n->name, &why, &kb) : -1;
	if (sk >= 0) {
		r = aval_source((enum src_kind)sk, why, n->line);
		runtime_bound(cx, &r, kb);
		if (sk == SRC_REMOTE && na == 1)
			policy_bound(cx, n, &r);
	}
	else if (!handled && n->name && !(cx->is_allocator && cx->is_allocator(cx->data, n->name)))
		r = call_summary(cx, n, args, na, st->dead ? NULL : &ce);
	if (!handled && sk < 0 && r.src == SRCB(UNKNOWN) && !r.src_why && n->name) {
		char *w = xasprintf("the result of %s()", n->name);
		r.src_why = str_intern(w);
		r.src_why_kind = SRC_UNKNOWN;
		r.src_line = n->line;
		free(w);
	}
	if (!handled)
		for (unsigned i = 0; i < na; i++)
			r.pdep |= args[i].pdep;
	/* gfp_t f(gfp_t our_param) with no body here: still our parameter,
	 * with any bit possibly set or cleared (keeps wrappers wrappers) */
	if (!handled && r.param < 0 && r.g.must == 0 && r.g.may == GFP_ALL_BITS) {
		CXType rt = clang_getCursorType(n->cur);
		CXString ts = clang_getTypeSpelling(rt);
		bool ret_gfp = strstr(clang_getCString(ts), "gfp_t") != NULL;
		clang_disposeString(ts);
		int from = -1, cnt = 0;
		for (unsigned i = 0; ret_gfp && i < na; i++)
			if (args[i].param >= 0 && node_is_gfp(node_arg(n, i))) {
				from = args[i].param;
				cnt++;
			}
		if (ret_gfp && cnt == 1) {
			r.param = from;
			r.pset_must = 0;
			r.pset_may = GFP_ALL_BITS;
			r.pclr = 0;
			r.pclr_may = GFP_ALL_BITS;
		}
	}
	if (!handled) {
		forget_members(cx, n, st);
		callee_stores(cx, n, args, na, st, &ce);
	}
	if (ce.f)
		st_free(&ce.st);
	/* &local passed to a call: the callee may write it (from user or
	 * device data when the callee is such a source: ksrc.h) */
	for (unsigned i = 0; i < na; i++) {
		struct node *a = node_strip(node_arg(n, i));
		if (a && a->kind == CXCursor_UnaryOperator && a->op && !strcmp(a->op, "&") && a->nkids == 1) {
			int v = local_of(a->kids[0]);
			if (v >= 0 && !st->dead) {
				struct aval u = aval_unknown();
				var_bits_bound(&cx->fn->vars[v], &u.iv);
				st->v[v] = u;
			}
			const char *ow = NULL;
			int ok = n->name ? ksrc_call_outparam(n->name, i, &ow) : -1;
			if (ok >= 0 && !st->dead)
				out_param_source(cx, st, a->kids[0], (enum src_kind)ok, ow, n->line);
		}
	}
	free(args);
	return type_bounded(n, r);
}

/* ---- expressions ---- */

/* A store into a struct field: an observation for the fact base. */
static void note_store(struct eval_ctx *cx, struct node *lhs, const struct aval *v, unsigned line)
{
	if (!cx->on_fact)
		return;
	struct node *m = node_strip(lhs);
	if (!m || m->kind != CXCursor_MemberRefExpr)
		return;
	char *key = eval_field_key(clang_getCursorReferenced(m->cur));
	fact_note(cx, key, v, line);
	free(key);
}

static struct aval eval_assign(struct eval_ctx *cx, struct node *n, struct state *st)
{
	struct node *lhs = n->kids[0], *rhs = n->kids[1], *target = lhs;
	int v = local_of(lhs);
	struct node *pt = v < 0 ? deref_node(cx, lhs) : NULL;
	if (pt) {
		/* *(&x) = ..., *tmp = ... with tmp = &x: a store into x */
		target = pt;
		v = local_of(pt);
	}
	if (!strcmp(n->op, "=")) {
		struct aval r = eval(cx, rhs, st);
		if (v < 0)
			eval(cx, lhs, st);
		assign(cx, st, v, r, n->line);
		note_store(cx, target, &r, n->line);
		return r;
	}
	/* compound: a op= b */
	char op[4] = { 0 };
	size_t len = strlen(n->op);
	memcpy(op, n->op, len - 1);
	struct aval cur = v >= 0 && !st->dead ? st->v[v] : eval(cx, lhs, st);
	struct aval b = eval(cx, rhs, st);
	struct aval r = binop(cx, op, cur, b);
	assign(cx, st, v, r, n->line);
	note_store(cx, target, &r, n->line);
	return r;
}

/* What an untracked pointer points to: user, device or network memory
 * stays that, but the pointer's constants are not the pointee's (a
 * buffer kmalloc(2) returned, filled by a device query, then read). */
static void deref_source(struct aval *r, const struct node *p)
{
	r->src &= ~(SRCB(CONST) | SRCB(CONFIG));
	if (r->src_why_kind == SRC_CONST || r->src_why_kind == SRC_CONFIG) {
		r->src_why = NULL;
		r->src_why_kind = -1;
	}
	if (r->src & SRC_ALL)
		return;
	r->src |= SRCB(UNKNOWN);
	if (!r->src_why) {
		r->src_why = str_intern("memory read through a pointer");
		r->src_why_kind = SRC_UNKNOWN;
		r->src_line = p->line;
	}
}

static struct aval eval_unary(struct eval_ctx *cx, struct node *n, struct state *st)
{
	if (!n->op || n->nkids != 1)
		return aval_unknown();
	struct node *k = n->kids[0];
	int pv = !strcmp(n->op, "*") ? deref_var(cx, n) : -1;
	if (pv >= 0 && !st->dead)
		return st->v[pv];
	if (!strcmp(n->op, "++") || !strcmp(n->op, "--")) {
		int v = local_of(k);
		struct aval cur = v >= 0 && !st->dead ? st->v[v] : eval(cx, k, st);
		struct aval nv = binop(cx, n->op[0] == '+' ? "+" : "-", cur, aval_const(cx->tu, 1));
		assign(cx, st, v, nv, n->line);
		return n->postfix ? cur : nv;
	}
	struct aval a = eval(cx, k, st);
	struct aval r = aval_unknown();
	ev_merge(&r, &a);
	r.pdep = a.pdep;
	src_from(&r, &a, NULL);
	if (!strcmp(n->op, "~")) {
		r.g = (struct gfp_bits){ ~a.g.may & GFP_ALL_BITS, ~a.g.must & GFP_ALL_BITS };
		if (iv_is_const(a.iv))
			r.iv = iv_norm(iv_const(~a.iv.lo));
	} else if (!strcmp(n->op, "!")) {
		r.iv = iv_range(0, 1);
		if (iv_is_const(a.iv))
			r.iv = iv_const(!a.iv.lo);
		r.iv = iv_norm(r.iv);
	} else if (!strcmp(n->op, "-")) {
		r.iv = iv_norm(iv_sub(iv_const(0), a.iv));
	} else if (!strcmp(n->op, "+")) {
		return a;
	} else if (!strcmp(n->op, "*")) {
		deref_source(&r, k);
		return r;
	}
	if (iv_is_const(r.iv) && strcmp(n->op, "~"))
		r.g = gfp_const(aval_canon(cx->tu, r.iv.lo));
	return r;
}

/* A condition fixed at compile time (IS_ENABLED(), __builtin_constant_p()),
 * as opposed to one that is constant only on the paths seen so far. */
static bool compile_time_cond(struct node *c)
{
	c = node_strip(c);
	if (!c)
		return false;
	if (c->pure)
		return true;
	if (c->kind == CXCursor_CallExpr && c->name && !strcmp(c->name, "__builtin_constant_p"))
		return true;
	if (c->kind == CXCursor_UnaryOperator && c->op && !strcmp(c->op, "!") && c->nkids == 1)
		return compile_time_cond(c->kids[0]);
	if (c->kind == CXCursor_BinaryOperator && c->op && c->nkids == 2 &&
	    (!strcmp(c->op, "&&") || !strcmp(c->op, "||")))
		return compile_time_cond(c->kids[0]) && compile_time_cond(c->kids[1]);
	return false;
}

/* A condition whose value the interpreter knows on every path (under an
 * attempt class `order > min_order && order > 3`, a derived `costly`; a
 * mask test on a known mask) has one branch only. */
static void prune_decided(const struct eval_ctx *cx, struct aval cv, struct state *t, struct state *e)
{
	(void)cx;
	/* a condition decided by what other files store into a field (other
	 * instances' stores may be missing from the join) decides nothing */
	if (!iv_is_const(cv.iv) || (cv.src & SRC_FROM_FACTS))
		return;
	if (cv.iv.lo)
		e->dead = true;
	else
		t->dead = true;
}

static struct aval eval_cond_op(struct eval_ctx *cx, struct node *n, struct state *st)
{
	if (n->nkids != 3)
		return aval_unknown();
	struct aval cv = eval(cx, n->kids[0], st);
	if (iv_is_const(cv.iv) && compile_time_cond(n->kids[0])) /* __builtin_constant_p(...) ? a : b */
		return eval(cx, n->kids[cv.iv.lo ? 1 : 2], st);
	struct state t = st_copy(st), e = st_copy(st);
	refine(cx, n->kids[0], &t, true);
	refine(cx, n->kids[0], &e, false);
	prune_decided(cx, cv, &t, &e);
	struct aval a = eval(cx, n->kids[1], &t);
	struct aval b = eval(cx, n->kids[2], &e);
	struct aval r;
	if (t.dead && !e.dead)
		r = b;
	else if (e.dead && !t.dead)
		r = a;
	else
		r = aval_join(a, b);
	st_join_into(&t, &e);
	if (!t.dead)
		memcpy(st->v, t.v, (size_t)st->n * sizeof(struct aval));
	st_free(&t);
	st_free(&e);
	return r;
}

static struct aval eval_stmt_expr(struct eval_ctx *cx, struct node *n, struct state *st)
{
	struct node *body = n->nkids ? n->kids[n->nkids - 1] : NULL;
	if (!body || body->kind != CXCursor_CompoundStmt)
		return aval_unknown();
	struct aval last = aval_unknown();
	for (unsigned i = 0; i < body->nkids && !st->dead; i++) {
		struct node *s = body->kids[i];
		if (i + 1 == body->nkids && clang_isExpression(s->kind))
			last = eval(cx, s, st);
		else
			exec(cx, s, st);
	}
	return last;
}

/* _Generic(x, T1: e1, T2: e2...): the association the compiler picked is
 * the one whose type is the selection's (libclang does not say which);
 * the controlling expression is not evaluated.  Several of that type:
 * their join. */
static struct aval eval_generic(struct eval_ctx *cx, struct node *n, struct state *st)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(n->cur));
	struct aval r = aval_unknown();
	bool have = false;
	for (unsigned i = 1; i < n->nkids; i++) {
		CXType at = clang_getCanonicalType(clang_getCursorType(n->kids[i]->cur));
		if (!clang_equalTypes(t, at))
			continue;
		struct aval a = eval(cx, n->kids[i], st);
		r = have ? aval_join(r, a) : a;
		have = true;
	}
	return have ? r : type_bounded(n, aval_unknown());
}

/* Is `n`, or what its parens and casts hold, of the typedef `type`? */
static bool of_type(struct node *n, const char *type)
{
	for (; n; n = n->nkids ? n->kids[n->nkids - 1] : NULL) {
		CXString ts = clang_getTypeSpelling(clang_getCursorType(n->cur));
		bool same = !strcmp(clang_getCString(ts), type);
		clang_disposeString(ts);
		if (same)
			return true;
		if (n->kind != CXCursor_ParenExpr && n->kind != CXCursor_UnexposedExpr &&
		    n->kind != CXCursor_CStyleCastExpr)
			return false;
	}
	return false;
}

/* FGF_GET_ORDER(): the folio order a caller of the page cache encodes in
 * its fgf_t flags, fgf_set_order() of the length of a write (iomap, NFS,
 * netfs, bcachefs): the user's pick, up to the mapping's largest folio
 * order (KB_PAGECACHE_ORDER). */
static void folio_order_source(struct aval *r, unsigned line)
{
	struct aval u = aval_source(SRC_USER, "the folio order callers encode in fgp flags "
				    "(fgf_set_order() of a write's length)", line);
	src_from(r, &u, NULL);
	r->top_user = r->iv.known && r->iv.lo >= 0;
}

/* An element of user, network or device memory (a copy of a user array,
 * a packet, a firmware image) is that data. */
static struct aval eval_subscript(struct eval_ctx *cx, struct node *n, struct state *st)
{
	struct aval base = aval_unknown(), r = aval_unknown();
	for (unsigned i = 0; i < n->nkids; i++) {
		struct aval k = eval(cx, n->kids[i], st);
		if (i == 0)
			base = k;
	}
	if (n->nkids == 2 && (base.src & SRC_CONTROLLED))
		src_from(&r, &base, NULL);
	return type_bounded(n, r);
}

static struct aval eval(struct eval_ctx *cx, struct node *n, struct state *st)
{
	if (!n || --cx->budget < 0)
		return aval_unknown();
	long long c;
	if (const_leaf(n, &c))
		return aval_const(cx->tu, c);
	/* a macro-built constant (GFP_KERNEL | __GFP_NORETRY): one evaluation */
	if (n->pure && n->kind != CXCursor_DeclRefExpr && tu_eval_int(n->cur, &c))
		return aval_const(cx->tu, c);
	switch (n->kind) {
	case CXCursor_DeclRefExpr:
		if (n->var >= 0 && !st->dead) {
			narrow_tied(cx, n, st);
			if (st->dead)
				return aval_unknown();
			const char *why = NULL;
			int k = ksrc_macro_local(cx->fn->vars[n->var].name, &why);
			if (k >= 0 && st->v[n->var].src == SRCB(UNKNOWN)) {
				/* filled behind our back (its width may bound it) */
				struct aval m = aval_source((enum src_kind)k, why, n->line);
				m.iv = st->v[n->var].iv;
				return type_bounded(n, m);
			}
			return st->v[n->var];
		}
		return type_bounded(n, global_value(cx, n));
	case CXCursor_ParenExpr:
	case CXCursor_UnexposedExpr:
	case CXCursor_CStyleCastExpr: {
		if (!n->nkids)
			return type_bounded(n, aval_unknown());
		/* __builtin_choose_expr shows up as an unexposed node with 3 kids */
		if (n->kind == CXCursor_UnexposedExpr && n->nkids == 3) {
			long long k;
			if (tu_eval_int(n->kids[0]->cur, &k))
				return eval(cx, n->kids[k ? 1 : 2], st);
		}
		struct aval a = eval(cx, n->kids[n->nkids - 1], st);
		return n->kind == CXCursor_CStyleCastExpr ? type_bounded(n, a) : a;
	}
	case CXCursor_BinaryOperator:
		if (n->nkids != 2 || !n->op)
			return aval_unknown();
		if (!strcmp(n->op, "=")) 
			return eval_assign(cx, n, st);
		if (!strcmp(n->op, "&&") || !strcmp(n->op, "||")) {
			struct aval a = eval(cx, n->kids[0], st);
			struct state s2 = st_copy(st);
			refine(cx, n->kids[0], &s2, !strcmp(n->op, "&&"));
			struct aval b = eval(cx, n->kids[1], &s2);
			st_join_into(st, &s2);
			st_free(&s2);
			return binop(cx, n->op, a, b);
		} else {
			struct aval a = eval(cx, n->kids[0], st);
			struct aval b = eval(cx, n->kids[1], st);
			int t = is_cmp_op(n->op) ? assume_cmp(cx, n) : -1;
			if (t >= 0)
				return aval_const(cx->tu, t);
			struct aval r = binop(cx, n->op, a, b);
			if (!strcmp(n->op, ">>") && of_type(n->kids[0], "fgf_t") && iv_is_const(b.iv))
				folio_order_source(&r, n->line);
			return r;
		}
	case CXCursor_CompoundAssignOperator:
		if (n->nkids != 2 || !n->op)
			return aval_unknown();
		return eval_assign(cx, n, st);
	case CXCursor_UnaryOperator:
		return eval_unary(cx, n, st);
	case CXCursor_ConditionalOperator:
		return eval_cond_op(cx, n, st);
	case CXCursor_CallExpr:
		return eval_call(cx, n, st);
	case CXCursor_StmtExpr:
		return eval_stmt_expr(cx, n, st);
	case CXCursor_GenericSelectionExpr:
		return eval_generic(cx, n, st);
	case CXCursor_ArraySubscriptExpr:
		return eval_subscript(cx, n, st);
	case CXCursor_MemberRefExpr: {
		struct aval base = aval_unknown();
		for (unsigned i = 0; i < n->nkids; i++)
			base = eval(cx, n->kids[i], st);
		if (n->var >= 0 && !st->dead) {
			struct aval v = st->v[n->var];
			/* never stored here, read through user/device memory */
			if (v.src == SRCB(UNKNOWN) && !v.iv.known && (base.src & SRC_CONTROLLED))
				src_from(&v, &base, NULL);
			return v;
		}
		CXCursor fld = clang_getCursorReferenced(n->cur);
		bool joined;
		struct aval r = field_value(cx, fld, n->nkids ? &base : NULL, n->line, &joined);
		/* the tree's joined stores bound a path read untracked as
		 * they bound a tracked one (their kind without their range
		 * said "constant" of a type-wide value); but a range of
		 * stored masks is no mask: the gfp bits stay unknown (the
		 * join of address_space.gfp_mask over 20 stores made every
		 * readahead mask carry __GFP_RETRY_MAYFAIL: a false
		 * gfp-contradiction error in mm/readahead.c) */
		if (!joined)
			r.iv = iv_top();
		r.g = gfp_unknown();
		int w = clang_Cursor_isNull(fld) ? -1 : clang_getFieldDeclBitWidth(fld);
		if (w > 0 && w < 32 && !joined)
			r.iv = iv_norm(iv_range(0, ((int64_t)1 << w) - 1)); /* bit-field */
		return type_bounded(n, r);
	}
	default:
		for (unsigned i = 0; i < n->nkids; i++)
			eval(cx, n->kids[i], st);
		return type_bounded(n, aval_unknown());
	}
}

/* ---- statements ---- */

static void exec_if(struct eval_ctx *cx, struct node *n, struct state *st)
{
	if (n->nkids < 2)
		return;
	struct node *cond = n->kids[n->nkids == 2 ? 0 : n->nkids - 3];
	struct node *then_s = n->kids[n->nkids == 2 ? 1 : n->nkids - 2];
	struct node *else_s = n->nkids >= 3 ? n->kids[n->nkids - 1] : NULL;
	struct aval cv = eval(cx, cond, st);
	if (iv_is_const(cv.iv) && compile_time_cond(cond)) { /* if (IS_ENABLED(CONFIG_X)), if (0) */
		if (cv.iv.lo)
			exec(cx, then_s, st);
		else if (else_s)
			exec(cx, else_s, st);
		return;
	}
	struct state t = st_copy(st), e = st_copy(st);
	refine(cx, cond, &t, true);
	refine(cx, cond, &e, false);
	prune_decided(cx, cv, &t, &e);
	exec(cx, then_s, &t);
	if (else_s)
		exec(cx, else_s, &e);
	struct state out = st_copy(&t);
	st_join_into(&out, &e);
	if (t.dead && e.dead)
		out.dead = true;
	memcpy(st->v, out.v, (size_t)st->n * sizeof(struct aval));
	st->dead = out.dead;
	st_free(&t);
	st_free(&e);
	st_free(&out);
}

static void loop_run(struct eval_ctx *cx, struct state *st, struct node *cond, struct node *body,
		     struct node *inc, bool cond_first)
{
	struct loop_frame fr = { .brk = st_copy(st), .cont = st_copy(st), .up = cx->loops };
	fr.brk.dead = true;
	cx->loops = &fr;
	struct state head = st_copy(st);
	struct state exit_st = st_copy(st);
	exit_st.dead = true;
	for (int it = 0; it < LOOP_ITERS + 2; it++) {
		struct state cur = st_copy(&head);
		if (cond_first && cond) {
			eval(cx, cond, &cur);
			struct state out = st_copy(&cur);
			refine(cx, cond, &out, false);
			st_join_into(&exit_st, &out);
			st_free(&out);
			refine(cx, cond, &cur, true);
		}
		fr.cont.dead = true;
		if (body && body == cx->capture_at && cx->captured && !cur.dead) {
			if (cx->has_captured)
				st_join_into(cx->captured, &cur);
			else
				*cx->captured = st_copy(&cur);
			cx->has_captured = true;
		}
		exec(cx, body, &cur);
		st_join_into(&cur, &fr.cont);
		if (inc)
			eval(cx, inc, &cur);
		if (!cond_first && cond) {
			struct aval cv = eval(cx, cond, &cur);
			struct state out = st_copy(&cur);
			refine(cx, cond, &out, false);
			st_join_into(&exit_st, &out);
			st_free(&out);
			refine(cx, cond, &cur, true);
			if (iv_is_const(cv.iv) && !cv.iv.lo)
				cur.dead = true; /* do { ... } while (0): no second round */
		} else if (!cond_first && !cond) {
			/* no condition: only breaks leave */
		}
		struct state next = st_copy(&head);
		st_join_into(&next, &cur);
		if (it >= 2)
			st_widen(&next, &head, cx->fn);
		bool same = st_same(&next, &head);
		st_free(&head);
		head = next;
		st_free(&cur);
		if (same || cx->budget < 0)
			break;
	}
	st_join_into(&exit_st, &fr.brk);
	memcpy(st->v, exit_st.v, (size_t)st->n * sizeof(struct aval));
	st->dead = exit_st.dead;
	cx->loops = fr.up;
	st_free(&head);
	st_free(&exit_st);
	st_free(&fr.brk);
	st_free(&fr.cont);
}

static void exec_switch(struct eval_ctx *cx, struct node *n, struct state *st)
{
	if (n->nkids < 2)
		return;
	eval(cx, n->kids[0], st);
	int64_t off;
	int swvar = side_var(n->kids[0], &off);
	struct node *body = n->kids[n->nkids - 1];
	struct loop_frame fr = { .brk = st_copy(st), .cont = st_copy(st), .up = cx->loops };
	fr.brk.dead = fr.cont.dead = true; /* nothing continued yet */
	/* continue inside a switch belongs to the enclosing loop */
	struct loop_frame *outer = cx->loops;
	cx->loops = &fr;
	struct state entry = st_copy(st);
	struct state cur = st_copy(st);
	cur.dead = true;
	bool has_default = false;
	/* `default:` is entered only with values no case names */
	struct state dflt = st_copy(st);
	for (int round = 0; swvar >= 0 && !off && round < 2; round++)
		for (unsigned i = 0; body->kind == CXCursor_CompoundStmt && i < body->nkids; i++)
			for (struct node *s = body->kids[i]; s && s->kind == CXCursor_CaseStmt;
			     s = s->nkids ? s->kids[s->nkids - 1] : NULL) {
				long long k;
				if (s->nkids == 2 && tu_eval_int(node_strip(s->kids[0])->cur, &k))
					refine_var(&dflt, swvar, 0, "!=", iv_const(k), true);
				else
					break;
			}
	/* each case label is reachable from the entry */
	for (unsigned i = 0; body->kind == CXCursor_CompoundStmt && i < body->nkids; i++) {
		struct node *s = body->kids[i];
		while (s && (s->kind == CXCursor_CaseStmt || s->kind == CXCursor_DefaultStmt)) {
			long long k;
			if (s->kind == CXCursor_DefaultStmt)
				has_default = true;
			if (s->kind == CXCursor_CaseStmt && swvar >= 0 && !off && s->nkids == 2 &&
			    tu_eval_int(node_strip(s->kids[0])->cur, &k)) {
				/* `case K:` is entered only with the value K */
				struct state e2 = st_copy(&entry);
				refine_var(&e2, swvar, 0, "==", iv_const(k), true);
				st_join_into(&cur, &e2);
				st_free(&e2);
			} else if (s->kind == CXCursor_DefaultStmt) {
				st_join_into(&cur, &dflt);
			} else {
				st_join_into(&cur, &entry);
			}
			s = s->nkids ? s->kids[s->nkids - 1] : NULL;
		}
		if (s)
			exec(cx, s, &cur);
	}
	if (body->kind != CXCursor_CompoundStmt)
		exec(cx, body, &cur);
	if (fr.cont.dead == false && outer)
		st_join_into(&outer->cont, &fr.cont);
	st_join_into(&cur, &fr.brk);
	if (!has_default)
		st_join_into(&cur, &dflt);
	st_free(&dflt);
	memcpy(st->v, cur.v, (size_t)st->n * sizeof(struct aval));
	st->dead = cur.dead;
	cx->loops = outer;
	st_free(&entry);
	st_free(&cur);
	st_free(&fr.brk);
	st_free(&fr.cont);
}

static void exec(struct eval_ctx *cx, struct node *n, struct state *st)
{
	if (!n || st->dead || --cx->budget < 0)
		return;
	switch (n->kind) {
	case CXCursor_CompoundStmt:
		for (unsigned i = 0; i < n->nkids; i++) {
			struct node *k = n->kids[i];
			if (k->kind == CXCursor_LabelStmt && k->name) {
				/* the states gotos brought here join the fall-through */
				struct label_state *l = label_get(cx, k->name);
				l->visited = true;
				if (l->has) {
					st_join_into(st, &l->st);
				} else if (st->dead) {
					/* reached only by a goto not seen yet: nothing known */
					st->dead = false;
					for (int v = 0; v < st->n; v++) {
						st->v[v] = aval_unknown();
						var_bits_bound(&cx->fn->vars[v], &st->v[v].iv);
					}
				}
			}
			exec(cx, k, st);
		}
		break;
	case CXCursor_DeclStmt:
		for (unsigned i = 0; i < n->nkids; i++) {
			struct node *d = n->kids[i];
			if (d->kind != CXCursor_VarDecl)
				continue;
			struct node *init = decl_init(d);
			struct aval v = init ? eval(cx, init, st) : aval_unknown();
			if (d->var >= 0 && !init)
				var_bits_bound(&cx->fn->vars[d->var], &v.iv);
			assign(cx, st, d->var, v, init ? d->line : 0);
		}
		break;
	case CXCursor_IfStmt:
		exec_if(cx, n, st);
		break;
	case CXCursor_WhileStmt:
		if (n->nkids >= 2)
			loop_run(cx, st, n->kids[0], n->kids[n->nkids - 1], NULL, true);
		break;
	case CXCursor_DoStmt:
		if (n->nkids >= 2)
			loop_run(cx, st, n->kids[n->nkids - 1], n->kids[0], NULL, false);
		break;
	case CXCursor_ForStmt: {
		struct node *init, *cond, *inc, *body;
		node_for_parts(n, &init, &cond, &inc, &body);
		if (init)
			exec(cx, init, st);
		loop_run(cx, st, cond, body, inc, true);
		break;
	}
	case CXCursor_SwitchStmt:
		exec_switch(cx, n, st);
		break;
	case CXCursor_ReturnStmt: {
		if (n->nkids) {
			struct aval r = eval(cx, n->kids[0], st);
			if (!st->dead) {
				cx->ret = cx->has_ret ? aval_join(cx->ret, r) : r;
				cx->has_ret = true;
			}
		}
		if (cx->exits)
			st_join_into(cx->exits, st);
		st->dead = true;
		break;
	}
	case CXCursor_BreakStmt:
		if (cx->loops)
			st_join_into(&cx->loops->brk, st);
		st->dead = true;
		break;
	case CXCursor_ContinueStmt:
		if (cx->loops) {
			/* the innermost loop frame; a switch frame forwards it */
			st_join_into(&cx->loops->cont, st);
		}
		st->dead = true;
		break;
	case CXCursor_GotoStmt:
		if (n->name) {
			struct label_state *l = label_get(cx, n->name);
			if (!l->has) {
				l->st = st_copy(st);
				l->has = true;
				if (l->visited)
					cx->backward_changed = true;
			} else {
				struct state before = st_copy(&l->st);
				st_join_into(&l->st, st);
				if (l->visited && !st_same(&before, &l->st))
					cx->backward_changed = true;
				st_free(&before);
			}
		}
		st->dead = true;
		break;
	case CXCursor_LabelStmt:
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
		if (n->nkids)
			exec(cx, n->kids[n->nkids - 1], st);
		break;
	case CXCursor_NullStmt:
		break;
	default:
		if (clang_isExpression(n->kind))
			eval(cx, n, st);
		else
			for (unsigned i = 0; i < n->nkids; i++)
				exec(cx, n->kids[i], st);
		break;
	}
}

/* Forget the states gotos carried to labels (end of a run). */
static void labels_drop(struct eval_ctx *cx)
{
	for (int i = 0; i < cx->nlabels; i++)
		if (cx->labels[i].has)
			st_free(&cx->labels[i].st);
	free(cx->labels);
	cx->labels = NULL;
	cx->nlabels = cx->labels_alloc = 0;
}

int eval_function(struct eval_ctx *cx, const struct aval *args, unsigned nargs)
{
	struct fn_model *f = cx->fn;
	struct state st = st_new(f->nvars);
	for (int i = 0; i < f->nvars; i++) {
		struct aval a = aval_unknown();
		int p = f->vars[i].param;
		if (p >= 0 && args && (unsigned)p < nargs) {
			/* the caller's value, as this frame's parameter #p: a
			 * transform found here is applied to it by the caller */
			a = args[p];
			a.param = p;
			a.pset_must = a.pset_may = a.pclr = a.pclr_may = 0;
			a.gparam = -1;
			a.pdep = p < 32 ? (uint32_t)1 << p : 0;
		} else {
			a = var_initial(cx, f, i);
			if (p >= 0) {
				a.param = p;
				a.pdep = p < 32 ? (uint32_t)1 << p : 0;
			}
		}
		var_bits_bound(&f->vars[i], &a.iv);
		st.v[i] = a;
	}
	if (cx->budget <= 0)
		cx->budget = 1000000;
	cx->labels = NULL;
	cx->nlabels = cx->labels_alloc = 0;
	struct state entry = st_copy(&st);
	exec(cx, f->body, &st);
	/* a goto back to a label (retry:) carried a new state there: run the
	 * body again with it, a few times, as a loop would */
	for (int round = 0; round < 3 && cx->backward_changed && cx->budget > 0; round++) {
		cx->backward_changed = false;
		for (int i = 0; i < cx->nlabels; i++)
			cx->labels[i].visited = false;
		st_free(&st);
		st = st_copy(&entry);
		exec(cx, f->body, &st);
	}
	st_free(&entry);
	labels_drop(cx);
	if (cx->exits)
		st_join_into(cx->exits, &st); /* falling off the end */
	if (cx->budget <= 0 && debug_on())
		fprintf(stderr, "debug: budget exhausted in %s\n", f->name ? f->name : "?");
	st_free(&st);
	return 0;
}

void eval_state_free(struct state *s)
{
	st_free(s);
}

int eval_region(struct eval_ctx *cx, struct node *stmt, const struct state *entry)
{
	struct state st = st_copy(entry);
	struct loop_frame fr = { .brk = st_copy(entry), .cont = st_copy(entry), .up = NULL };
	fr.brk.dead = fr.cont.dead = true;
	struct loop_frame *outer = cx->loops;
	cx->loops = &fr;
	if (cx->budget <= 0)
		cx->budget = 1000000;
	cx->labels = NULL;
	cx->nlabels = cx->labels_alloc = 0;
	exec(cx, stmt, &st);
	labels_drop(cx);
	cx->loops = outer;
	st_free(&fr.brk);
	st_free(&fr.cont);
	st_free(&st);
	return 0;
}
