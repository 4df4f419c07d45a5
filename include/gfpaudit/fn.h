/* A modelled function body: a mirror of libclang's cursors for one function
 * definition, with parent links, operators and local-variable ids resolved
 * once.  The interpreter (eval.c) and site discovery read this instead of walking libclang again.  Lives in an arena that is
 * dropped with the function. */
#ifndef GFPAUDIT_FN_H
#define GFPAUDIT_FN_H
#include <stdbool.h>
#include <clang-c/Index.h>
#include "gfpaudit/frontend.h"

struct node {
	enum CXCursorKind kind;
	CXCursor cur;
	struct node *parent;
	struct node **kids;
	unsigned nkids;
	unsigned line, col, off; /* expansion location in the main file; line 0 elsewhere */
	const char *op;          /* operator of unary/binary/compound-assign, else NULL */
	bool postfix;
	const char *name;        /* decl/ref/member spelling; callee name for calls */
	int var;                 /* local variable id, or -1 */
	int id;                  /* preorder number in the function */
	bool pure;               /* no locals, calls, members or assignments below:
				  * a candidate for constant evaluation */
};

struct fn_var {
	const char *name;
	CXCursor decl;
	int param;       /* parameter index, or -1 */
	int bits;        /* width of an integer type, 0 otherwise */
	bool is_signed;
	bool is_gfp;     /* type spelled gfp_t */
	bool is_member;  /* a field path (rq->order) tracked like a local: its
			  * value is forgotten at every call */
	const char *key; /* the field path's text, for is_member */
	CXCursor field;  /* the FieldDecl, for is_member (else null) */
	bool user_ptr;   /* a parameter declared with __user */
};

struct arena;

struct fn_model {
	const char *name;
	CXCursor cur;
	struct node *root;  /* the FunctionDecl; its last kid is the body */
	struct node *body;
	struct fn_var *vars;
	int nvars, vars_alloc;
	int nparams;
	int nnodes;
	bool in_main;       /* defined in the analyzed file */
	struct arena *arena;
	const struct tu *tu;
};

/* Build the model of a function definition cursor.  NULL if it has no body. */
struct fn_model *fn_build(const struct tu *t, CXCursor fn);
void fn_free(struct fn_model *f);
/* The nodes the model keeps: nnodes counts every cursor of the body, but an
 * integer constant spelled with literals and operators alone (a register
 * mask, a sizeof(type)) is kept as one leaf (fn.c int_literal_tree). */
int fn_kept_nodes(const struct fn_model *f);

/* Arguments of a call node (kids after the callee). */
unsigned node_nargs(const struct node *call);
struct node *node_arg(const struct node *call, unsigned i);
/* Skip parens, implicit casts and unexposed wrappers. */
struct node *node_strip(struct node *n);
/* Does `n` (a subtree) contain node `x`? */
bool node_contains(const struct node *n, const struct node *x);
/* Normalized source text of a node (whitespace collapsed; expansion text
 * for macro-expanded nodes), owned. */
char *node_text(const struct tu *t, const struct node *n);
/* The key of a field path, as tracked field paths are keyed: its text,
 * or, for a path with constant subscripts or one a macro's body spells,
 * the path from the AST ("tables[3].size" for tables[TABLE_ECC].size
 * however written).  NULL for a macro's path the AST cannot spell. */
char *fn_path_text(const struct fn_model *f, struct node *n);
/* Is `n` itself a write of local v: v--, v++, v op= x, v = x (not a decl)? */
bool node_modifies(const struct node *n, int v);
/* Local variables referenced in a subtree (with `members`, tracked field
 * paths too), each once, at most max. */
void node_vars(const struct node *n, bool members, int *vars, int *nv, int max);
/* for, while or do. */
bool node_is_loop(const struct node *n);
/* For-loop parts (any may be NULL). */
void node_for_parts(struct node *f, struct node **init, struct node **cond,
		    struct node **inc, struct node **body);

/* Arena allocation (zeroed). */
void *arena_alloc(struct arena *a, size_t n);
char *arena_strdup(struct arena *a, const char *s);

#endif
