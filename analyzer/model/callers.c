/* Who handles a function's failure: its callers (callers.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "gfpaudit/callers.h"
#include "gfpaudit/facts.h"
#include "gfpaudit/provenance.h"
#include "gfpaudit/strbuf.h"

const char *caller_handling_name(enum caller_handling h)
{
	switch (h) {
	case CALLER_FEATURE_OFF:
		return "feature-off";
	case CALLER_OTHER_PATH:
		return "other-path";
	case CALLER_SMALLER:
		return "retry-smaller";
	default:
		return "propagates";
	}
}

char *callers_key(CXCursor fn, const char *file)
{
	if (clang_Cursor_isNull(fn))
		return NULL;
	CXString s = clang_getCursorSpelling(fn);
	const char *name = clang_getCString(s);
	char *k = NULL;
	if (name && *name)
		k = clang_Cursor_getStorageClass(fn) == CX_SC_Static ? xasprintf("fails:%s:%s", file ? file : "?", name)
								       : xasprintf("fails:%s", name);
	clang_disposeString(s);
	return k;
}

/* ---- syntax ---- */

static bool is_wrapper_expr(const struct node *n)
{
	return n->kind == CXCursor_ParenExpr || n->kind == CXCursor_UnexposedExpr ||
	       n->kind == CXCursor_CStyleCastExpr || n->kind == CXCursor_StmtExpr;
}

/* `tok` in `txt` as a whole expression operand (not a part of a longer name). */
static const char *find_token(const char *txt, const char *tok)
{
	size_t n = strlen(tok);
	if (!n)
		return NULL;
	for (const char *p = strstr(txt, tok); p; p = strstr(p + 1, tok)) {
		bool left = p == txt || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.' ||
					  p[-1] == '>');
		bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '.' || p[n] == '-' ||
			       p[n] == '[' || p[n] == '(');
		if (left && right)
			return p;
	}
	return NULL;
}

static bool has_pat(const char *txt, const char *fmt_before, const char *lv, const char *after)
{
	char *pat = xasprintf("%s%s%s", fmt_before, lv, after);
	bool r = strstr(txt, pat) != NULL;
	free(pat);
	return r;
}

enum ret_type { RT_POINTER, RT_SIGNED, RT_UNSIGNED, RT_BOOL, RT_VOID };

static enum ret_type result_type(CXCursor fn)
{
	CXType t = clang_getCanonicalType(clang_getCursorResultType(fn));
	switch (t.kind) {
	case CXType_Pointer:
		return RT_POINTER;
	case CXType_Bool:
		return RT_BOOL;
	case CXType_Void:
		return RT_VOID;
	case CXType_UChar:
	case CXType_UShort:
	case CXType_UInt:
	case CXType_ULong:
	case CXType_ULongLong:
		return RT_UNSIGNED;
	default:
		return RT_SIGNED;
	}
}

/* Which branch of `if (cond)` does a failure of the value `lv` take?
 * 1: then, 0: else, -1: cannot tell. */
static int failure_when_true(const char *cond, const char *lv, enum ret_type rt)
{
	if (!find_token(cond, lv))
		return -1;
	/* `!IS_ERR(lv)` tests for success: seen before `IS_ERR(lv` inside it */
	if (has_pat(cond, "!IS_ERR(", lv, "") || has_pat(cond, "!IS_ERR_OR_NULL(", lv, ""))
		return 0;
	bool fails = has_pat(cond, "IS_ERR(", lv, "") || has_pat(cond, "IS_ERR_OR_NULL(", lv, "") ||
		     has_pat(cond, "", lv, " == NULL") || has_pat(cond, "", lv, " < 0") || has_pat(cond, "", lv, " <= 0");
	/* `r == -EFOO` holds for that one code: a failed allocation's -ENOMEM
	 * takes the branch only when it names -ENOMEM (ioctl_private_call's
	 * `if (ret == -EIWCOMMIT) ret = call_commit_handler(dev);` is no
	 * failure branch) */
	if (!fails && has_pat(cond, "", lv, " == -E"))
		return has_pat(cond, "", lv, " == -ENOMEM") ? 1 : -1;
	if (fails)
		return 1;
	bool negated = has_pat(cond, "!", lv, "") || has_pat(cond, "!(", lv, ")") || has_pat(cond, "", lv, " == 0");
	if (negated)
		return rt == RT_SIGNED ? 0 : 1; /* a zero count or a NULL fails; a zero errno succeeds */
	/* `r != 0` on an errno fails; `r > 0` is a count or a success (mei_nfc_write) */
	if (has_pat(cond, "", lv, " != 0") || has_pat(cond, "", lv, " > 0") || has_pat(cond, "", lv, " >= 0"))
		return rt == RT_SIGNED && has_pat(cond, "", lv, " != 0") ? 1 : 0;
	if (strchr(cond, '<') || strchr(cond, '>') || strstr(cond, "=="))
		return -1;
	/* the bare value: true is a pointer, a count, an error code */
	return rt == RT_SIGNED ? 1 : 0;
}

static bool writes_var(const struct node *n, int v)
{
	if (node_modifies(n, v))
		return true;
	const struct node *k = NULL;
	if (n->kind == CXCursor_UnaryOperator && n->op && !strcmp(n->op, "--") && n->nkids == 1)
		k = node_strip(n->kids[0]);
	else if ((n->kind == CXCursor_CompoundAssignOperator ||
		  (n->kind == CXCursor_BinaryOperator && n->op && !strcmp(n->op, "="))) && n->nkids == 2)
		k = node_strip(n->kids[0]);
	return k && k->kind == CXCursor_MemberRefExpr && k->var == v;
}

/* `--`, `-=`, `>>=` or `/=` on a field of the struct v (`ctl.page_size--`
 * after `f(&ctl)`, `c->unit >>= 1` after `f(c)`): the caller passed the
 * struct, the callee reads the field. */
static bool lowers_field_of(const struct node *n, int v)
{
	const struct node *k = NULL;
	if (n->kind == CXCursor_UnaryOperator && n->op && !strcmp(n->op, "--") && n->nkids == 1)
		k = node_strip(n->kids[0]);
	else if (n->kind == CXCursor_CompoundAssignOperator && n->op && n->nkids == 2 &&
		 (!strcmp(n->op, "-=") || !strcmp(n->op, ">>=") || !strcmp(n->op, "/=")))
		k = node_strip(n->kids[0]);
	if (!k || k->kind != CXCursor_MemberRefExpr)
		return false;
	while (k && k->kind == CXCursor_MemberRefExpr && k->nkids)
		k = node_strip(k->kids[0]);
	return k && k->kind == CXCursor_DeclRefExpr && k->var == v;
}

/* A write that lowers (or resets) one of vars[]: --, -=, >>=, /=, or an
 * assignment; or lowers a field of one of them. */
static const struct node *lowers_one_of(const struct node *n, const int *vars, int nv)
{
	for (int i = 0; i < nv; i++) {
		if (lowers_field_of(n, vars[i]))
			return n;
		if (!writes_var(n, vars[i]))
			continue;
		if (n->kind == CXCursor_UnaryOperator)
			return !strcmp(n->op, "--") ? n : NULL;
		if (n->kind == CXCursor_CompoundAssignOperator)
			return !strcmp(n->op, "-=") || !strcmp(n->op, ">>=") || !strcmp(n->op, "/=") ? n : NULL;
		return n;
	}
	for (unsigned i = 0; i < n->nkids; i++) {
		const struct node *m = lowers_one_of(n->kids[i], vars, nv);
		if (m)
			return m;
	}
	return NULL;
}

/* The first node of n (preorder) that `is` accepts. */
typedef bool (*node_pred)(const struct node *n, const void *arg);
static const struct node *find_first(const struct node *n, node_pred is, const void *arg)
{
	if (is(n, arg))
		return n;
	for (unsigned i = 0; i < n->nkids; i++) {
		const struct node *m = find_first(n->kids[i], is, arg);
		if (m)
			return m;
	}
	return NULL;
}

static bool is_kind(const struct node *n, const void *arg)
{
	return n->kind == *(const enum CXCursorKind *)arg;
}

static const struct node *find_kind(const struct node *n, enum CXCursorKind k)
{
	return find_first(n, is_kind, &k);
}

/* a call to name (any when NULL) other than `not` */
struct call_q {
	const char *name;
	const struct node *not;
	const struct alloc_table *tab;
};

static bool is_call(const struct node *n, const void *arg)
{
	const struct call_q *q = arg;
	if (n == q->not || n->kind != CXCursor_CallExpr || !n->name)
		return false;
	if (q->tab)
		return alloc_table_find(q->tab, n->name) != NULL;
	return !q->name || !strcmp(n->name, q->name);
}

static const struct node *find_call(const struct node *n, const char *name, const struct node *not)
{
	struct call_q q = { name, not, NULL };
	return find_first(n, is_call, &q);
}

static const struct node *find_alloc_call(const struct node *n, const struct alloc_table *tab)
{
	struct call_q q = { NULL, NULL, tab };
	return find_first(n, is_call, &q);
}

/* `lv = <call>` in n: the same value computed another way. */
static const struct node *reassigns_from_call(const struct tu *t, const struct node *n, const char *lv)
{
	if (n->kind == CXCursor_BinaryOperator && n->op && !strcmp(n->op, "=") && n->nkids == 2) {
		const struct node *rhs = node_strip(n->kids[1]);
		while (rhs && rhs->kind == CXCursor_StmtExpr && rhs->nkids)
			rhs = node_strip(rhs->kids[rhs->nkids - 1]);
		if (rhs && rhs->kind == CXCursor_CallExpr) {
			char *l = node_text(t, n->kids[0]);
			bool same = !strcmp(l, lv);
			free(l);
			if (same)
				return n;
		}
	}
	for (unsigned i = 0; i < n->nkids; i++) {
		const struct node *m = reassigns_from_call(t, n->kids[i], lv);
		if (m)
			return m;
	}
	return NULL;
}

/* A branch that does not go on: returns (even 0: the rest of the caller's
 * work is skipped), jumps away, stores an -E code, or stops the loop or
 * the kernel. */
static bool hands_error_on(const struct tu *t, const struct node *n)
{
	switch (n->kind) {
	case CXCursor_ReturnStmt: /* even `return 0`: the caller's work stops (hid_add_field) */
	case CXCursor_GotoStmt:
	case CXCursor_BreakStmt:
	case CXCursor_ContinueStmt:
		return true;
	case CXCursor_CallExpr:
		if (n->name && (strstr(n->name, "panic") || strstr(n->name, "BUG")))
			return true;
		break;
	case CXCursor_BinaryOperator:
		if (n->op && !strcmp(n->op, "=") && n->nkids == 2) {
			char *v = node_text(t, n->kids[1]);
			/* -ENOMEM, an error code of the driver's own (VERR_QUEUE_ALLOC_FAIL) */
			bool err = (v[0] == '-' && v[1] == 'E') || strstr(v, "ERR") || strstr(v, "FAIL");
			free(v);
			if (err)
				return true;
		}
		break;
	default:
		break;
	}
	for (unsigned i = 0; i < n->nkids; i++)
		if (hands_error_on(t, n->kids[i]))
			return true;
	return false;
}

/* ---- one call ---- */

struct use {
	struct node *top;   /* the call with the wrappers around it */
	struct node *test;  /* the if that tests the result, or NULL */
	struct node *loop;  /* a loop whose condition tests it, or NULL */
	char *lv;           /* what is tested: the variable, or the call's text */
	bool returned, ignored;
};

/* Does n write the value lv names: an assignment to it, ++/--, or its
 * address taken (a callee may write it)? */
static bool writes_text(const struct tu *t, const struct node *n, const char *lv)
{
	const struct node *k = NULL;
	if ((n->kind == CXCursor_CompoundAssignOperator ||
	     (n->kind == CXCursor_BinaryOperator && n->op && !strcmp(n->op, "="))) && n->nkids == 2)
		k = n->kids[0];
	else if (n->kind == CXCursor_UnaryOperator && n->op && n->nkids == 1 &&
		 (!strcmp(n->op, "++") || !strcmp(n->op, "--") || !strcmp(n->op, "&")))
		k = n->kids[0];
	if (k) {
		char *l = node_text(t, k);
		bool same = !strcmp(l, lv);
		free(l);
		if (same)
			return true;
	}
	for (unsigned i = 0; i < n->nkids; i++)
		if (writes_text(t, n->kids[i], lv))
			return true;
	return false;
}

/* A statement after which the rest of its block does not run. */
static bool is_exit_stmt(const struct node *n)
{
	return n->kind == CXCursor_ReturnStmt || n->kind == CXCursor_GotoStmt || n->kind == CXCursor_BreakStmt ||
	       n->kind == CXCursor_ContinueStmt;
}

/* The first if after `from` whose condition names lv: the value is
 * followed to its first test however many statements on (vmw_balloon tests
 * it five statements after the call), as long as nothing between writes it
 * and control gets there.  From the end of a block it goes on after the
 * block, out of if branches and plain blocks, not out of a loop body (the
 * next pass comes back to the call first). */
static struct node *next_test(const struct tu *t, struct node *from, const char *lv)
{
	struct node *st = from;
	while (st && st->parent && st->parent->kind != CXCursor_CompoundStmt) {
		if (node_is_loop(st->parent) || st->parent->kind == CXCursor_SwitchStmt)
			return NULL;
		st = st->parent;
	}
	while (st && st->parent) {
		struct node *blk = st->parent;
		for (unsigned i = 0; i < blk->nkids; i++) {
			struct node *k = blk->kids[i];
			if (k->off <= st->off)
				continue;
			if (k->kind == CXCursor_IfStmt && k->nkids >= 2) {
				char *c = node_text(t, k->kids[0]);
				bool names = find_token(c, lv) != NULL;
				free(c);
				if (names)
					return k;
			}
			if (is_exit_stmt(k) || k->kind == CXCursor_LabelStmt || writes_text(t, k, lv))
				return NULL; /* the value is gone, or other paths join here */
		}
		/* the end of the block: on after the if (or block) it ends */
		st = blk;
		while (st->parent && st->parent->kind == CXCursor_IfStmt)
			st = st->parent;
		if (!st->parent || st->parent->kind != CXCursor_CompoundStmt)
			return NULL;
	}
	return NULL;
}

/* Is the value lv read again after `test` (in the statements after it, in
 * its block and the enclosing ones, up to a statement `lv = ...`): kept to be
 * returned later (`if (lastfail) ret = lastfail;`, qib_init), so a failure
 * branch that only logs does not turn the feature off. */
static bool read_later(const struct tu *t, const struct node *test, const char *lv)
{
	for (const struct node *st = test; st && st->parent; st = st->parent) {
		const struct node *blk = st->parent;
		if (blk->kind != CXCursor_CompoundStmt)
			continue;
		for (unsigned i = 0; i < blk->nkids; i++) {
			const struct node *k = blk->kids[i];
			if (k->off <= st->off)
				continue;
			/* `lv = ...;` as the statement: the value is gone */
			if (k->kind == CXCursor_BinaryOperator && k->op && !strcmp(k->op, "=") && k->nkids == 2) {
				char *l = node_text(t, k->kids[0]);
				bool same = !strcmp(l, lv);
				free(l);
				if (same)
					return false;
			}
			char *c = node_text(t, k);
			bool names = find_token(c, lv) != NULL;
			free(c);
			if (names)
				return true;
		}
	}
	return false;
}

static void find_use(const struct tu *t, struct node *call, struct use *u)
{
	memset(u, 0, sizeof(*u));
	struct node *n = call;
	/* jump over the alloc_hooks() statement expression around the call */
	for (struct node *q = call->parent; q; q = q->parent)
		if (q->kind == CXCursor_StmtExpr && q->line == call->line && q->col == call->col)
			n = q;
	struct node *p = n->parent;
	while (p && is_wrapper_expr(p)) {
		n = p;
		p = p->parent;
	}
	u->top = n;
	if (!p)
		return;
	if (p->kind == CXCursor_ReturnStmt) {
		u->returned = true;
		return;
	}
	if (p->kind == CXCursor_BinaryOperator && p->op && !strcmp(p->op, "=") && p->nkids == 2 && p->kids[1] == n)
		u->lv = node_text(t, p->kids[0]);
	else if (p->kind == CXCursor_VarDecl && p->name)
		u->lv = xstrdup(p->name);
	if (u->lv) {
		u->test = next_test(t, p, u->lv);
		for (struct node *q = p; q && !u->test && q->parent; q = q->parent)
			if (q->parent->kind == CXCursor_DoStmt && q->parent->nkids >= 2 &&
			    q == q->parent->kids[0]) {
				char *c = node_text(t, q->parent->kids[q->parent->nkids - 1]);
				if (find_token(c, u->lv))
					u->loop = q->parent;
				free(c);
				break;
			}
		return;
	}
	/* tested where it is made: if (!f(...)), if (f(...) < 0) */
	for (struct node *q = n; q->parent; q = q->parent) {
		struct node *up = q->parent;
		if (up->kind == CXCursor_IfStmt) {
			if (up->nkids >= 2 && up->kids[0] == q) {
				u->test = up;
				u->lv = node_text(t, n);
			}
			return;
		}
		if (up->kind == CXCursor_CompoundStmt || node_is_loop(up))
			break;
	}
	u->ignored = p->kind == CXCursor_CompoundStmt;
}

static bool is_label(const struct node *n, const void *name)
{
	return n->kind == CXCursor_LabelStmt && n->name && !strcmp(n->name, name);
}

/* The goto in `br` and the label of call's function it jumps to: *g NULL
 * when `br` has no goto, the result NULL when the label is not found. */
static const struct node *goto_target(const struct node *call, const struct node *br, const struct node **g)
{
	*g = find_kind(br, CXCursor_GotoStmt);
	if (!*g || !(*g)->name)
		return *g = NULL, NULL;
	const struct node *root = call;
	while (root->parent)
		root = root->parent;
	return find_first(root, is_label, (*g)->name);
}

/* Does control come back to `call` after `branch`: the call is in a loop
 * around the branch, the branch jumps back to a label before it, or it
 * calls the same function again? */
static bool comes_back(const struct node *call, const struct node *branch)
{
	for (const struct node *p = call->parent; p; p = p->parent)
		if (node_is_loop(p) && node_contains(p, branch))
			return true;
	const struct node *g, *lab = goto_target(call, branch, &g);
	return lab && lab->off < call->off; /* back to before the call, not on to an error label */
}

/* Is n an exit of the branch: a return, a goto on to a label after the
 * call (an error exit; no label found counts too), or a break that is not
 * one of a loop or switch inside the branch (`in_inner`)? */
static bool exits(const struct node *call, const struct node *n, bool in_inner)
{
	if (n->kind == CXCursor_ReturnStmt)
		return true;
	if (n->kind == CXCursor_BreakStmt)
		return !in_inner;
	if (n->kind == CXCursor_GotoStmt) {
		const struct node *g, *lab = goto_target(call, n, &g);
		return g && (!lab || lab->off > call->off);
	}
	return false;
}

/* Does `br` leave instead of coming back after the write m that lowers the
 * argument: an exit on every path through m (a statement of a block on the
 * way from br down to m), not one under a further condition (`if (size ==
 * SMALLEST) break;` before `size--`, vmw_balloon)? */
static bool leaves(const struct node *call, const struct node *br, const struct node *m)
{
	if (exits(call, br, false))
		return true;
	for (const struct node *a = m; a && a != br; a = a->parent) {
		const struct node *p = a->parent;
		if (!p || p->kind != CXCursor_CompoundStmt)
			continue;
		bool in_inner = false;
		for (const struct node *q = p; q && q != br; q = q->parent)
			if (node_is_loop(q) || q->kind == CXCursor_SwitchStmt)
				in_inner = true;
		for (unsigned i = 0; i < p->nkids; i++)
			if (exits(call, p->kids[i], in_inner))
				return true;
	}
	return false;
}

static bool names_fallback(const struct node *n)
{
	if (n->name && strstr(n->name, "FALLBACK"))
		return true;
	for (unsigned i = 0; i < n->nkids; i++)
		if (names_fallback(n->kids[i]))
			return true;
	return false;
}

/* Does the failure branch `fail` leave by `return *_FALLBACK;` (THP: the
 * fault is retried with base pages), itself or after a goto to a label of
 * the function (the first return from the label on: `goto fallback;` ...
 * `fallback: ...; return VM_FAULT_FALLBACK;`, fs/dax.c)?  The return. */
static const struct node *thp_fallback_return(const struct node *call, const struct node *fail)
{
	const struct node *r = find_kind(fail, CXCursor_ReturnStmt), *g = NULL;
	const struct node *lab = goto_target(call, fail, &g);
	if (g && (!r || g->off < r->off)) {
		r = NULL;
		/* the label's statement and the ones after it in its block */
		const struct node *blk = lab ? lab->parent : NULL;
		if (!lab || lab->off < call->off || !blk || blk->kind != CXCursor_CompoundStmt)
			return NULL;
		for (unsigned i = 0; i < blk->nkids && !r; i++) {
			const struct node *k = blk->kids[i];
			if (k->off < lab->off)
				continue;
			while (k->kind == CXCursor_LabelStmt && k->nkids)
				k = k->kids[0];
			if (k->kind == CXCursor_ReturnStmt)
				r = k;
			else if (find_kind(k, CXCursor_ReturnStmt) || find_kind(k, CXCursor_GotoStmt) ||
				 is_exit_stmt(k))
				return NULL; /* another exit on the way: cannot tell */
		}
	}
	return r && r->nkids && names_fallback(r->kids[0]) ? r : NULL;
}

static enum caller_handling classify(const struct tu *t, const struct node *call, CXCursor callee,
				     const struct alloc_table *tab, unsigned *line)
{
	struct use u;
	find_use(t, (struct node *)call, &u);
	*line = call->line;
	enum caller_handling h = CALLER_PROPAGATES;
	int vars[8], nv = 0;
	for (unsigned i = 0; i < node_nargs(call); i++)
		node_vars(node_arg(call, i), true, vars, &nv, 8);
	if (u.loop && nv) {
		/* do { p = f(order); } while (!p && order-- > min); */
		const struct node *m = lowers_one_of(u.loop->kids[u.loop->nkids - 1], vars, nv);
		if (m) {
			*line = m->line;
			h = CALLER_SMALLER;
		}
	}
	if (h == CALLER_PROPAGATES && u.test) {
		enum ret_type rt = result_type(callee);
		char *cond = node_text(t, u.test->kids[0]);
		int fw = failure_when_true(cond, u.lv, rt);
		free(cond);
		const struct node *then_b = u.test->kids[1];
		const struct node *else_b = u.test->nkids >= 3 ? u.test->kids[2] : NULL;
		const struct node *fail = fw == 1 ? then_b : fw == 0 ? else_b : NULL;
		/* retry smaller: a branch lowers an argument and comes back, or calls again */
		for (int b = 0; b < 2 && h == CALLER_PROPAGATES; b++) {
			const struct node *br = b ? else_b : then_b;
			if (!br || (fail && br != fail))
				continue;
			const struct node *m = nv ? lowers_one_of(br, vars, nv) : NULL;
			if (m && comes_back(call, br) && !leaves(call, br, m)) {
				*line = m->line;
				h = CALLER_SMALLER;
			} else if ((m = find_call(br, call->name, call)) != NULL) {
				*line = m->line;
				h = CALLER_SMALLER;
			}
		}
		if (h == CALLER_PROPAGATES && fail) {
			const struct node *m = thp_fallback_return(call, fail);
			if (m) {
				*line = m->line;
				h = CALLER_SMALLER;
			}
		}
		if (h == CALLER_PROPAGATES && fail) {
			const struct node *m = find_alloc_call(fail, tab);
			if (!m)
				m = reassigns_from_call(t, fail, u.lv);
			if (m) {
				*line = m->line;
				h = CALLER_OTHER_PATH;
			} else if (fail == then_b && !hands_error_on(t, fail) && !read_later(t, u.test, u.lv)) {
				*line = fail->line ? fail->line : u.test->line;
				h = CALLER_FEATURE_OFF;
			}
		}
	}
	free(u.lv);
	return h;
}

/* ---- publishing ---- */

struct pub {
	const struct tu *t;
	const char *file;
	const struct alloc_table *tab;
	struct file_result *out;
	/* callers_key(G) -> GPtrArray of callers_key(F): a static G of this
	 * file returns F's failure to its callers, who are all here; NULL
	 * while those edges are being found */
	GHashTable *fwd;
	bool finding;
};

static CXCursor callee_of(const struct node *call)
{
	CXCursor ref = clang_getCursorReferenced(call->cur);
	return clang_getCursorKind(ref) == CXCursor_FunctionDecl ? ref : clang_getNullCursor();
}

/* What G's callers do with its failure is what they do with F's, for each
 * F whose failure G hands back (a few levels, no cycle). */
static void add_key(struct pub *pb, const char *key, enum caller_handling h, unsigned line, int depth)
{
	file_result_add_fact(pb->out, key, iv_const(h), SRCB(CONST), (int)line);
	GPtrArray *fs = pb->fwd ? g_hash_table_lookup(pb->fwd, key) : NULL;
	for (guint i = 0; fs && depth < 4 && i < fs->len; i++)
		if (strcmp(g_ptr_array_index(fs, i), key))
			add_key(pb, g_ptr_array_index(fs, i), h, line, depth + 1);
}

static void add(struct pub *pb, CXCursor fn, enum caller_handling h, unsigned line)
{
	if (pb->finding)
		return;
	char *key = callers_key(fn, pb->file);
	if (key)
		add_key(pb, key, h, line, 0);
	free(key);
}

enum fwd_kind { FWD_NONE, FWD_STATIC, FWD_EXPORTED };

/* Does `g` hand the failure of `call` (of fn, which it does not cope with)
 * back to its own callers, in a way the reader of fn's key follows?
 * FWD_STATIC: g is static, its callers are all in this file and their
 * handling is published for fn too.  FWD_EXPORTED: g is not static but fn
 * is, so fn's one reader, a site of this file, consults fails:g itself
 * (callers_cope): g's callers may be in any file. */
static enum fwd_kind forward_kind(const struct tu *t, const struct node *call, CXCursor fn, CXCursor g)
{
	if (clang_Cursor_isNull(g) || !callers_failure_returns(t, call, NULL))
		return FWD_NONE;
	if (clang_Cursor_getStorageClass(g) == CX_SC_Static)
		return FWD_STATIC;
	return clang_Cursor_getStorageClass(fn) == CX_SC_Static ? FWD_EXPORTED : FWD_NONE;
}

/* `f(x);` of a function returning a pointer: the caller takes nothing
 * from the call (a reference taken, mm/huge_memory.c's copy_huge_pmd()
 * on mm_get_huge_zero_folio()), it neither copes with a failure nor hands
 * it on: no observation. */
static bool discards_pointer(const struct tu *t, const struct node *call, CXCursor fn)
{
	if (result_type(fn) != RT_POINTER)
		return false;
	struct use u;
	find_use(t, (struct node *)call, &u);
	free(u.lv);
	return u.ignored;
}

/* A call of F in `g` whose failure g returns (forward_kind), g static
 * here: an edge g -> F (found in a first walk); its own "hands it on" is
 * then not published, g's callers' handling is.  g exported, F static:
 * nothing is published, F's reader follows g's own key. */
static bool forwards(struct pub *pb, const struct node *call, CXCursor fn, CXCursor g)
{
	enum fwd_kind k = forward_kind(pb->t, call, fn, g);
	if (k == FWD_NONE)
		return false;
	if (!pb->finding || k == FWD_EXPORTED)
		return true;
	char *gk = callers_key(g, pb->file), *fk = callers_key(fn, pb->file);
	if (gk && fk) {
		GPtrArray *fs = g_hash_table_lookup(pb->fwd, gk);
		if (!fs) {
			fs = g_ptr_array_new_with_free_func(free);
			g_hash_table_insert(pb->fwd, xstrdup(gk), fs);
		}
		g_ptr_array_add(fs, fk);
		fk = NULL;
	}
	free(gk);
	free(fk);
	return true;
}

static void walk(struct pub *pb, const struct node *n, CXCursor g)
{
	if (n->kind == CXCursor_CallExpr && n->name && n->line && !alloc_table_find(pb->tab, n->name)) {
		CXCursor fn = callee_of(n);
		if (!clang_Cursor_isNull(fn)) {
			unsigned line;
			enum caller_handling h = classify(pb->t, n, fn, pb->tab, &line);
			if (h != CALLER_PROPAGATES || (!forwards(pb, n, fn, g) && !discards_pointer(pb->t, n, fn)))
				add(pb, fn, h, line);
		}
	} else if (n->kind == CXCursor_DeclRefExpr && n->var < 0 && n->line) {
		/* a function's address taken: callers the tree does not show */
		CXCursor ref = clang_getCursorReferenced(n->cur);
		const struct node *p = n->parent, *c = n;
		while (p && (p->kind == CXCursor_UnexposedExpr || p->kind == CXCursor_ParenExpr)) {
			c = p;
			p = p->parent;
		}
		if (clang_getCursorKind(ref) == CXCursor_FunctionDecl &&
		    !(p && p->kind == CXCursor_CallExpr && p->nkids && p->kids[0] == c))
			add(pb, ref, CALLER_PROPAGATES, n->line);
	}
	for (unsigned i = 0; i < n->nkids; i++)
		walk(pb, n->kids[i], g);
}

void callers_publish(const struct tu *t, struct fn_model *const *f, size_t n, const char *file,
		     const struct alloc_table *tab, struct file_result *out)
{
	struct pub pb = { t, file, tab, out,
			  g_hash_table_new_full(g_str_hash, g_str_equal, free, (GDestroyNotify)g_ptr_array_unref), true };
	for (int pass = 0; pass < 2; pass++) {
		pb.finding = pass == 0;
		for (size_t i = 0; i < n; i++)
			if (f[i] && f[i]->body && f[i]->in_main)
				walk(&pb, f[i]->body, f[i]->cur);
	}
	g_hash_table_destroy(pb.fwd);
}

/* ---- at the site ---- */

/* A break in `br` that stops the loop around it (not one of a loop or
 * switch inside `br`), and the loop it stops. */
static const struct node *breaks_loop(const struct node *br, const struct node *n)
{
	if (n != br && (node_is_loop(n) || n->kind == CXCursor_SwitchStmt))
		return NULL;
	if (n->kind == CXCursor_BreakStmt) {
		for (const struct node *p = br->parent; p; p = p->parent)
			if (node_is_loop(p))
				return p;
			else if (p->kind == CXCursor_SwitchStmt)
				return NULL;
		return NULL;
	}
	for (unsigned i = 0; i < n->nkids; i++) {
		const struct node *l = breaks_loop(br, n->kids[i]);
		if (l)
			return l;
	}
	return NULL;
}

static bool is_return(const struct node *n, const void *after)
{
	return n->kind == CXCursor_ReturnStmt && n->off > ((const struct node *)after)->off;
}

/* After `loop`, does the function return something else than a constant
 * 0 (`return i == want ? 0 : -ENOMEM;`): a break out of the loop on the
 * failure reaches the callers? */
static bool returns_after(const struct tu *t, const struct node *loop)
{
	const struct node *root = loop;
	while (root->parent)
		root = root->parent;
	const struct node *after = loop;
	for (;;) {
		const struct node *r = find_first(root, is_return, after);
		if (!r)
			return false;
		if (r->nkids) {
			char *v = node_text(t, r->kids[0]);
			bool zero = !strcmp(v, "0") || !strcmp(v, "true") || !strcmp(v, "false");
			free(v);
			if (!zero)
				return true;
		}
		after = r;
	}
}

/* The failure path of `if (p) { ...; continue; }` without an else: the
 * statements after the if, when the success branch leaves the block. */
static const struct node *falls_to(const struct node *test)
{
	const struct node *then_b = test->kids[1];
	const struct node *last = then_b->kind == CXCursor_CompoundStmt && then_b->nkids
					  ? then_b->kids[then_b->nkids - 1] : then_b;
	if (!last || !(is_exit_stmt(last) && last->kind != CXCursor_GotoStmt) || !test->parent ||
	    test->parent->kind != CXCursor_CompoundStmt)
		return NULL;
	return test->parent;
}

bool callers_failure_returns(const struct tu *t, const struct node *call, const char *lv)
{
	struct use u;
	find_use(t, (struct node *)call, &u);
	bool r = u.returned;
	if (!r && u.test) {
		/* an int-returning wrapper fails with an error code (`if (err) break;`) */
		CXCursor callee = callee_of(call);
		enum ret_type rt = clang_Cursor_isNull(callee) ? RT_POINTER : result_type(callee);
		char *cond = node_text(t, u.test->kids[0]);
		int fw = failure_when_true(cond, u.lv, rt == RT_SIGNED ? RT_SIGNED : RT_POINTER);
		free(cond);
		const struct node *fail = fw == 1 ? u.test->kids[1] : fw == 0 && u.test->nkids >= 3 ? u.test->kids[2] : NULL;
		r = fail && (find_kind(fail, CXCursor_ReturnStmt) || find_kind(fail, CXCursor_GotoStmt));
		const struct node *loop;
		/* `if (!page) break;` out of the loop, then `return n == want ? 0 : -ENOMEM;` */
		if (!r && fail && (loop = breaks_loop(fail, fail)) != NULL)
			r = returns_after(t, loop);
		/* `if (page) { ...; continue; }` then `break;` (vmw_balloon) */
		const struct node *blk;
		if (!r && fw == 0 && u.test->nkids < 3 && (blk = falls_to(u.test)) != NULL) {
			for (unsigned i = 0; i < blk->nkids && !r; i++) {
				const struct node *k = blk->kids[i];
				if (k->off <= u.test->off || !is_exit_stmt(k) || k->kind == CXCursor_ContinueStmt)
					continue;
				if (k->kind != CXCursor_BreakStmt)
					r = true;
				else if ((loop = breaks_loop(k, k)) != NULL)
					r = returns_after(t, loop);
				break;
			}
		}
	}
	(void)lv;
	free(u.lv);
	return r;
}

/* Does a store of an errno (`= -ENOMEM`) happen in n?  A void function
 * that records its failure so (`host->err = -ENOMEM; return;`) still hands
 * it on. */
static bool stores_errno(const struct tu *t, const struct node *n)
{
	char *txt = node_text(t, n);
	bool r = false;
	for (const char *p = strstr(txt, "-E"); p && !r; p = strstr(p + 2, "-E"))
		r = isupper((unsigned char)p[2]);
	free(txt);
	return r;
}

int callers_failure_ends_void(const struct tu *t, const struct node *call, CXCursor fn)
{
	if (clang_Cursor_isNull(fn) ||
	    clang_getCanonicalType(clang_getCursorResultType(fn)).kind != CXType_Void)
		return 0;
	struct use u;
	find_use(t, (struct node *)call, &u);
	int line = 0;
	if (u.test && !u.returned) {
		char *cond = node_text(t, u.test->kids[0]);
		int fw = failure_when_true(cond, u.lv, RT_POINTER);
		free(cond);
		const struct node *fail = fw == 1 ? u.test->kids[1] : fw == 0 && u.test->nkids >= 3 ? u.test->kids[2] : NULL;
		const struct node *exit = fail ? find_kind(fail, CXCursor_ReturnStmt) : NULL;
		if (fail && !exit)
			exit = find_kind(fail, CXCursor_GotoStmt);
		if (exit && !stores_errno(t, fail))
			line = (int)exit->line;
	}
	free(u.lv);
	return line;
}

/* Does the answer v (NULL: none) say that every caller copes?  The one
 * test of callers_cope() and of its view (callers_fact_text). */
static bool copes(const struct fact_value *v)
{
	return v && v->iv.known && v->iv.lo >= CALLER_FEATURE_OFF && v->has_cmax && v->cmax_where &&
	       strrchr(v->cmax_where, ':');
}

/* The non-static functions of the file that hand the failure of the
 * function keyed `key` back to their callers (forward_kind FWD_EXPORTED),
 * directly or through static functions that do (FWD_STATIC), a few levels:
 * their keys are added to `gs`. */
struct fwd_find {
	const struct tu *t;
	struct fn_model *const *f;
	size_t n;
	const char *file;
	const struct alloc_table *tab;
	GPtrArray *gs;
};

static void exported_forwarders(struct fwd_find *ff, const char *key, int depth);

static void find_calls(struct fwd_find *ff, const struct node *nd, const char *key, CXCursor g, int depth)
{
	/* the name first: the key's last part (callers_key) */
	if (nd->kind == CXCursor_CallExpr && nd->name && nd->line && !strcmp(nd->name, strrchr(key, ':') + 1)) {
		CXCursor fn = callee_of(nd);
		char *fk = clang_Cursor_isNull(fn) ? NULL : callers_key(fn, ff->file);
		if (fk && !strcmp(fk, key)) {
			unsigned line;
			enum fwd_kind k = classify(ff->t, nd, fn, ff->tab, &line) == CALLER_PROPAGATES
						  ? forward_kind(ff->t, nd, fn, g) : FWD_NONE;
			char *gk = k == FWD_NONE ? NULL : callers_key(g, ff->file);
			bool seen = false;
			for (guint i = 0; gk && i < ff->gs->len; i++)
				seen |= !strcmp(g_ptr_array_index(ff->gs, i), gk);
			if (gk && strcmp(gk, key) && !seen) {
				if (k == FWD_EXPORTED) {
					g_ptr_array_add(ff->gs, gk);
					gk = NULL;
				} else if (depth < 4) {
					exported_forwarders(ff, gk, depth + 1);
				}
			}
			free(gk);
		}
		free(fk);
	}
	for (unsigned i = 0; i < nd->nkids; i++)
		find_calls(ff, nd->kids[i], key, g, depth);
}

static void exported_forwarders(struct fwd_find *ff, const char *key, int depth)
{
	for (size_t i = 0; i < ff->n; i++)
		if (ff->f[i] && ff->f[i]->body && ff->f[i]->in_main)
			find_calls(ff, ff->f[i]->body, key, ff->f[i]->cur, depth);
}

bool callers_cope(const struct factbase *fb, const struct tu *t, struct fn_model *const *f, size_t n,
		  const struct alloc_table *tab, CXCursor fn, const char *file, struct caller_fallback *out)
{
	char *key = callers_key(fn, file);
	if (!key)
		return false;
	/* fn's own key, then those of the exported functions that hand its
	 * failure on (only for a static fn: its callers are all here) */
	GPtrArray *keys = g_ptr_array_new_with_free_func(free);
	g_ptr_array_add(keys, key);
	if (t && f && clang_Cursor_getStorageClass(fn) == CX_SC_Static) {
		struct fwd_find ff = { t, f, n, file, tab, keys };
		exported_forwarders(&ff, key, 0);
	}
	bool any = false, bad = false;
	struct fact_value best = { 0 };
	const char *via = NULL;
	unsigned nobs = 0;
	for (guint i = 0; i < keys->len && !bad; i++) {
		struct fact_value v;
		if (!factbase_get(fb, g_ptr_array_index(keys, i), &v)) {
			bad = i > 0; /* a forwarder nobody calls: the tree shows no caller of it */
			continue;
		}
		if (!copes(&v)) {
			bad = true;
			break;
		}
		nobs += v.nobs;
		if (!any || v.cmax > best.cmax) {
			best = v;
			via = i ? g_ptr_array_index(keys, i) : NULL;
		}
		any = true;
	}
	bool r = any && !bad;
	if (r) {
		const char *colon = strrchr(best.cmax_where, ':');
		out->how = (enum caller_handling)(best.cmax > CALLER_SMALLER ? CALLER_SMALLER : best.cmax);
		out->file = xstrndup(best.cmax_where, (size_t)(colon - best.cmax_where));
		out->line = atoi(colon + 1);
		out->ncallers = nobs;
		/* "fails:G" -> "G" (exported keys name no file) */
		out->via = via ? xstrdup(via + 6) : NULL;
	}
	g_ptr_array_unref(keys);
	return r;
}

/* callers_cope()'s view (facts.h): no fallback when a caller propagates
 * (most functions: one `return -ENOMEM` caller is enough), whatever the
 * other callers do and where they are; else the best caller, its place
 * and the number of calls, which the site's note names. */
char *callers_fact_text(const struct fact_value *v)
{
	if (!copes(v))
		return xstrdup(v ? "none" : "-"); /* a forwarder's reader tells them apart */
	return xasprintf("copes %lld %s %u", (long long)v->cmax, v->cmax_where, v->nobs);
}
