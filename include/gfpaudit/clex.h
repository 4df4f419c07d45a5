/* A small C token scanner over the text as written (analyzer/util/clex.c).
 *
 * Fix shapes edit the file as written and the change scanner reports the
 * lines of function definitions, so both need to see the text the way the
 * user wrote it: tokens with byte offsets, comments, whitespace and line
 * continuations skipped, preprocessor directives marked.  This is not a
 * preprocessor and not a parser: no macro is expanded, no #if is taken.
 *
 * A token is an identifier, a number (from a digit, or '.' and a digit, to
 * the end of its letters, digits, '_', '.' and exponent signs), a string or
 * character literal (to its closing quote, or to the end of the line when
 * it has none: the newline is not part of it), or punctuation (the
 * longest of the multi-character operators, else one byte).  A directive
 * starts at a '#' that is the first token of its line and ends at the next
 * newline that is not escaped and not inside a block comment.
 */
#ifndef GFPAUDIT_CLEX_H
#define GFPAUDIT_CLEX_H
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

/* One token at a time, for a reader that may stop early: clex_next() fills
 * *out and returns true, or returns false at the end of the text. */
struct clex {
	const char *text;
	size_t len, i;
	bool bol, pp;
};
void clex_init(struct clex *l, const char *text, size_t len);
bool clex_next(struct clex *l, struct tok *out);

/* All the tokens of text[0, len); the text is lent, not copied.  Never
 * fails. */
void toks_scan(struct toks *t, const char *text, size_t len);
void toks_release(struct toks *t);

/* Does token i spell `s` exactly? */
bool tok_is(const struct toks *t, size_t i, const char *s);
/* Copy of the token's text (caller frees). */
char *tok_str(const struct toks *t, size_t i);
/* First token whose begin is >= pos (t->n when none). */
size_t toks_at(const struct toks *t, size_t pos);
/* Index of the token matching the bracket at i ("(" "[" "{" forwards,
 * ")" "]" "}" backwards), or (size_t)-1.  Only tokens on the same side of
 * a directive (pp) as token i count. */
size_t toks_match(const struct toks *t, size_t i);

/* Byte offset of the start of the line holding pos / just past its "\n". */
size_t line_begin(const char *text, size_t pos);
size_t line_end(const char *text, size_t len, size_t pos);
/* 1-based line number of pos. */
int line_of(const char *text, size_t pos);
/* Leading whitespace of the line holding pos (caller frees). */
char *line_indent(const char *text, size_t len, size_t pos);

#endif
