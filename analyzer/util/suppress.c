/* Inline suppression comments (see include/gfpaudit/suppress.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/suppress.h"
#include "gfpaudit/strbuf.h"

static const char marker[] = "gfpaudit:";

/* Is text[at] inside a comment, as far as its own line tells: a "//" or
 * "/" "*" before it, or a line that continues a block comment (" * ..."). */
static int in_comment(const char *line, const char *at)
{
	const char *p = line;
	while (p < at && (*p == ' ' || *p == '\t'))
		p++;
	if (*p == '*')
		return 1;
	for (; p + 1 < at; p++)
		if (p[0] == '/' && (p[1] == '/' || p[1] == '*'))
			return 1;
	return 0;
}

static void add_rule(struct suppression *s, const char *b, const char *e)
{
	s->rules = xrealloc(s->rules, (s->nrules + 1) * sizeof(*s->rules));
	s->rules[s->nrules++] = xstrndup(b, (size_t)(e - b));
}

/* "ignore RULE[,RULE]: reason" from p up to the end of the comment (eol). */
static void parse_one(struct suppressions *out, int lineno, const char *p, const char *eol)
{
	const char *end = eol;
	for (const char *q = p; q + 1 < eol; q++)
		if (q[0] == '*' && q[1] == '/') {
			end = q;
			break;
		}
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (end - p < 6 || strncmp(p, "ignore", 6) || (p + 6 < end && !isspace((unsigned char)p[6])))
		return; /* another gfpaudit: comment, not ours */
	p += 6;
	ALLOC_GROW(out->v, out->n + 1, out->alloc);
	struct suppression *s = &out->v[out->n++];
	memset(s, 0, sizeof(*s));
	s->line = lineno;
	for (;;) {
		while (p < end && (isspace((unsigned char)*p) || *p == ','))
			p++;
		const char *b = p;
		while (p < end && (isalnum((unsigned char)*p) || *p == '-' || *p == '_'))
			p++;
		if (p == b)
			break;
		add_rule(s, b, p);
	}
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p < end && *p == ':') {
		p++;
		while (end > p && isspace((unsigned char)end[-1]))
			end--;
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p < end)
			s->reason = xstrndup(p, (size_t)(end - p));
	}
}

void suppressions_scan(const char *text, size_t len, struct suppressions *out)
{
	memset(out, 0, sizeof(*out));
	const char *p = text, *stop = text + len;
	int lineno = 1;
	while (p < stop) {
		const char *eol = memchr(p, '\n', (size_t)(stop - p));
		if (!eol)
			eol = stop;
		for (const char *q = p; q + sizeof(marker) - 1 <= eol; q++)
			if (*q == 'g' && !memcmp(q, marker, sizeof(marker) - 1) && in_comment(p, q)) {
				parse_one(out, lineno, q + sizeof(marker) - 1, eol);
				break;
			}
		p = eol + 1;
		lineno++;
	}
}

void suppressions_release(struct suppressions *s)
{
	for (size_t i = 0; i < s->n; i++) {
		for (size_t k = 0; k < s->v[i].nrules; k++)
			free(s->v[i].rules[k]);
		free(s->v[i].rules);
		free(s->v[i].reason);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

const struct suppression *suppressions_match(const struct suppressions *s, const char *rule, int line)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct suppression *x = &s->v[i];
		if (!x->reason || (x->line != line && x->line != line - 1))
			continue;
		for (size_t k = 0; k < x->nrules; k++)
			if (!strcmp(x->rules[k], rule))
				return x;
	}
	return NULL;
}
