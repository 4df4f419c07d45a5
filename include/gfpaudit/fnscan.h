/* Function definitions in C text as written (analyzer/frontend/fnscan.c).
 *
 * Over the tokens of gfpaudit/clex.h, no preprocessor: the lines of each
 * function definition and the byte offsets of its body's braces.  vcs/
 * reads the lines (which functions a change touches), frontend/blank.c the
 * braces (which bodies it may blank before a parse).
 */
#ifndef GFPAUDIT_FNSCAN_H
#define GFPAUDIT_FNSCAN_H
#include <stdbool.h>
#include <stddef.h>

/* A function definition's lines in a C file: from the first token of its
 * declaration to its closing brace. */
struct fn_extent {
	int start, end;
	char *name;  /* best effort (the identifier before the parameter list) */
	size_t body_b, body_e; /* byte offsets of the body's '{' and '}' */
	/* the '{' follows a ')' or a name after one (`__releases(x)`,
	 * `__acquires(l) __must_hold(m)`), and no struct/union/enum tag:
	 * surely a function body */
	bool plain;
};
struct fn_extents {
	struct fn_extent *v;
	size_t n, alloc;
};
void fn_extents_init(struct fn_extents *x);
void fn_extents_release(struct fn_extents *x);
/* Brace blocks at file scope that follow a parameter list: function
 * bodies (comments, literals and directives aside).  Never fails;
 * unbalanced braces inside #if branches can confuse it. */
void fn_scan_functions(const char *src, size_t len, struct fn_extents *out);

#endif
