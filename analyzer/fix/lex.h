/* A small C token scanner for fix shapes (private to analyzer/fix/).
 *
 * Fix shapes edit the file as written, so they need to see the text the way
 * the user wrote it: tokens with byte offsets, comments and whitespace
 * skipped, preprocessor directives marked.  This is not a parser; it is
 * enough to find the enclosing function body, the statement around a call,
 * the top-level operators of an argument and the other uses of a name.
 */
#ifndef GFPAUDIT_FIX_LEX_H
#define GFPAUDIT_FIX_LEX_H
#include <stdbool.h>
#include <stddef.h>

enum tok_kind { TK_IDENT, TK_NUMBER, TK_STRING, TK_CHAR, TK_PUNCT };

struct tok {
	enum tok_kind kind;
	size_t begin, end;  /* byte range in the text */
	bool pp;            /* part of a preprocessor directive */
	bool bol;           /* first token on its line */
};

struct toks {
	const char *text;
	size_t len;
	struct tok *v;
	size_t n, alloc;
};

void toks_scan(struct toks *t, const char *text, size_t len);
void toks_release(struct toks *t);

/* Does token i spell `s` exactly? */
bool tok_is(const struct toks *t, size_t i, const char *s);
/* Copy of the token's text (caller frees). */
char *tok_str(const struct toks *t, size_t i);
/* First token whose begin is >= pos (t->n when none). */
size_t toks_at(const struct toks *t, size_t pos);
/* Index of the token matching the bracket at i ("(" "[" "{" forwards,
 * ")" "]" "}" backwards), or (size_t)-1.  Directive tokens are skipped. */
size_t toks_match(const struct toks *t, size_t i);

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

/* Byte offset of the start of the line holding pos / just past its "\n". */
size_t line_begin(const char *text, size_t pos);
size_t line_end(const char *text, size_t len, size_t pos);
/* 1-based line number of pos. */
int line_of(const char *text, size_t pos);
/* Leading whitespace of the line holding pos (caller frees). */
char *line_indent(const char *text, size_t len, size_t pos);

#endif
