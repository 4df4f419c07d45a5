/* Attempt classes (see attempts.h). */
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/attempts.h"
#include "gfpaudit/strbuf.h"

#define MAX_CUTS 8
#define MAX_RUNS 16

/* Boundaries between orders: a cut c separates ..c from c+1.. */
struct cuts {
	int64_t c[MAX_CUTS];
	int n;
};

static void cut_add(struct cuts *cs, int64_t c, struct order_range r)
{
	if (c < r.lo || c >= r.hi)
		return;
	for (int i = 0; i < cs->n; i++)
		if (cs->c[i] == c)
			return;
	if (cs->n < MAX_CUTS)
		cs->c[cs->n++] = c;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static int cmp_ptr(const void *a, const void *b)
{
	const struct node *x = *(const struct node *const *)a, *y = *(const struct node *const *)b;
	return x < y ? -1 : x > y;
}

/* ---- which reads see the value the call passes ---- */

struct refs {
	int v;
	const struct node **use, **mod;
	size_t nuse, nmod, ause, amod;
};

static void collect(const struct node *n, struct refs *r)
{
	if (n->kind == CXCursor_DeclRefExpr && n->var == r->v) {
		ALLOC_GROW(r->use, r->nuse + 1, r->ause);
		r->use[r->nuse++] = n;
	}
	if (node_modifies(n, r->v)) {
		ALLOC_GROW(r->mod, r->nmod + 1, r->amod);
		r->mod[r->nmod++] = n;
	}
	for (unsigned i = 0; i < n->nkids; i++)
		collect(n->kids[i], r);
}

static bool is_loop(const struct node *n)
{
	return n->kind == CXCursor_ForStmt || n->kind == CXCursor_WhileStmt || n->kind == CXCursor_DoStmt;
}

static bool modified_in(const struct node *l, const struct refs *r)
{
	for (size_t i = 0; i < r->nmod; i++)
		if (node_contains(l, r->mod[i]))
			return true;
	return false;
}

/* A read u inside `root` sees the value the call passes when it comes
 * before the call (or is one of its arguments), nothing writes the
 * variable between the two, and no loop around u alone changes it. */
static bool tied(const struct node *u, const struct node *call, const struct node *root, const struct refs *r)
{
	bool in_call = node_contains(call, u);
	if (!in_call && u->id > call->id)
		return false;
	for (size_t i = 0; i < r->nmod; i++) {
		const struct node *m = r->mod[i];
		if (node_contains(m, u) || (!in_call && m->id > u->id && m->id < call->id))
			return false;
	}
	for (const struct node *p = u->parent; p && p != root; p = p->parent)
		if (is_loop(p) && !node_contains(p, call) && modified_in(p, r))
			return false;
	return true;
}

/* ---- where the function cuts the orders ---- */

static struct node *up(struct node *n)
{
	struct node *p = n->parent;
	while (p && (p->kind == CXCursor_ParenExpr || p->kind == CXCursor_UnexposedExpr ||
		     p->kind == CXCursor_CStyleCastExpr))
		p = p->parent;
	return p;
}

static bool is_cmp(const struct node *n)
{
	const char *op = n->op;
	return n->kind == CXCursor_BinaryOperator && n->nkids == 2 && op &&
	       (!strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=") ||
		!strcmp(op, "==") || !strcmp(op, "!="));
}

static const char *mirror(const char *op)
{
	if (!strcmp(op, ">")) return "<";
	if (!strcmp(op, "<")) return ">";
	if (!strcmp(op, ">=")) return "<=";
	if (!strcmp(op, "<=")) return ">=";
	return op;
}

static void cuts_of_cmp(struct cuts *cs, const char *op, int64_t k, struct order_range r)
{
	if (!strcmp(op, ">") || !strcmp(op, "<="))
		cut_add(cs, k, r);
	else if (!strcmp(op, ">=") || !strcmp(op, "<"))
		cut_add(cs, k - 1, r);
	else {
		cut_add(cs, k - 1, r);
		cut_add(cs, k, r);
	}
}

static void cuts_of_switch(struct cuts *cs, const struct node *n, struct order_range r, bool top)
{
	if (!top && n->kind == CXCursor_SwitchStmt)
		return; /* a nested switch has its own cases */
	long long k;
	if (n->kind == CXCursor_CaseStmt && n->nkids == 2 && tu_eval_int(node_strip(n->kids[0])->cur, &k)) {
		cut_add(cs, k - 1, r);
		cut_add(cs, k, r);
	}
	for (unsigned i = 0; i < n->nkids; i++)
		cuts_of_switch(cs, n->kids[i], r, false);
}

/* The cuts a tied read u makes, and a variable it is compared with. */
static bool cuts_of_use(struct cuts *cs, struct node *u, struct order_range r, int *rel_var)
{
	struct node *p = up(u);
	if (!p)
		return false;
	if (is_cmp(p)) {
		bool left = node_contains(p->kids[0], u);
		struct node *o = node_strip(p->kids[left ? 1 : 0]);
		const char *op = left ? p->op : mirror(p->op);
		long long k;
		if (!o)
			return false;
		if (tu_eval_int(o->cur, &k)) {
			cuts_of_cmp(cs, op, k, r);
			return true;
		}
		if (o->kind == CXCursor_DeclRefExpr && o->var >= 0 && o->var != u->var) {
			if (*rel_var < 0)
				*rel_var = o->var;
			return true;
		}
		return false;
	}
	bool as_cond = false;
	switch (p->kind) {
	case CXCursor_UnaryOperator:
		as_cond = p->op && !strcmp(p->op, "!");
		break;
	case CXCursor_BinaryOperator:
		as_cond = p->op && (!strcmp(p->op, "&&") || !strcmp(p->op, "||"));
		break;
	case CXCursor_IfStmt:
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
	case CXCursor_ConditionalOperator:
		as_cond = p->nkids && node_contains(p->kids[p->kind == CXCursor_DoStmt ? p->nkids - 1 : 0], u);
		break;
	case CXCursor_SwitchStmt:
		if (p->nkids >= 2 && node_contains(p->kids[0], u)) {
			cuts_of_switch(cs, p->kids[p->nkids - 1], r, true);
			return true;
		}
		break;
	default:
		break;
	}
	if (as_cond)
		cut_add(cs, 0, r);
	return as_cond;
}

/* ---- the runs ---- */

struct klass {
	struct order_range orders;
	enum eval_rel rel;
	enum attempt_role role;
	struct gfp_bits gfp;
	bool reached;
};

static struct node *loop_body(struct node *l)
{
	struct node *init, *cond, *inc, *body;
	switch (l->kind) {
	case CXCursor_ForStmt:
		node_for_parts(l, &init, &cond, &inc, &body);
		return body;
	case CXCursor_WhileStmt:
		return l->nkids >= 2 ? l->kids[l->nkids - 1] : NULL;
	case CXCursor_DoStmt:
		return l->nkids >= 2 ? l->kids[0] : NULL;
	default:
		return NULL;
	}
}

static enum attempt_role role_of(const struct attempt_plan *p, const struct site *s, const struct klass *k,
				 bool floor_rel)
{
	switch (s->fallback) {
	case FB_ORDER_LOOP:
		if (floor_rel)
			return k->rel == REL_GT ? ROLE_FALLBACK : ROLE_LAST;
		if (p->has_floor_k)
			return k->orders.lo > p->floor_k ? ROLE_FALLBACK : ROLE_LAST;
		return k->orders.lo > s->order.lo ? ROLE_FALLBACK : ROLE_LAST;
	default:
		return fallback_catches(s->fallback) ? ROLE_FALLBACK : ROLE_LAST;
	}
}

static const char *rel_text(enum eval_rel r)
{
	return r == REL_GT ? ">" : r == REL_EQ ? "==" : r == REL_LT ? "<" : NULL;
}

static int cmp_klass(const void *a, const void *b)
{
	const struct klass *x = a, *y = b;
	if (x->role != y->role)
		return x->role == ROLE_FALLBACK ? -1 : 1;
	if (x->rel != y->rel)
		return x->rel < y->rel ? -1 : 1;
	return y->orders.hi - x->orders.hi;
}

/* One site's split into attempts: the region one run covers, the uses of
 * the order variable tied to the call there, and the cuts of the order
 * range their conditions make. */
struct split {
	const struct attempt_env *env;
	const struct attempt_plan *p;
	struct site *s;
	struct refs all;
	struct node *loop, *region;
	const struct node **tie;
	size_t ntie, atie;
	struct cuts cs;
	int rel_var;
	bool floor_rel;
	struct state entry;
};

/* The region one run covers: the body of the innermost loop around the
 * call that changes the order (each round is one attempt), else the whole
 * function.  False when the call is outside that body. */
static bool find_region(struct split *sp, struct node *body)
{
	sp->region = body;
	for (struct node *q = sp->p->call->parent; q && q != body; q = q->parent)
		if (is_loop(q) && modified_in(q, &sp->all)) {
			sp->loop = q;
			break;
		}
	if (!sp->loop)
		return true;
	sp->region = loop_body(sp->loop);
	return sp->region && node_contains(sp->region, sp->p->call);
}

/* The uses of the order variable tied to the call, and the cuts their
 * conditions make; false when no condition tells attempts apart. */
static bool find_ties(struct split *sp)
{
	bool conditional = false;
	for (size_t i = 0; i < sp->all.nuse; i++) {
		struct node *u = (struct node *)sp->all.use[i];
		if (!node_contains(sp->region, u) || !tied(u, sp->p->call, sp->region, &sp->all))
			continue;
		ALLOC_GROW(sp->tie, sp->ntie + 1, sp->atie);
		sp->tie[sp->ntie++] = u;
		if (!node_contains(sp->p->call, u))
			conditional |= cuts_of_use(&sp->cs, u, sp->s->order, &sp->rel_var);
	}
	if (!conditional || !sp->ntie)
		return false;
	if (sp->ntie > 1)
		qsort(sp->tie, sp->ntie, sizeof(*sp->tie), cmp_ptr);
	return true;
}

/* The costly order, the floor (or the loop's lowest order) cut the range
 * too; a floor variable is what the order is compared with. */
static void add_fixed_cuts(struct split *sp)
{
	const struct attempt_plan *p = sp->p;
	struct order_range order = sp->s->order;
	sp->floor_rel = p->floor_var >= 0;
	if (sp->floor_rel)
		sp->rel_var = p->floor_var;
	cut_add(&sp->cs, p->costly, order);
	if (p->has_floor_k)
		cut_add(&sp->cs, p->floor_k, order);
	else if (sp->s->fallback == FB_ORDER_LOOP && !sp->floor_rel)
		cut_add(&sp->cs, order.lo, order);
	if (sp->cs.n > 1)
		qsort(sp->cs.c, (size_t)sp->cs.n, sizeof(sp->cs.c[0]), cmp_i64);
}

/* The state at the loop body's entry, joined over the rounds (nothing to
 * do without a loop); false when the evaluation never gets there. */
static bool loop_entry_state(struct split *sp)
{
	if (!sp->loop)
		return true;
	struct eval_ctx cx = sp->env->cx;
	cx.on_call = NULL;
	cx.budget = 0;
	cx.capture_at = sp->region;
	cx.captured = &sp->entry;
	cx.has_captured = false;
	eval_function(&cx, sp->p->args, sp->p->nargs);
	return cx.has_captured;
}

/* One evaluation per relation to the compared variable and per range
 * between cuts, assuming the order in it; the classes that reach the call
 * go to k[], their number is returned. */
static int eval_classes(struct split *sp, struct klass *k)
{
	const struct attempt_env *env = sp->env;
	const struct attempt_plan *p = sp->p;
	const struct site *s = sp->s;
	enum eval_rel rels[3] = { REL_NONE };
	int nrel = 1;
	if (sp->rel_var >= 0) {
		rels[0] = REL_GT;
		rels[1] = REL_EQ;
		rels[2] = REL_LT;
		nrel = sp->floor_rel ? 2 : 3;
	}
	int nk = 0;
	for (int ri = 0; ri < nrel; ri++)
		for (int ci = 0; ci <= sp->cs.n && nk < MAX_RUNS; ci++) {
			int64_t lo = ci ? sp->cs.c[ci - 1] + 1 : s->order.lo;
			int64_t hi = ci < sp->cs.n ? sp->cs.c[ci] : s->order.hi;
			struct eval_assume as = { p->var, iv_range(lo, hi), sp->rel_var, rels[ri], sp->tie, sp->ntie };
			struct eval_ctx cx = env->cx;
			cx.assume = &as;
			cx.budget = 0;
			env->reset(cx.data);
			if (sp->loop)
				eval_region(&cx, sp->region, &sp->entry);
			else
				eval_function(&cx, p->args, p->nargs);
			struct klass *c = &k[nk];
			struct order_range o = { 0, 0, false };
			c->reached = env->probe(cx.data, p->call, &c->gfp, &o);
			c->orders = (struct order_range){ (int)lo, (int)hi, true };
			if (o.known && o.lo <= hi && o.hi >= lo) {
				c->orders.lo = o.lo > lo ? o.lo : (int)lo;
				c->orders.hi = o.hi < hi ? o.hi : (int)hi;
			}
			c->rel = rels[ri];
			if (c->reached)
				nk++;
		}
	env->reset(env->cx.data);
	if (sp->loop)
		eval_state_free(&sp->entry);
	return nk;
}

/* Roles, then neighbours with one role and one mask become one class;
 * returns the number of classes left. */
static int merge_classes(const struct split *sp, struct klass *k, int nk)
{
	const struct attempt_plan *p = sp->p;
	for (int i = 0; i < nk; i++)
		k[i].role = role_of(p, sp->s, &k[i], sp->floor_rel);
	int w = 0;
	for (int i = 0; i < nk; i++) {
		struct klass *prev = w ? &k[w - 1] : NULL;
		if (prev && prev->rel == k[i].rel && prev->role == k[i].role && prev->gfp.must == k[i].gfp.must &&
		    prev->gfp.may == k[i].gfp.may && prev->orders.hi + 1 >= k[i].orders.lo &&
		    (prev->orders.hi > p->costly) == (k[i].orders.hi > p->costly)) {
			if (k[i].orders.hi > prev->orders.hi)
				prev->orders.hi = k[i].orders.hi;
			continue;
		}
		k[w++] = k[i];
	}
	return w;
}

/* The classes become the site's attempts, fallbacks first. */
static void record_attempts(const struct split *sp, const struct fn_model *fn, struct klass *k, int nk)
{
	struct site *s = sp->s;
	qsort(k, (size_t)nk, sizeof(k[0]), cmp_klass);
	for (size_t i = 0; i < s->natt; i++)
		free(s->att[i].when);
	s->natt = 0;
	for (int i = 0; i < nk; i++) {
		char *when = NULL;
		if (k[i].rel != REL_NONE)
			when = xasprintf("%s %s %s", fn->vars[sp->p->var].name, rel_text(k[i].rel),
					 fn->vars[sp->rel_var].name);
		site_add_attempt(s, k[i].orders, k[i].role, k[i].gfp, when);
		free(when);
	}
}

int attempts_build(const struct attempt_env *env, const struct attempt_plan *p, struct site *s)
{
	const struct fn_model *fn = env->cx.fn;
	site_default_attempts(s);
	if (p->var < 0 || !s->order.known || !p->call || !fn || !fn->body)
		return 0;
	struct split sp = { .env = env, .p = p, .s = s, .all = { .v = p->var }, .rel_var = -1 };
	collect(fn->body, &sp.all);
	if (find_region(&sp, fn->body) && find_ties(&sp)) {
		add_fixed_cuts(&sp);
		if (loop_entry_state(&sp)) {
			struct klass k[MAX_RUNS];
			int nk = eval_classes(&sp, k);
			if (nk)
				record_attempts(&sp, fn, k, merge_classes(&sp, k, nk));
		}
	}
	free(sp.tie);
	free(sp.all.use);
	free(sp.all.mod);
	return 0;
}
