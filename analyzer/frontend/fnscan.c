/* Function definitions in C text as written (see fnscan.h). */
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/fnscan.h"
#include "gfpaudit/clex.h"
#include "gfpaudit/strbuf.h"

void fn_extents_init(struct fn_extents *x) { memset(x, 0, sizeof(*x)); }

void fn_extents_release(struct fn_extents *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->v[i].name);
	free(x->v);
	fn_extents_init(x);
}

/* Identifiers that take a parenthesised argument before or after a
 * function's name without being it. */
static bool not_a_name(const char *s, size_t n)
{
	static const char *const skip[] = {
		"__attribute__", "__attribute", "__printf", "__scanf", "__section", "__aligned",
		"__alloc_size", "__realloc_size", "__assume_aligned", "__must_hold", "__acquires",
		"__releases", "__cond_acquires", "__diagnose_as", "__cleanup", "__counted_by",
		"__asm__", "asm", "__asm", "typeof", "__typeof__", "__typeof", "_Alignas",
		"__declspec", "sizeof", "_Static_assert", "static_assert", "void", "int", "char",
		"long", "short", "unsigned", "signed", "const", "volatile", "struct", "union", "enum",
		NULL,
	};
	for (const char *const *k = skip; *k; k++)
		if (strlen(*k) == n && !memcmp(*k, s, n))
			return true;
	return false;
}

/* The scan's place, and the file-scope item it is in: from the item's
 * first token to its ';' or its '}'. */
struct fn_scan {
	const struct toks *t;
	size_t pos;              /* text offset `line` is counted to */
	int line, depth, paren;
	int item_line;
	bool has_params, saw_eq, in_fn;
	size_t name, last;       /* the item's name; the identifier just read (token indexes or NONE) */
	int fn_start;
	char *fn_name;
	size_t fn_body;          /* offset of the body's '{' */
	bool fn_plain;
	size_t prev, prev2;      /* the two tokens before the current one at file scope (or NONE) */
};

#define NONE ((size_t)-1)

/* The line of text offset pos (pos never goes back). */
static int line_at(struct fn_scan *sc, size_t pos)
{
	const char *s = sc->t->text;
	for (; sc->pos < pos; sc->pos++)
		if (s[sc->pos] == '\n')
			sc->line++;
	return sc->line;
}

static void item_reset(struct fn_scan *sc)
{
	sc->item_line = 0;
	sc->has_params = sc->saw_eq = false;
	sc->name = NONE;
}

/* A token at file scope: the item starts on its line if nothing came before. */
static void item_token(struct fn_scan *sc, int line)
{
	if (sc->depth == 0 && !sc->item_line)
		sc->item_line = line;
}

/* Punctuation inside braces: only their nesting counts; the closing brace
 * of a function body records the function. */
static void scan_punct_in_body(struct fn_scan *sc, char c, size_t off, int line, struct fn_extents *out)
{
	if (c == '{') {
		sc->depth++;
		return;
	}
	if (c != '}' || --sc->depth != 0)
		return;
	if (sc->in_fn) {
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		out->v[out->n].start = sc->fn_start;
		out->v[out->n].end = line;
		out->v[out->n].name = sc->fn_name;
		out->v[out->n].body_b = sc->fn_body;
		out->v[out->n].body_e = off;
		out->v[out->n].plain = sc->fn_plain;
		out->n++;
		sc->fn_name = NULL;
		sc->in_fn = false;
	}
	item_reset(sc);
	sc->paren = 0;
}

/* Is the '{' about to open surely a function body: after a ')' or after
 * an identifier that no struct, union or enum keyword introduces? */
static bool plain_body(const struct fn_scan *sc)
{
	const struct toks *t = sc->t;
	if (sc->prev == NONE)
		return false;
	if (tok_is(t, sc->prev, ")"))
		return true;
	if (t->v[sc->prev].kind != TK_IDENT)
		return false;
	return sc->prev2 == NONE || !(tok_is(t, sc->prev2, "struct") || tok_is(t, sc->prev2, "union") ||
				      tok_is(t, sc->prev2, "enum"));
}

/* Punctuation at file scope: a parameter list, an initializer, the end of
 * a declaration, or a brace that opens a function body after parameters. */
static void scan_punct_at_file_scope(struct fn_scan *sc, char c, size_t off, int line)
{
	const struct toks *t = sc->t;
	if (c != ';' && !sc->item_line)
		sc->item_line = line;
	switch (c) {
	case '(':
		if (sc->paren == 0 && sc->name == NONE && sc->last != NONE &&
		    !not_a_name(t->text + t->v[sc->last].begin, t->v[sc->last].end - t->v[sc->last].begin))
			sc->name = sc->last;
		sc->paren++;
		break;
	case ')':
		if (sc->paren > 0 && --sc->paren == 0)
			sc->has_params = true;
		break;
	case '=':
		if (sc->paren == 0)
			sc->saw_eq = true;
		break;
	case ';':
		if (sc->paren == 0)
			item_reset(sc);
		break;
	case '{':
		sc->depth = 1;
		if (sc->paren == 0 && sc->has_params && !sc->saw_eq) {
			sc->in_fn = true;
			sc->fn_start = sc->item_line ? sc->item_line : line;
			free(sc->fn_name);
			sc->fn_name = sc->name != NONE ? tok_str(t, sc->name) : NULL;
			sc->fn_body = off;
			sc->fn_plain = sc->name != NONE && plain_body(sc);
		}
		break;
	default:
		break;
	}
	sc->last = NONE;
}

/* One token outside directives.  Punctuation counts byte by byte ("==" is
 * an '=' twice); a number or a literal is part of the item but does not
 * end the name before a parameter list. */
static void scan_token(struct fn_scan *sc, size_t i, struct fn_extents *out)
{
	const struct tok *k = &sc->t->v[i];
	int line = line_at(sc, k->begin);
	switch (k->kind) {
	case TK_IDENT:
		if (sc->depth == 0) {
			item_token(sc, line);
			sc->last = i;
		}
		return;
	case TK_STRING:
	case TK_CHAR:
		/* the item starts where the literal ends (a continued one too) */
		item_token(sc, line_at(sc, k->end));
		return;
	case TK_NUMBER:
		if (sc->t->text[k->begin] == '.')
			break; /* ".5": a '.', then a number */
		item_token(sc, line);
		return;
	case TK_PUNCT:
		break;
	}
	for (size_t b = k->begin; b < k->end; b++) {
		char c = sc->t->text[b];
		if (k->kind == TK_NUMBER && b > k->begin) {
			item_token(sc, line);
			return;
		}
		if (sc->depth > 0)
			scan_punct_in_body(sc, c, b, line, out);
		else
			scan_punct_at_file_scope(sc, c, b, line);
	}
}

void fn_scan_functions(const char *src, size_t len, struct fn_extents *out)
{
	struct toks t;
	struct fn_scan sc = { .t = &t, .line = 1, .name = NONE, .last = NONE, .prev = NONE, .prev2 = NONE };
	toks_scan(&t, src, len);
	for (size_t i = 0; i < t.n; i++) {
		if (t.v[i].pp)
			continue;
		bool top = sc.depth == 0;
		scan_token(&sc, i, out);
		if (top) {
			sc.prev2 = sc.prev;
			sc.prev = i;
		}
	}
	free(sc.fn_name); /* an unterminated body at EOF is not recorded */
	toks_release(&t);
}

