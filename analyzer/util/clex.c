/* A small C token scanner over the text as written: see clex.h. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/strbuf.h"
#include "gfpaudit/clex.h"

#define NONE ((size_t)-1)

static const char *const puncts[] = {
	"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
	"&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", NULL,
};

/* The length of the punctuation at s[0, left): the longest entry of
 * puncts[] (the first that matches), else one byte. */
static size_t punct_len(const char *s, size_t left)
{
	if (!strchr("<>.-+=!&|*/%^#", s[0]) || !s[0])
		return 1;
	for (size_t k = 0; puncts[k]; k++) {
		size_t pl = strlen(puncts[k]);
		if (pl <= left && !memcmp(s, puncts[k], pl))
			return pl;
	}
	return 1;
}

void clex_init(struct clex *l, const char *text, size_t len)
{
	*l = (struct clex){ .text = text, .len = len, .bol = true };
}

bool clex_next(struct clex *l, struct tok *out)
{
	const char *s = l->text;
	size_t len = l->len, i = l->i;
	while (i < len) {
		char c = s[i];
		if (c == '\n') {
			l->bol = true;
			l->pp = false;
			i++;
			continue;
		}
		if (c == '\\' && i + 1 < len && s[i + 1] == '\n') {
			i += 2; /* a continued line stays in its directive */
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			i++;
			continue;
		}
		if (c == '/' && i + 1 < len && s[i + 1] == '*') {
			const char *e = NULL;
			for (size_t k = i + 2; k + 1 < len; k++)
				if (s[k] == '*' && s[k + 1] == '/') {
					e = s + k + 2;
					break;
				}
			i = e ? (size_t)(e - s) : len;
			continue;
		}
		if (c == '/' && i + 1 < len && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
			continue;
		}
		size_t b = i;
		bool first = l->bol;
		enum tok_kind k;
		l->bol = false;
		if (c == '#' && first) {
			l->pp = true;
			k = TK_PUNCT;
			i++;
		} else if (isalpha((unsigned char)c) || c == '_') {
			while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_'))
				i++;
			k = TK_IDENT;
		} else if (isdigit((unsigned char)c) || (c == '.' && i + 1 < len && isdigit((unsigned char)s[i + 1]))) {
			while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.' ||
					   ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E' ||
									      s[i - 1] == 'p' || s[i - 1] == 'P'))))
				i++;
			k = TK_NUMBER;
		} else if (c == '"' || c == '\'') {
			i++;
			while (i < len && s[i] != c && s[i] != '\n') {
				if (s[i] == '\\' && i + 1 < len)
					i++;
				i++;
			}
			if (i < len && s[i] == c)
				i++;
			k = c == '"' ? TK_STRING : TK_CHAR;
		} else {
			i += punct_len(s + i, len - i);
			k = TK_PUNCT;
		}
		*out = (struct tok){ k, b, i, l->pp, first };
		l->i = i;
		return true;
	}
	l->i = i;
	return false;
}

void toks_scan(struct toks *t, const char *s, size_t len)
{
	struct clex l;
	struct tok k;
	memset(t, 0, sizeof(*t));
	t->text = s;
	t->len = len;
	clex_init(&l, s, len);
	while (clex_next(&l, &k)) {
		ALLOC_GROW(t->v, t->n + 1, t->alloc);
		t->v[t->n++] = k;
	}
}

void toks_release(struct toks *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

bool tok_is(const struct toks *t, size_t i, const char *s)
{
	if (i >= t->n)
		return false;
	size_t n = t->v[i].end - t->v[i].begin;
	return strlen(s) == n && !memcmp(t->text + t->v[i].begin, s, n);
}

char *tok_str(const struct toks *t, size_t i)
{
	return xstrndup(t->text + t->v[i].begin, t->v[i].end - t->v[i].begin);
}

size_t toks_at(const struct toks *t, size_t pos)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->v[mid].begin < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t toks_match(const struct toks *t, size_t i)
{
	static const char open[] = "([{", close[] = ")]}";
	if (i >= t->n || t->v[i].kind != TK_PUNCT || t->v[i].end - t->v[i].begin != 1)
		return NONE;
	char c = t->text[t->v[i].begin];
	const char *o = strchr(open, c), *cl = strchr(close, c);
	if (!c || (!o && !cl))
		return NONE;
	char want_open = o ? c : open[cl - close], want_close = o ? close[o - open] : c;
	int depth = 0;
	if (o) {
		for (size_t k = i; k < t->n; k++) {
			if (t->v[k].pp != t->v[i].pp || t->v[k].kind != TK_PUNCT)
				continue;
			char d = t->text[t->v[k].begin];
			if (t->v[k].end - t->v[k].begin != 1)
				continue;
			if (d == want_open)
				depth++;
			else if (d == want_close && --depth == 0)
				return k;
		}
	} else {
		for (size_t k = i + 1; k-- > 0;) {
			if (t->v[k].pp != t->v[i].pp || t->v[k].kind != TK_PUNCT)
				continue;
			char d = t->text[t->v[k].begin];
			if (t->v[k].end - t->v[k].begin != 1)
				continue;
			if (d == want_close)
				depth++;
			else if (d == want_open && --depth == 0)
				return k;
		}
	}
	return NONE;
}

size_t line_begin(const char *text, size_t pos)
{
	while (pos > 0 && text[pos - 1] != '\n')
		pos--;
	return pos;
}

size_t line_end(const char *text, size_t len, size_t pos)
{
	while (pos < len && text[pos] != '\n')
		pos++;
	return pos < len ? pos + 1 : pos;
}

int line_of(const char *text, size_t pos)
{
	int n = 1;
	for (size_t i = 0; i < pos; i++)
		if (text[i] == '\n')
			n++;
	return n;
}

char *line_indent(const char *text, size_t len, size_t pos)
{
	size_t b = line_begin(text, pos), e = b;
	while (e < len && (text[e] == ' ' || text[e] == '\t'))
		e++;
	return xstrndup(text + b, e - b);
}
