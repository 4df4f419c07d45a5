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
	case FB_LOWER_ORDER:
	case FB_VMALLOC:
	case FB_KVMALLOC:
	case FB_CALLER_SMALLER:
	case FB_CALLER_PATH:
	case FB_CALLER_OFF:
		return ROLE_FALLBACK;
	default:
		return ROLE_LAST;
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

int attempts_build(const struct attempt_env *env, const struct attempt_plan *p, struct site *s)
{
	const struct fn_model *fn = env->cx.fn;
	site_default_attempts(s);
	if (p->var < 0 || !s->order.known || !p->call || !fn || !fn->body)
		return 0;

	/* the region one run covers: the body of the innermost loop around the
	 * call that changes the order (each round is one attempt), else the
	 * whole function */
	struct refs all = { .v = p->var };
	collect(fn->body, &all);
	struct node *loop = NULL, *region = fn->body;
	for (struct node *q = p->call->parent; q && q != fn->body; q = q->parent)
		if (is_loop(q) && modified_in(q, &all)) {
			loop = q;
			break;
		}
	if (loop) {
		region = loop_body(loop);
		if (!region || !node_contains(region, p->call))
			goto out;
	}

	const struct node **tie = NULL;
	size_t ntie = 0, atie = 0;
	struct cuts cs = { .n = 0 };
	int rel_var = -1;
	bool conditional = false;
	for (size_t i = 0; i < all.nuse; i++) {
		struct node *u = (struct node *)all.use[i];
		if (!node_contains(region, u) || !tied(u, p->call, region, &all))
			continue;
		ALLOC_GROW(tie, ntie + 1, atie);
		tie[ntie++] = u;
		if (!node_contains(p->call, u))
			conditional |= cuts_of_use(&cs, u, s->order, &rel_var);
	}
	if (!conditional || !ntie) {
		free(tie);
		goto out;
	}
	if (ntie > 1)
		qsort(tie, ntie, sizeof(*tie), cmp_ptr);
	bool floor_rel = p->floor_var >= 0;
	if (floor_rel)
		rel_var = p->floor_var;
	cut_add(&cs, p->costly, s->order);
	if (p->has_floor_k)
		cut_add(&cs, p->floor_k, s->order);
	else if (s->fallback == FB_ORDER_LOOP && !floor_rel)
		cut_add(&cs, s->order.lo, s->order);
	if (cs.n > 1)
		qsort(cs.c, (size_t)cs.n, sizeof(cs.c[0]), cmp_i64);

	/* the state at the loop body's entry, joined over the rounds */
	struct state entry = { 0 };
	if (loop) {
		struct eval_ctx cx = env->cx;
		cx.on_call = NULL;
		cx.budget = 0;
		cx.capture_at = region;
		cx.captured = &entry;
		cx.has_captured = false;
		eval_function(&cx, p->args, p->nargs);
		if (!cx.has_captured) {
			free(tie);
			goto out;
		}
	}

	enum eval_rel rels[3] = { REL_NONE };
	int nrel = 1;
	if (rel_var >= 0) {
		rels[0] = REL_GT;
		rels[1] = REL_EQ;
		rels[2] = REL_LT;
		nrel = floor_rel ? 2 : 3;
	}
	struct klass k[MAX_RUNS];
	int nk = 0;
	for (int ri = 0; ri < nrel; ri++)
		for (int ci = 0; ci <= cs.n && nk < MAX_RUNS; ci++) {
			int64_t lo = ci ? cs.c[ci - 1] + 1 : s->order.lo, hi = ci < cs.n ? cs.c[ci] : s->order.hi;
			struct eval_assume as = { p->var, iv_range(lo, hi), rel_var, rels[ri], tie, ntie };
			struct eval_ctx cx = env->cx;
			cx.assume = &as;
			cx.budget = 0;
			env->reset(cx.data);
			if (loop)
				eval_region(&cx, region, &entry);
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
	if (loop)
		eval_state_free(&entry);
	free(tie);
	if (!nk)
		goto out;

	/* roles, then neighbours with one role and one mask become one class */
	for (int i = 0; i < nk; i++)
		k[i].role = role_of(p, s, &k[i], floor_rel);
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
	nk = w;
	qsort(k, (size_t)nk, sizeof(k[0]), cmp_klass);
	for (size_t i = 0; i < s->natt; i++)
		free(s->att[i].when);
	s->natt = 0;
	for (int i = 0; i < nk; i++) {
		char *when = NULL;
		if (k[i].rel != REL_NONE)
			when = xasprintf("%s %s %s", fn->vars[p->var].name, rel_text(k[i].rel), fn->vars[rel_var].name);
		site_add_attempt(s, k[i].orders, k[i].role, k[i].gfp, when);
		free(when);
	}
out:
	free(all.use);
	free(all.mod);
	return 0;
}
