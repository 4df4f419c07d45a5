/* Fix shapes over the tokens of analyzer/util/clex.c: see lex.h. */
#include <string.h>
#include "lex.h"

#define NONE ((size_t)-1)

bool toks_function(const struct toks *t, size_t pos, struct fn_span *out)
{
	size_t start = 0; /* first token after the previous top-level declaration */
	for (size_t i = 0; i < t->n; i++) {
		if (t->v[i].pp) {
			start = i + 1;
			continue;
		}
		if (tok_is(t, i, ";")) {
			start = i + 1;
			continue;
		}
		if (!tok_is(t, i, "{")) {
			if (tok_is(t, i, "(") || tok_is(t, i, "[")) {
				size_t m = toks_match(t, i);
				if (m != NONE)
					i = m;
			}
			continue;
		}
		size_t r = toks_match(t, i);
		if (r == NONE)
			return false;
		/* A body follows ")" (maybe with attributes such as __releases(x)
		 * between); "= {" and "struct x {" are not bodies. */
		bool body = i > 0 && tok_is(t, i - 1, ")");
		if (body && t->v[i].begin <= pos && pos < t->v[r].end) {
			out->lbrace = i;
			out->rbrace = r;
			out->lparen = out->rparen = out->name = NONE;
			for (size_t k = start; k < i; k++) {
				if (tok_is(t, k, "(")) {
					out->lparen = k;
					out->rparen = toks_match(t, k);
					if (k > start && t->v[k - 1].kind == TK_IDENT)
						out->name = k - 1;
					break;
				}
			}
			return true;
		}
		i = r;
		start = r + 1;
	}
	return false;
}

bool fn_is_param(const struct toks *t, const struct fn_span *fn, const char *name)
{
	if (fn->lparen == NONE || fn->rparen == NONE)
		return false;
	int depth = 0;
	for (size_t k = fn->lparen + 1; k < fn->rparen; k++) {
		if (tok_is(t, k, "(") || tok_is(t, k, "["))
			depth++;
		else if (tok_is(t, k, ")") || tok_is(t, k, "]"))
			depth--;
		else if (depth == 0 && t->v[k].kind == TK_IDENT && tok_is(t, k, name) &&
			 (tok_is(t, k + 1, ",") || k + 1 == fn->rparen || tok_is(t, k + 1, "[")))
			return true;
	}
	return false;
}

int fn_param_index(const struct toks *t, const struct fn_span *fn, const char *name)
{
	if (fn->lparen == NONE || fn->rparen == NONE)
		return -1;
	int depth = 0, idx = 0;
	for (size_t k = fn->lparen + 1; k < fn->rparen; k++) {
		if (tok_is(t, k, "(") || tok_is(t, k, "["))
			depth++;
		else if (tok_is(t, k, ")") || tok_is(t, k, "]"))
			depth--;
		else if (depth == 0 && tok_is(t, k, ","))
			idx++;
		else if (depth == 0 && t->v[k].kind == TK_IDENT && tok_is(t, k, name) &&
			 (tok_is(t, k + 1, ",") || k + 1 == fn->rparen || tok_is(t, k + 1, "[")))
			return idx;
	}
	return -1;
}

static bool is_control_kw(const struct toks *t, size_t i)
{
	return tok_is(t, i, "if") || tok_is(t, i, "while") || tok_is(t, i, "for") ||
	       tok_is(t, i, "switch");
}

bool toks_statement(const struct toks *t, size_t i, struct stmt_span *out)
{
	if (i >= t->n)
		return false;
	out->block = NONE;
	out->unbraced_body = false;
	size_t k = i, first = 0;
	bool found = false;
	while (k-- > 0) {
		if (t->v[k].pp)
			continue;
		if (tok_is(t, k, ")") || tok_is(t, k, "]")) {
			size_t m = toks_match(t, k);
			if (m == NONE)
				return false;
			if (tok_is(t, k, ")") && m > 0 && is_control_kw(t, m - 1)) {
				/* the body of an unbraced if/for/while/switch */
				first = k + 1;
				out->unbraced_body = true;
				found = true;
				break;
			}
			k = m;
			continue;
		}
		if (tok_is(t, k, ";") || tok_is(t, k, "}")) {
			first = k + 1;
			found = true;
			break;
		}
		if (tok_is(t, k, "{")) {
			first = k + 1;
			out->block = k;
			found = true;
			break;
		}
		if (tok_is(t, k, "else") || tok_is(t, k, "do")) {
			first = k + 1;
			out->unbraced_body = true;
			found = true;
			break;
		}
		if (tok_is(t, k, ":") && k > 0 && t->v[k - 1].kind == TK_IDENT) {
			/* a label ("out:") or "default:"; "case X:" and "a ? b : c"
			 * need a look further back */
			size_t p = k - 1;
			bool label = tok_is(t, p, "default") || p == 0 || tok_is(t, p - 1, ";") ||
				     tok_is(t, p - 1, "{") || tok_is(t, p - 1, "}") || tok_is(t, p - 1, ":");
			if (label) {
				first = k + 1;
				found = true;
				break;
			}
		}
	}
	if (!found)
		return false;
	/* innermost enclosing block */
	if (out->block == NONE) {
		int depth = 0;
		for (size_t b = first; b-- > 0;) {
			if (t->v[b].pp)
				continue;
			if (tok_is(t, b, "}"))
				depth++;
			else if (tok_is(t, b, "{") && depth-- == 0) {
				out->block = b;
				break;
			}
		}
	}
	/* the ";" that ends it */
	for (k = i; k < t->n; k++) {
		if (t->v[k].pp)
			continue;
		if (tok_is(t, k, "(") || tok_is(t, k, "[") || tok_is(t, k, "{")) {
			size_t m = toks_match(t, k);
			if (m == NONE)
				return false;
			k = m;
			continue;
		}
		if (tok_is(t, k, ")") || tok_is(t, k, "]") || tok_is(t, k, "}"))
			return false; /* i sits inside a bracket that closes first */
		if (tok_is(t, k, ";"))
			break;
	}
	if (k >= t->n)
		return false;
	out->first = first;
	out->last = k;
	return first <= i;
}
