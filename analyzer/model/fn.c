/* Build the function model (see fn.h) from libclang cursors. */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "gfpaudit/fn.h"
#include "gfpaudit/strbuf.h"

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	char data[];
};

struct arena {
	struct arena_block *head;
};

void *arena_alloc(struct arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (!a->head || a->head->used + n > a->head->size) {
		size_t sz = n > 65536 ? n : 65536;
		struct arena_block *b = xmalloc(sizeof(*b) + sz);
		b->next = a->head;
		b->used = 0;
		b->size = sz;
		a->head = b;
	}
	void *p = a->head->data + a->head->used;
	a->head->used += n;
	memset(p, 0, n);
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = arena_alloc(a, n);
	memcpy(p, s, n);
	return p;
}

static void arena_free(struct arena *a)
{
	while (a && a->head) {
		struct arena_block *n = a->head->next;
		free(a->head);
		a->head = n;
	}
	free(a);
}

struct build {
	struct fn_model *f;
	struct node *parent;
	struct node **tmp;   /* children collected for the current parent */
	unsigned ntmp;
	size_t tmp_alloc;
};

static int type_bits(CXType t, bool *is_signed)
{
	t = clang_getCanonicalType(t);
	*is_signed = false;
	switch (t.kind) {
	case CXType_Bool: return 1;
	case CXType_Char_U: case CXType_UChar: return 8;
	case CXType_Char_S: case CXType_SChar: *is_signed = true; return 8;
	case CXType_UShort: return 16;
	case CXType_Short: *is_signed = true; return 16;
	case CXType_UInt: return 32;
	case CXType_Int: *is_signed = true; return 32;
	case CXType_ULong: case CXType_ULongLong: return 64;
	case CXType_Long: case CXType_LongLong: *is_signed = true; return 64;
	case CXType_Enum: *is_signed = true; return 32;
	default: return 0;
	}
}

static bool type_is_gfp(CXType t)
{
	CXString s = clang_getTypeSpelling(t);
	const char *n = clang_getCString(s);
	bool r = n && strstr(n, "gfp_t") != NULL;
	clang_disposeString(s);
	return r;
}

/* Is a parameter declared with __user (the annotation is empty outside
 * sparse, so read its tokens)? */
static bool spelled_user(const struct tu *t, CXCursor decl)
{
	CXToken *toks = NULL;
	unsigned nt = 0;
	clang_tokenize(t->tu, clang_getCursorExtent(decl), &toks, &nt);
	bool r = false;
	for (unsigned i = 0; i < nt && !r; i++) {
		if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
			continue;
		CXString s = clang_getTokenSpelling(t->tu, toks[i]);
		r = !strcmp(clang_getCString(s), "__user");
		clang_disposeString(s);
	}
	clang_disposeTokens(t->tu, toks, nt);
	return r;
}

static int var_of(struct fn_model *f, CXCursor decl, bool create, int param)
{
	for (int i = 0; i < f->nvars; i++)
		if (clang_equalCursors(f->vars[i].decl, decl))
			return i;
	if (!create)
		return -1;
	if (f->nvars >= f->vars_alloc) {
		f->vars_alloc = f->vars_alloc ? f->vars_alloc * 2 : 16;
		f->vars = xrealloc(f->vars, (size_t)f->vars_alloc * sizeof(*f->vars));
	}
	struct fn_var *v = &f->vars[f->nvars];
	memset(v, 0, sizeof(*v));
	CXString s = clang_getCursorSpelling(decl);
	v->name = arena_strdup(f->arena, clang_getCString(s) ? clang_getCString(s) : "");
	clang_disposeString(s);
	v->decl = decl;
	v->field = clang_getNullCursor();
	v->param = param;
	CXType ty = clang_getCursorType(decl);
	v->bits = type_bits(ty, &v->is_signed);
	v->is_gfp = type_is_gfp(ty);
	if (param >= 0 && ty.kind == CXType_Pointer && f->in_main)
		v->user_ptr = spelled_user(f->tu, decl);
	return f->nvars++;
}

static bool is_local_decl(struct fn_model *f, CXCursor decl)
{
	enum CXCursorKind k = clang_getCursorKind(decl);
	if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
		return false;
	CXCursor sp = clang_getCursorSemanticParent(decl);
	return clang_equalCursors(sp, f->cur);
}

static struct node *make_node(struct fn_model *f, CXCursor c, struct node *parent);

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data)
{
	struct build *b = data;
	(void)parent;
	ALLOC_GROW(b->tmp, b->ntmp + 1, b->tmp_alloc);
	b->tmp[b->ntmp++] = make_node(b->f, c, b->parent);
	return CXChildVisit_Continue;
}

static const char *spelling(struct fn_model *f, CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	const char *n = clang_getCString(s);
	const char *r = (n && *n) ? arena_strdup(f->arena, n) : NULL;
	clang_disposeString(s);
	return r;
}

/* Is the type an integer (or enum, bool) one: a cast to it of an integer
 * constant is an integer constant. */
static bool int_type(CXType t)
{
	bool sgn;
	t = clang_getCanonicalType(t);
	return type_bits(t, &sgn) > 0;
}

/* An integer constant spelled with literals and operators alone (no name,
 * no call, no sizeof of an expression; sizeof(type) is one): the register
 * masks of GENMASK(), FIELD_PREP() and BIT() expand to thousands of such
 * nodes per line.  eval() folds a pure expression in one evaluation of its
 * cursor and nothing reads inside one, so make_node() keeps its top as a
 * leaf (kind IntegerLiteral, its own cursor): rt2800lib.c's models went
 * from 1.56 M nodes to about 0.6 M.  The kids are looked at before the
 * type (implicit casts are everywhere; their types are not needed unless
 * the kids are constants). */
static bool int_literal_tree(const struct node *n, CXCursor c)
{
	bool typed = false; /* a cast or sizeof: its type must be an integer */
	switch (n->kind) {
	case CXCursor_ParenExpr:
	case CXCursor_ConditionalOperator:
		break;
	case CXCursor_BinaryOperator:
		if (!n->op || !strcmp(n->op, "=") || !strcmp(n->op, ","))
			return false;
		break;
	case CXCursor_UnaryOperator:
		if (!n->op || (strcmp(n->op, "-") && strcmp(n->op, "+") && strcmp(n->op, "~") && strcmp(n->op, "!")))
			return false;
		break;
	case CXCursor_UnexposedExpr: /* an implicit cast: one kid (__builtin_choose_expr has three) */
		if (n->nkids != 1)
			return false;
		typed = true;
		break;
	case CXCursor_CStyleCastExpr:
	case CXCursor_UnaryExpr: /* sizeof(type), alignof(type): layout */
		typed = true;
		break;
	default:
		return false;
	}
	if (!n->nkids)
		return false;
	for (unsigned i = 0; i < n->nkids; i++) {
		const struct node *k = n->kids[i];
		if (k->kind == CXCursor_TypeRef && (n->kind == CXCursor_CStyleCastExpr || n->kind == CXCursor_UnaryExpr))
			continue;
		/* BUILD_BUG_ON_ZERO(e): sizeof(struct { int:(-!!(e)); }) */
		if ((k->kind == CXCursor_StructDecl || k->kind == CXCursor_UnionDecl) && n->kind == CXCursor_UnaryExpr)
			continue;
		if (n->kind == CXCursor_UnaryExpr)
			return false; /* sizeof(expr): the expression may name a local */
		if (k->kind != CXCursor_IntegerLiteral && k->kind != CXCursor_CharacterLiteral &&
		    !(k->kind == CXCursor_UnaryExpr && !k->nkids))
			return false;
	}
	return !typed || int_type(clang_getCursorType(c));
}

/* Give back what the arena handed out since `head`/`used` (arena_alloc). */
static void arena_rewind(struct arena *a, struct arena_block *head, size_t used)
{
	while (a->head && a->head != head) {
		struct arena_block *n = a->head->next;
		free(a->head);
		a->head = n;
	}
	if (a->head)
		a->head->used = used;
}

static struct node *make_node(struct fn_model *f, CXCursor c, struct node *parent)
{
	struct node *n = arena_alloc(f->arena, sizeof(*n));
	struct arena_block *mark = f->arena->head;
	size_t mark_used = mark->used;
	n->kind = clang_getCursorKind(c);
	n->cur = c;
	n->parent = parent;
	n->var = -1;
	n->id = f->nnodes++;
	tu_main_loc(f->tu, c, &n->line, &n->col, &n->off);
	switch (n->kind) {
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
		n->op = tu_operator(f->tu, c, NULL);
		break;
	case CXCursor_UnaryOperator:
		n->op = tu_operator(f->tu, c, &n->postfix);
		break;
	case CXCursor_VarDecl:
	case CXCursor_ParmDecl:
		n->name = spelling(f, c);
		n->var = var_of(f, c, true, -1);
		break;
	case CXCursor_DeclRefExpr: {
		n->name = spelling(f, c);
		CXCursor ref = clang_getCursorReferenced(c);
		if (!clang_Cursor_isNull(ref) && is_local_decl(f, ref))
			n->var = var_of(f, ref, true, -1);
		break;
	}
	case CXCursor_MemberRefExpr:
		n->name = spelling(f, c);
		break;
	case CXCursor_CallExpr: {
		CXCursor ref = clang_getCursorReferenced(c);
		if (!clang_Cursor_isNull(ref) && clang_getCursorKind(ref) == CXCursor_FunctionDecl)
			n->name = spelling(f, ref);
		break;
	}
	case CXCursor_LabelStmt:
	case CXCursor_GotoStmt:
	case CXCursor_LabelRef:
		n->name = spelling(f, c);
		break;
	default:
		break;
	}
	struct build b = { .f = f, .parent = n };
	clang_visitChildren(c, collect, &b);
	if (b.ntmp) {
		n->kids = arena_alloc(f->arena, b.ntmp * sizeof(*n->kids));
		memcpy(n->kids, b.tmp, b.ntmp * sizeof(*n->kids));
		n->nkids = b.ntmp;
	}
	free(b.tmp);
	if (int_literal_tree(n, c)) {
		/* its kids were leaves already (each collapsed in turn); the
		 * preorder numbers stay as they were (f->nnodes counts them) */
		arena_rewind(f->arena, mark, mark_used);
		n->kind = CXCursor_IntegerLiteral;
		n->op = NULL;
		n->kids = NULL;
		n->nkids = 0;
	}
	n->pure = clang_isExpression(n->kind) && n->var < 0 &&
		  (n->kind != CXCursor_CallExpr || (n->name && !strncmp(n->name, "__builtin_", 10))) &&
		  n->kind != CXCursor_MemberRefExpr && n->kind != CXCursor_ArraySubscriptExpr &&
		  n->kind != CXCursor_StmtExpr && n->kind != CXCursor_CompoundAssignOperator &&
		  !(n->op && (!strcmp(n->op, "=") || !strcmp(n->op, "++") || !strcmp(n->op, "--")));
	for (unsigned i = 0; i < n->nkids && n->pure; i++)
		if (!n->kids[i]->pure && clang_isExpression(n->kids[i]->kind))
			n->pure = false;
	if (n->kind == CXCursor_GotoStmt && n->nkids && n->kids[0]->name)
		n->name = n->kids[0]->name;
	return n;
}

/* The key of a field path rooted at a parameter, built from the AST
 * ("t->cnt", "t->a.b"): a header's helper has no text here.  NULL when
 * the path goes through anything but fields of a parameter. */
static char *param_member_key(const struct fn_model *f, struct node *n)
{
	if (!n || n->kind != CXCursor_MemberRefExpr || !n->name || n->nkids < 1)
		return NULL;
	struct node *base = node_strip(n->kids[0]);
	char *pre = NULL;
	if (base && base->kind == CXCursor_MemberRefExpr) {
		pre = param_member_key(f, base);
	} else if (base && base->kind == CXCursor_DeclRefExpr && base->var >= 0 && base->var < f->nvars &&
		   f->vars[base->var].param >= 0 && base->name) {
		pre = xstrdup(base->name);
	}
	if (!pre)
		return NULL;
	CXType bt = clang_getCanonicalType(clang_getCursorType(n->kids[0]->cur));
	char *key = xasprintf("%s%s%s", pre, bt.kind == CXType_Pointer ? "->" : ".", n->name);
	free(pre);
	return key;
}

static struct node *strip_implicit(struct node *n)
{
	while (n && (n->kind == CXCursor_ParenExpr || n->kind == CXCursor_UnexposedExpr) && n->nkids >= 1)
		n = n->kids[n->nkids - 1];
	return n;
}

/* A constant subscript: a literal or an enumerator (however a macro
 * spells it), as its value. */
static bool const_subscript(struct node *i, long long *v)
{
	i = strip_implicit(i);
	if (!i)
		return false;
	if (i->kind == CXCursor_DeclRefExpr &&
	    clang_getCursorKind(clang_getCursorReferenced(i->cur)) != CXCursor_EnumConstantDecl)
		return false;
	if (i->kind != CXCursor_IntegerLiteral && i->kind != CXCursor_DeclRefExpr)
		return false;
	return tu_eval_int(i->cur, v);
}

/* A field path as the AST has it, spelled as code writes it: "t->a.b",
 * "tables[3].size" (a constant subscript by its value).  False when the
 * path holds anything but a named root, fields and constant subscripts. */
static bool path_key(struct node *n, struct strbuf *sb)
{
	long long v;
	struct node *s = strip_implicit(n);
	if (!s)
		return false;
	switch (s->kind) {
	case CXCursor_DeclRefExpr:
		if (!s->name)
			return false;
		strbuf_adds(sb, s->name);
		return true;
	case CXCursor_MemberRefExpr: {
		if (!s->name || s->nkids < 1 || !path_key(s->kids[0], sb))
			return false;
		CXType bt = clang_getCanonicalType(clang_getCursorType(s->kids[0]->cur));
		strbuf_addf(sb, "%s%s", bt.kind == CXType_Pointer ? "->" : ".", s->name);
		return true;
	}
	case CXCursor_ArraySubscriptExpr:
		if (s->nkids != 2 || !path_key(s->kids[0], sb) || !const_subscript(s->kids[1], &v))
			return false;
		strbuf_addf(sb, "[%lld]", v);
		return true;
	default:
		return false;
	}
}

static bool has_subscript(const struct node *n)
{
	for (; n && n->nkids >= 1; n = n->kids[0])
		if (n->kind == CXCursor_ArraySubscriptExpr)
			return true;
	return false;
}

/* Is member expression `n` spelled by a macro's body rather than written
 * at its place (SET(t, id, s) storing t[id].size)?  Its name is not the
 * word at its expansion location. */
static bool member_in_macro(const struct fn_model *f, const struct node *n)
{
	char *w = tu_expansion_name(f->tu, n->cur);
	bool r = !w || !n->name || strcmp(w, n->name);
	free(w);
	return r;
}

char *fn_path_text(const struct fn_model *f, struct node *n)
{
	struct strbuf sb = STRBUF_INIT;
	bool macro = n->kind == CXCursor_MemberRefExpr && member_in_macro(f, n);
	if ((macro || has_subscript(n)) && path_key(n, &sb))
		return strbuf_detach(&sb);
	strbuf_release(&sb);
	char *t = node_text(f->tu, n);
	size_t tl = strlen(t), nl = n->name ? strlen(n->name) : 0;
	if (macro && (!nl || tl < nl || strcmp(t + tl - nl, n->name))) {
		/* the text is the macro's invocation, not this path */
		free(t);
		return NULL;
	}
	return t;
}

/* Field paths written in the function (rq->order, p.len) become pseudo
 * variables, keyed by their text: a value stored there and read back
 * before any call keeps its bounds.  In a header's helper (no text), the
 * paths rooted at a parameter, keyed by param_member_key(): what the
 * helper stores there reaches its caller (eval.c, callee_stores). */
static void track_members(struct fn_model *f, struct node *n)
{
	for (unsigned i = 0; i < n->nkids; i++)
		track_members(f, n->kids[i]);
	if (n->kind != CXCursor_MemberRefExpr)
		return;
	char *key;
	if (n->line) {
		unsigned b, e;
		if (!tu_main_range(f->tu, n->cur, &b, &e) || e <= b || e - b > 120)
			if (!member_in_macro(f, n))
				return;
		if (!(key = fn_path_text(f, n)))
			return;
	} else if (f->in_main || !(key = param_member_key(f, n))) {
		return;
	}
	for (int i = f->nparams; i < f->nvars; i++)
		if (f->vars[i].is_member && !strcmp(f->vars[i].key, key)) {
			n->var = i;
			free(key);
			return;
		}
	if (f->nvars >= f->vars_alloc) {
		f->vars_alloc = f->vars_alloc ? f->vars_alloc * 2 : 16;
		f->vars = xrealloc(f->vars, (size_t)f->vars_alloc * sizeof(*f->vars));
	}
	struct fn_var *v = &f->vars[f->nvars];
	memset(v, 0, sizeof(*v));
	v->name = v->key = arena_strdup(f->arena, key);
	free(key);
	v->decl = clang_getNullCursor();
	v->param = -1;
	v->is_member = true;
	CXType ty = clang_getCursorType(n->cur);
	v->bits = type_bits(ty, &v->is_signed);
	v->is_gfp = type_is_gfp(ty);
	CXCursor fld = clang_getCursorReferenced(n->cur);
	v->field = clang_getCursorKind(fld) == CXCursor_FieldDecl ? fld : clang_getNullCursor();
	int w = clang_Cursor_isNull(fld) ? -1 : clang_getFieldDeclBitWidth(fld);
	if (w > 0 && w < v->bits)
		v->bits = w;
	n->var = f->nvars++;
}

static int kept(const struct node *n)
{
	int k = 1;
	for (unsigned i = 0; i < n->nkids; i++)
		k += kept(n->kids[i]);
	return k;
}

int fn_kept_nodes(const struct fn_model *f)
{
	return f && f->root ? kept(f->root) : 0;
}

struct fn_model *fn_build(const struct tu *t, CXCursor fnc)
{
	if (!clang_isCursorDefinition(fnc))
		return NULL;
	struct fn_model *f = xcalloc(1, sizeof(*f));
	f->arena = xcalloc(1, sizeof(*f->arena));
	f->tu = t;
	f->cur = fnc;
	f->name = spelling(f, fnc);
	unsigned line;
	f->in_main = tu_main_loc(t, fnc, &line, NULL, NULL);
	int np = clang_Cursor_getNumArguments(fnc);
	for (int i = 0; i < np; i++)
		var_of(f, clang_Cursor_getArgument(fnc, (unsigned)i), true, i);
	f->nparams = np < 0 ? 0 : np;
	f->root = make_node(f, fnc, NULL);
	track_members(f, f->root);
	for (unsigned i = f->root->nkids; i-- > 0;)
		if (f->root->kids[i]->kind == CXCursor_CompoundStmt) {
			f->body = f->root->kids[i];
			break;
		}
	if (!f->body) {
		fn_free(f);
		return NULL;
	}
	return f;
}

void fn_free(struct fn_model *f)
{
	if (!f)
		return;
	free(f->vars);
	arena_free(f->arena);
	free(f);
}

unsigned node_nargs(const struct node *call)
{
	int n = clang_Cursor_getNumArguments(call->cur);
	if (n < 0 || (unsigned)n > call->nkids)
		return 0;
	return (unsigned)n;
}

struct node *node_arg(const struct node *call, unsigned i)
{
	unsigned n = node_nargs(call);
	if (i >= n)
		return NULL;
	return call->kids[call->nkids - n + i];
}

struct node *node_strip(struct node *n)
{
	while (n && (n->kind == CXCursor_ParenExpr || n->kind == CXCursor_UnexposedExpr ||
		     n->kind == CXCursor_CStyleCastExpr) && n->nkids >= 1) {
		/* a cast's last kid is the operand (the type ref comes first) */
		n = n->kids[n->nkids - 1];
	}
	return n;
}

bool node_contains(const struct node *n, const struct node *x)
{
	for (const struct node *p = x; p; p = p->parent)
		if (p == n)
			return true;
	return false;
}

char *node_text(const struct tu *t, const struct node *n)
{
	unsigned b, e;
	struct strbuf sb = STRBUF_INIT;
	if (tu_main_range(t, n->cur, &b, &e)) {
		int space = 0;
		for (unsigned i = b; i < e; i++) {
			char c = t->main_text[i];
			if (isspace((unsigned char)c)) {
				space = 1;
				continue;
			}
			if (space && sb.len)
				strbuf_addc(&sb, ' ');
			space = 0;
			strbuf_addc(&sb, c);
		}
	} else if (n->name) {
		strbuf_adds(&sb, n->name);
	}
	return strbuf_detach(&sb);
}

static bool is_cmp(const struct node *n)
{
	n = node_strip((struct node *)n);
	if (!n || n->kind != CXCursor_BinaryOperator || !n->op)
		return n && n->kind != CXCursor_BinaryOperator && n->kind != CXCursor_UnaryOperator &&
		       n->kind != CXCursor_CompoundAssignOperator && n->kind != CXCursor_DeclStmt;
	return strcmp(n->op, "=") && strcmp(n->op, ",");
}

static bool is_step(const struct node *n)
{
	n = node_strip((struct node *)n);
	return n && (n->kind == CXCursor_CompoundAssignOperator ||
		     (n->kind == CXCursor_UnaryOperator && n->op &&
		      (!strcmp(n->op, "++") || !strcmp(n->op, "--"))));
}

void node_for_parts(struct node *f, struct node **init, struct node **cond,
		    struct node **inc, struct node **body)
{
	*init = *cond = *inc = *body = NULL;
	if (!f->nkids)
		return;
	*body = f->kids[f->nkids - 1];
	unsigned k = f->nkids - 1;
	struct node **p = f->kids;
	if (k == 3) {
		*init = p[0], *cond = p[1], *inc = p[2];
	} else if (k == 2) {
		if (p[0]->kind == CXCursor_DeclStmt || !is_cmp(p[0])) {
			*init = p[0];
			if (is_step(p[1]) || !is_cmp(p[1]))
				*inc = p[1];
			else
				*cond = p[1];
		} else {
			*cond = p[0], *inc = p[1];
		}
	} else if (k == 1) {
		if (p[0]->kind == CXCursor_DeclStmt)
			*init = p[0];
		else if (is_step(p[0]))
			*inc = p[0];
		else if (is_cmp(p[0]))
			*cond = p[0];
		else
			*init = p[0];
	}
}

bool node_modifies(const struct node *n, int v)
{
	if (v < 0)
		return false;
	if (n->kind == CXCursor_UnaryOperator && n->op && (!strcmp(n->op, "--") || !strcmp(n->op, "++")) &&
	    n->nkids == 1) {
		const struct node *k = node_strip(n->kids[0]);
		return k && k->kind == CXCursor_DeclRefExpr && k->var == v;
	}
	if ((n->kind == CXCursor_CompoundAssignOperator ||
	     (n->kind == CXCursor_BinaryOperator && n->op && !strcmp(n->op, "="))) && n->nkids == 2) {
		const struct node *k = node_strip(n->kids[0]);
		return k && k->kind == CXCursor_DeclRefExpr && k->var == v;
	}
	return false;
}

void node_vars(const struct node *n, bool members, int *vars, int *nv, int max)
{
	if ((n->kind == CXCursor_DeclRefExpr || (members && n->kind == CXCursor_MemberRefExpr)) && n->var >= 0) {
		for (int i = 0; i < *nv; i++)
			if (vars[i] == n->var)
				return;
		if (*nv < max)
			vars[(*nv)++] = n->var;
	}
	for (unsigned i = 0; i < n->nkids; i++)
		node_vars(n->kids[i], members, vars, nv, max);
}

bool node_is_loop(const struct node *n)
{
	return n->kind == CXCursor_ForStmt || n->kind == CXCursor_WhileStmt || n->kind == CXCursor_DoStmt;
}
