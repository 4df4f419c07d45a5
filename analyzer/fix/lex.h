/* What fix shapes read from the tokens (private to analyzer/fix/).
 *
 * Over the tokens of gfpaudit/clex.h (the text as written, with byte
 * offsets): the enclosing function body, its parameters and the statement
 * around a call.  Not a parser, enough for the edits shapes make.
 */
#ifndef GFPAUDIT_FIX_LEX_H
#define GFPAUDIT_FIX_LEX_H
#include <stdbool.h>
#include <stddef.h>
#include "gfpaudit/clex.h"

/* The function body around pos: tokens of its "{" and "}" and of the
 * parameter list "(" ")".  false when pos is not inside a function body. */
struct fn_span {
	size_t lbrace, rbrace;   /* token indexes */
	size_t lparen, rparen;   /* parameter list, (size_t)-1 when not found */
	size_t name;             /* function name token, or (size_t)-1 */
};
bool toks_function(const struct toks *t, size_t pos, struct fn_span *out);

/* Is identifier token i a parameter name of the function? */
bool fn_is_param(const struct toks *t, const struct fn_span *fn, const char *name);
/* Its position in the parameter list (0-based), or -1. */
int fn_param_index(const struct toks *t, const struct fn_span *fn, const char *name);

/* The statement that contains token i: first and last token ("...;").
 * `begin` follows the previous ";", "{", "}" or label at the same nesting;
 * false when there is no such statement (i is in a declaration list at top
 * level or the text is unbalanced). */
struct stmt_span {
	size_t first, last;      /* token indexes, last is the ";" */
	size_t block;            /* token index of the innermost "{" around it, or (size_t)-1 */
	bool unbraced_body;      /* the statement is the body of if/else/for/while without braces */
};
bool toks_statement(const struct toks *t, size_t i, struct stmt_span *out);

#endif
