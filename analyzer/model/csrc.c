/* Light structural reading of one C file (see csrc.h).
 *
 * Why not a full parse: the allocator sources of an arbitrary tree must be
 * readable without a prepared tree (no generated headers, no kbuild flags),
 * in milliseconds, and the rules that use this are about spelled names.
 * libclang lexes; this file only groups tokens.
 */
#include <stdlib.h>
#include <string.h>
#include <clang-c/Index.h>
#include "gfpaudit/csrc.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

/* ---- arena ---- */

struct chunk {
	struct chunk *next;
	size_t used, cap;
	_Alignas(16) char data[];
};
struct csrc_arena {
	struct chunk *head;
};

static void *ar_alloc(struct csrc *c, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct chunk *ch = c->arena->head;
	if (!ch || ch->used + n > ch->cap) {
		size_t cap = n > 65536 ? n : 65536;
		ch = xmalloc(sizeof(*ch) + cap);
		ch->used = 0;
		ch->cap = cap;
		ch->next = c->arena->head;
		c->arena->head = ch;
	}
	void *p = ch->data + ch->used;
	ch->used += n;
	memset(p, 0, n);
	return p;
}

static const char *ar_strndup(struct csrc *c, const char *s, size_t n)
{
	char *p = ar_alloc(c, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

static const char *ar_strdup(struct csrc *c, const char *s)
{
	return ar_strndup(c, s, strlen(s));
}

/* ---- token helpers ---- */

static bool tk_is(const struct ctok *t, const char *s)
{
	return t && !strcmp(t->text, s);
}

static bool tk_punct(const struct ctok *t, const char *s)
{
	return t && t->kind == CT_PUNCT && !strcmp(t->text, s);
}

/* Index of the bracket closing the one at t[i], or `e` if unbalanced. */
static size_t find_close(const struct ctok *t, size_t i, size_t e)
{
	int depth = 0;
	for (size_t k = i; k < e; k++) {
		if (t[k].kind != CT_PUNCT)
			continue;
		const char *x = t[k].text;
		if (!strcmp(x, "(") || !strcmp(x, "[") || !strcmp(x, "{"))
			depth++;
		else if (!strcmp(x, ")") || !strcmp(x, "]") || !strcmp(x, "}")) {
			if (--depth == 0)
				return k;
			if (depth < 0)
				return e;
		}
	}
	return e;
}

static int bracket_delta(const struct ctok *t)
{
	if (t->kind != CT_PUNCT)
		return 0;
	const char *x = t->text;
	if (!strcmp(x, "(") || !strcmp(x, "[") || !strcmp(x, "{"))
		return 1;
	if (!strcmp(x, ")") || !strcmp(x, "]") || !strcmp(x, "}"))
		return -1;
	return 0;
}

/* ---- integer literals and evaluation ---- */

bool ctok_number(const char *s, int64_t *out)
{
	if (!s || !((*s >= '0' && *s <= '9')))
		return false;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	if (*end)
		return false;
	*out = (int64_t)v;
	return true;
}

int cx_eval(const struct cx *e, const struct ceval_env *env, int64_t *out)
{
	int64_t a, b, c;
	if (!e)
		return -1;
	switch (e->kind) {
	case CX_NUM:
		if (ctok_number(e->text, out))
			return 0;
		if (e->text[0] == '\'' && e->text[1] && e->text[2] == '\'') {
			*out = e->text[1];
			return 0;
		}
		return -1;
	case CX_IDENT:
		if (!strcmp(e->text, "true")) { *out = 1; return 0; }
		if (!strcmp(e->text, "false")) { *out = 0; return 0; }
		return env && env->ident ? env->ident(env->data, e->text, out) : -1;
	case CX_CALL: {
		const char *f = cx_callee(e);
		if (f && (!strcmp(f, "likely") || !strcmp(f, "unlikely")) && e->nargs == 1)
			return cx_eval(e->args[0], env, out);
		return env && env->call ? env->call(env->data, e, out) : -1;
	}
	case CX_CAST:
		return cx_eval(e->a, env, out);
	case CX_UNARY:
		if (cx_eval(e->a, env, &a))
			return -1;
		switch (e->text[0]) {
		case '!': *out = !a; return 0;
		case '~': *out = ~a; return 0;
		case '-': *out = -a; return 0;
		case '+': *out = a; return 0;
		}
		return -1;
	case CX_COND:
		if (cx_eval(e->a, env, &a))
			return -1;
		return cx_eval(a ? e->b : e->c, env, out);
	case CX_BINARY: {
		const char *op = e->text;
		/* short-circuit keeps a known answer when one side is unknown */
		if (!strcmp(op, "&&") || !strcmp(op, "||")) {
			int ra = cx_eval(e->a, env, &a), rb = cx_eval(e->b, env, &b);
			bool is_and = op[0] == '&';
			if (!ra && (is_and ? !a : !!a)) { *out = !is_and; return 0; }
			if (!rb && (is_and ? !b : !!b)) { *out = !is_and; return 0; }
			if (ra || rb)
				return -1;
			*out = is_and ? (a && b) : (a || b);
			return 0;
		}
		if (cx_eval(e->a, env, &a) || cx_eval(e->b, env, &b))
			return -1;
		if (!strcmp(op, "|")) c = a | b;
		else if (!strcmp(op, "&")) c = a & b;
		else if (!strcmp(op, "^")) c = a ^ b;
		else if (!strcmp(op, "+")) c = a + b;
		else if (!strcmp(op, "-")) c = a - b;
		else if (!strcmp(op, "*")) c = a * b;
		else if (!strcmp(op, "/")) { if (!b) return -1; c = a / b; }
		else if (!strcmp(op, "%")) { if (!b) return -1; c = a % b; }
		else if (!strcmp(op, "<<")) { if (b < 0 || b > 63) return -1; c = (int64_t)((uint64_t)a << b); }
		else if (!strcmp(op, ">>")) { if (b < 0 || b > 63) return -1; c = (int64_t)((uint64_t)a >> b); }
		else if (!strcmp(op, "==")) c = a == b;
		else if (!strcmp(op, "!=")) c = a != b;
		else if (!strcmp(op, "<")) c = a < b;
		else if (!strcmp(op, ">")) c = a > b;
		else if (!strcmp(op, "<=")) c = a <= b;
		else if (!strcmp(op, ">=")) c = a >= b;
		else if (!strcmp(op, ",")) c = b;
		else return -1;
		*out = c;
		return 0;
	}
	default:
		return -1;
	}
}

/* ---- expression parser ---- */

struct pp {
	struct csrc *c;
	const struct ctok *t;
	size_t p, e;
	bool comma_ok;
};

static struct cx *mk(struct pp *p, enum cx_kind k, const char *text, size_t tb, size_t te)
{
	struct cx *x = ar_alloc(p->c, sizeof(*x));
	x->kind = k;
	x->text = text;
	x->tb = tb;
	x->te = te;
	x->toks = p->t;
	if (tb < p->e || tb < te) {
		x->line = p->t[tb].line;
		x->col = p->t[tb].col;
	}
	return x;
}

static struct cx *opaque(struct csrc *c, const struct ctok *t, size_t b, size_t e)
{
	struct pp p = { c, t, b, e, true };
	struct cx *x = mk(&p, CX_OPAQUE, "", b, e);
	if (b < e) {
		x->line = t[b].line;
		x->col = t[b].col;
	}
	return x;
}

static struct cx *parse_slice(struct csrc *c, const struct ctok *t, size_t b, size_t e, bool comma_ok);

static int binprec(const char *op, bool comma_ok)
{
	static const struct { const char *op; int prec; } tab[] = {
		{ "=", 2 }, { "+=", 2 }, { "-=", 2 }, { "*=", 2 }, { "/=", 2 }, { "%=", 2 },
		{ "<<=", 2 }, { ">>=", 2 }, { "&=", 2 }, { "^=", 2 }, { "|=", 2 },
		{ "?", 3 }, { "||", 4 }, { "&&", 5 }, { "|", 6 }, { "^", 7 }, { "&", 8 },
		{ "==", 9 }, { "!=", 9 }, { "<", 10 }, { ">", 10 }, { "<=", 10 }, { ">=", 10 },
		{ "<<", 11 }, { ">>", 11 }, { "+", 12 }, { "-", 12 }, { "*", 13 }, { "/", 13 }, { "%", 13 },
	};
	if (!strcmp(op, ","))
		return comma_ok ? 1 : -1;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(tab[i].op, op))
			return tab[i].prec;
	return -1;
}

static const char *const type_words[] = {
	"int", "char", "short", "long", "unsigned", "signed", "void", "float", "double",
	"_Bool", "bool", "const", "volatile", "struct", "union", "enum", "restrict",
	"__force", "__user", "__iomem", "__percpu", "__rcu", "u8", "u16", "u32", "u64",
	"s8", "s16", "s32", "s64", "__u8", "__u16", "__u32", "__u64", "__le32", "__be32", NULL,
};

static bool is_type_word(const struct ctok *t)
{
	for (size_t i = 0; type_words[i]; i++)
		if (!strcmp(type_words[i], t->text))
			return true;
	size_t n = strlen(t->text);
	return t->kind == CT_IDENT && n > 2 && !strcmp(t->text + n - 2, "_t");
}

static bool starts_operand(const struct ctok *t)
{
	if (t->kind == CT_IDENT || t->kind == CT_LITERAL)
		return true;
	if (t->kind == CT_KEYWORD)
		return !strcmp(t->text, "sizeof") || !strcmp(t->text, "__builtin_offsetof");
	const char *x = t->text;
	return !strcmp(x, "(") || !strcmp(x, "!") || !strcmp(x, "~") || !strcmp(x, "-") ||
	       !strcmp(x, "+") || !strcmp(x, "*") || !strcmp(x, "&") || !strcmp(x, "{") ||
	       !strcmp(x, "++") || !strcmp(x, "--");
}

/* Is t[i] == "(" ... t[j] == ")" a type name? */
static bool is_cast(const struct ctok *t, size_t i, size_t j, size_t e)
{
	if (j <= i + 1 || j + 1 >= e)
		return false;
	bool typed = false;
	for (size_t k = i + 1; k < j; k++) {
		if (tk_punct(&t[k], "*"))
			continue;
		if (t[k].kind != CT_IDENT && t[k].kind != CT_KEYWORD)
			return false;
		if (t[k].kind == CT_KEYWORD && !is_type_word(&t[k]))
			return false;
		if (is_type_word(&t[k]))
			typed = true;
	}
	return typed && starts_operand(&t[j + 1]);
}

static char *join_tokens(const struct ctok *t, size_t b, size_t e)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t k = b; k < e; k++) {
		if (k > b) {
			const struct ctok *prev = &t[k - 1];
			bool word_prev = prev->kind != CT_PUNCT, word_cur = t[k].kind != CT_PUNCT;
			if ((word_prev && word_cur) ||
			    (prev->kind == CT_PUNCT && strchr(",", prev->text[0])) ||
			    (prev->line == t[k].line && t[k].offset > prev->offset + strlen(prev->text)))
				strbuf_addc(&sb, ' ');
		}
		strbuf_adds(&sb, t[k].text);
	}
	return strbuf_detach(&sb);
}

static struct cx *parse_unary(struct pp *p);

static struct cx *parse_bin(struct pp *p, int minprec)
{
	size_t start = p->p;
	struct cx *l = parse_unary(p);
	if (!l)
		return NULL;
	while (p->p < p->e) {
		const struct ctok *tk = &p->t[p->p];
		if (tk->kind != CT_PUNCT)
			break;
		int pr = binprec(tk->text, p->comma_ok);
		if (pr < 0 || pr < minprec)
			break;
		const char *op = tk->text;
		p->p++;
		if (!strcmp(op, "?")) {
			struct cx *m = NULL;
			if (p->p < p->e && !tk_punct(&p->t[p->p], ":")) {
				bool save = p->comma_ok;
				p->comma_ok = true;
				m = parse_bin(p, 2);
				p->comma_ok = save;
				if (!m)
					return NULL;
			}
			if (p->p >= p->e || !tk_punct(&p->t[p->p], ":"))
				return NULL;
			p->p++;
			struct cx *r = parse_bin(p, 3);
			if (!r)
				return NULL;
			struct cx *x = mk(p, CX_COND, "?:", start, p->p);
			x->a = l;
			x->b = m ? m : l; /* GNU a ?: b */
			x->c = r;
			l = x;
			continue;
		}
		struct cx *r = parse_bin(p, pr == 2 ? pr : pr + 1);
		if (!r)
			return NULL;
		struct cx *x = mk(p, pr == 2 ? CX_ASSIGN : CX_BINARY, op, start, p->p);
		x->a = l;
		x->b = r;
		l = x;
	}
	return l;
}

static struct cx *parse_postfix(struct pp *p, struct cx *x, size_t start)
{
	while (x && p->p < p->e) {
		const struct ctok *tk = &p->t[p->p];
		if (tk_punct(tk, "(")) {
			size_t close = find_close(p->t, p->p, p->e);
			if (close >= p->e)
				return NULL;
			struct cx *call = mk(p, CX_CALL, "()", start, close + 1);
			call->a = x;
			size_t b = p->p + 1;
			if (b < close) {
				int depth = 0;
				size_t argb = b;
				for (size_t k = b; k <= close; k++) {
					if (k < close) {
						depth += bracket_delta(&p->t[k]);
						if (!(depth == 0 && tk_punct(&p->t[k], ",")))
							continue;
					}
					struct cx **na = ar_alloc(p->c, sizeof(*na) * (call->nargs + 1));
					if (call->nargs)
						memcpy(na, call->args, sizeof(*na) * call->nargs);
					na[call->nargs++] = parse_slice(p->c, p->t, argb, k, false);
					call->args = na;
					argb = k + 1;
				}
			}
			p->p = close + 1;
			x = call;
		} else if (tk_punct(tk, "[")) {
			size_t close = find_close(p->t, p->p, p->e);
			if (close >= p->e)
				return NULL;
			struct cx *ix = mk(p, CX_INDEX, "[]", start, close + 1);
			ix->a = x;
			ix->b = parse_slice(p->c, p->t, p->p + 1, close, true);
			p->p = close + 1;
			x = ix;
		} else if (tk_punct(tk, ".") || tk_punct(tk, "->")) {
			if (p->p + 1 >= p->e || p->t[p->p + 1].kind != CT_IDENT)
				return NULL;
			struct cx *m = mk(p, CX_MEMBER, tk->text, start, p->p + 2);
			m->a = x;
			m->b = mk(p, CX_IDENT, p->t[p->p + 1].text, p->p + 1, p->p + 2);
			p->p += 2;
			x = m;
		} else if (tk_punct(tk, "++") || tk_punct(tk, "--")) {
			struct cx *u = mk(p, CX_POSTFIX, tk->text, start, p->p + 1);
			u->a = x;
			p->p++;
			x = u;
		} else
			break;
	}
	return x;
}

static struct cx *parse_unary(struct pp *p)
{
	if (p->p >= p->e)
		return NULL;
	size_t start = p->p;
	const struct ctok *tk = &p->t[p->p];
	if (tk->kind == CT_PUNCT) {
		const char *x = tk->text;
		if (!strcmp(x, "!") || !strcmp(x, "~") || !strcmp(x, "-") || !strcmp(x, "+") ||
		    !strcmp(x, "*") || !strcmp(x, "&") || !strcmp(x, "++") || !strcmp(x, "--")) {
			p->p++;
			struct cx *a = parse_unary(p);
			if (!a)
				return NULL;
			struct cx *u = mk(p, CX_UNARY, x, start, p->p);
			u->a = a;
			return u;
		}
		if (!strcmp(x, "(")) {
			size_t close = find_close(p->t, p->p, p->e);
			if (close >= p->e)
				return NULL;
			if (close > p->p + 1 && tk_punct(&p->t[p->p + 1], "{")) {
				/* statement expression: opaque */
				p->p = close + 1;
				return parse_postfix(p, opaque(p->c, p->t, start, close + 1), start);
			}
			if (is_cast(p->t, p->p, close, p->e)) {
				char *ty = join_tokens(p->t, p->p + 1, close);
				const char *tys = ar_strdup(p->c, ty);
				free(ty);
				p->p = close + 1;
				if (tk_punct(&p->t[p->p], "{")) { /* compound literal */
					size_t cl = find_close(p->t, p->p, p->e);
					if (cl >= p->e)
						return NULL;
					p->p = cl + 1;
					return parse_postfix(p, opaque(p->c, p->t, start, cl + 1), start);
				}
				struct cx *a = parse_unary(p);
				if (!a)
					return NULL;
				struct cx *c = mk(p, CX_CAST, tys, start, p->p);
				c->a = a;
				return c;
			}
			struct cx *in = parse_slice(p->c, p->t, p->p + 1, close, true);
			p->p = close + 1;
			return parse_postfix(p, in, start);
		}
		if (!strcmp(x, "{")) {
			size_t close = find_close(p->t, p->p, p->e);
			if (close >= p->e)
				return NULL;
			p->p = close + 1;
			return opaque(p->c, p->t, start, close + 1);
		}
		return NULL;
	}
	if (tk->kind == CT_KEYWORD && (!strcmp(tk->text, "sizeof") || !strcmp(tk->text, "_Alignof") ||
				       !strcmp(tk->text, "__alignof__") || !strcmp(tk->text, "typeof") ||
				       !strcmp(tk->text, "__typeof__"))) {
		p->p++;
		if (p->p < p->e && tk_punct(&p->t[p->p], "(")) {
			size_t close = find_close(p->t, p->p, p->e);
			if (close >= p->e)
				return NULL;
			p->p = close + 1;
		} else if (!parse_unary(p))
			return NULL;
		return opaque(p->c, p->t, start, p->p);
	}
	if (tk->kind == CT_KEYWORD && !strcmp(tk->text, "__extension__")) {
		p->p++;
		return parse_unary(p);
	}
	if (tk->kind == CT_IDENT || (tk->kind == CT_KEYWORD && !is_type_word(tk) &&
				     strcmp(tk->text, "return") && strcmp(tk->text, "if"))) {
		p->p++;
		return parse_postfix(p, mk(p, CX_IDENT, tk->text, start, p->p), start);
	}
	if (tk->kind == CT_LITERAL) {
		p->p++;
		enum cx_kind k = (tk->text[0] == '"' || (tk->text[0] == 'L' && tk->text[1] == '"')) ? CX_STR : CX_NUM;
		while (k == CX_STR && p->p < p->e && p->t[p->p].kind == CT_LITERAL && p->t[p->p].text[0] == '"')
			p->p++;
		return parse_postfix(p, mk(p, k, tk->text, start, p->p), start);
	}
	return NULL;
}

static struct cx *parse_slice(struct csrc *c, const struct ctok *t, size_t b, size_t e, bool comma_ok)
{
	struct pp p = { c, t, b, e, comma_ok };
	if (b >= e)
		return opaque(c, t, b, e);
	struct cx *x = parse_bin(&p, 1);
	if (!x || p.p != e)
		return opaque(c, t, b, e);
	return x;
}

struct cx *csrc_parse_expr(struct csrc *c, const struct ctok *toks, size_t n)
{
	return parse_slice(c, toks, 0, n, true);
}

/* ---- expression helpers ---- */

const struct cx *cx_strip(const struct cx *e)
{
	while (e) {
		if (e->kind == CX_CAST)
			e = e->a;
		else if (e->kind == CX_CALL && e->nargs == 1 && e->a && e->a->kind == CX_IDENT &&
			 (!strcmp(e->a->text, "likely") || !strcmp(e->a->text, "unlikely")))
			e = e->args[0];
		else if (e->kind == CX_UNARY && !strcmp(e->text, "!") && e->a && e->a->kind == CX_UNARY &&
			 !strcmp(e->a->text, "!"))
			e = e->a->a; /* !!x */
		else
			break;
	}
	return e;
}

bool cx_is_ident(const struct cx *e, const char *name)
{
	e = cx_strip(e);
	return e && e->kind == CX_IDENT && !strcmp(e->text, name);
}

const char *cx_callee(const struct cx *e)
{
	if (!e || e->kind != CX_CALL || !e->a || e->a->kind != CX_IDENT)
		return NULL;
	return e->a->text;
}

bool cx_mentions(const struct cx *e, const char *name)
{
	if (!e)
		return false;
	for (size_t k = e->tb; k < e->te; k++)
		if (!strcmp(e->toks[k].text, name))
			return true;
	return false;
}

bool cx_mentions_prefix(const struct cx *e, const char *prefix)
{
	if (!e)
		return false;
	size_t n = strlen(prefix);
	for (size_t k = e->tb; k < e->te; k++)
		if (!strncmp(e->toks[k].text, prefix, n))
			return true;
	return false;
}

char *cx_text(const struct cx *e)
{
	if (!e)
		return xstrdup("");
	return join_tokens(e->toks, e->tb, e->te);
}

bool cx_walk(const struct cx *e, bool (*fn)(const struct cx *, void *), void *data)
{
	if (!e)
		return false;
	if (fn(e, data))
		return true;
	if (cx_walk(e->a, fn, data) || cx_walk(e->b, fn, data))
		return true;
	if (e->kind == CX_COND && e->c && cx_walk(e->c, fn, data))
		return true;
	for (size_t i = 0; i < e->nargs; i++)
		if (cx_walk(e->args[i], fn, data))
			return true;
	return false;
}

bool cs_walk(const struct cs *s, bool (*fn)(const struct cs *, void *), void *data)
{
	if (!s)
		return false;
	if (fn(s, data))
		return true;
	if (cs_walk(s->init, fn, data) || cs_walk(s->body, fn, data) || cs_walk(s->els, fn, data))
		return true;
	for (size_t i = 0; i < s->nkids; i++)
		if (cs_walk(s->kids[i], fn, data))
			return true;
	return false;
}

/* ---- statements ---- */

struct sp {
	struct csrc *c;
	const struct ctok *t;
	size_t p, e;
};

static struct cs *mks(struct sp *s, enum cs_kind k, size_t tb, struct cs *parent)
{
	struct cs *x = ar_alloc(s->c, sizeof(*x));
	x->kind = k;
	x->tb = tb;
	x->te = tb;
	x->parent = parent;
	if (tb < s->e) {
		x->line = s->t[tb].line;
		x->col = s->t[tb].col;
	}
	return x;
}

/* `;` ending the statement at i, or the `}` closing the enclosing block. */
static size_t find_semi(const struct ctok *t, size_t i, size_t e)
{
	int depth = 0;
	for (size_t k = i; k < e; k++) {
		int d = bracket_delta(&t[k]);
		if (d < 0 && depth == 0)
			return k;
		depth += d;
		if (depth == 0 && tk_punct(&t[k], ";"))
			return k;
	}
	return e;
}

static const char *const decl_keywords[] = {
	"int", "char", "short", "long", "unsigned", "signed", "void", "float", "double",
	"_Bool", "const", "volatile", "static", "struct", "union", "enum", "register",
	"extern", "typeof", "__typeof__", "auto", "inline", NULL,
};

static bool is_decl_start(const struct ctok *t, size_t i, size_t e)
{
	if (t[i].kind == CT_KEYWORD) {
		for (size_t k = 0; decl_keywords[k]; k++)
			if (!strcmp(decl_keywords[k], t[i].text))
				return true;
		return false;
	}
	if (t[i].kind != CT_IDENT || i + 1 >= e)
		return false;
	const struct ctok *n = &t[i + 1];
	if (n->kind == CT_IDENT || (n->kind == CT_KEYWORD && (!strcmp(n->text, "const") || !strcmp(n->text, "volatile"))))
		return true;
	if (tk_punct(n, "*")) {
		size_t k = i + 1;
		while (k < e && tk_punct(&t[k], "*"))
			k++;
		if (k + 1 < e && t[k].kind == CT_IDENT &&
		    (tk_punct(&t[k + 1], "=") || tk_punct(&t[k + 1], ";") || tk_punct(&t[k + 1], ",") ||
		     tk_punct(&t[k + 1], "[") || t[k + 1].kind == CT_IDENT))
			return true;
	}
	return false;
}

static const char *const skip_in_type[] = { "static", "const", "volatile", "register", "extern", "inline", "auto", NULL };

static char *type_text(const struct ctok *t, size_t b, size_t e)
{
	struct strbuf sb = STRBUF_INIT;
	int depth = 0;
	for (size_t k = b; k < e; k++) {
		int d = bracket_delta(&t[k]);
		if (depth == 0 && t[k].kind == CT_IDENT && k + 1 < e && tk_punct(&t[k + 1], "(")) {
			/* attribute-like macro: skip it and its arguments */
			k = find_close(t, k + 1, e);
			continue;
		}
		depth += d;
		if (depth || d || tk_punct(&t[k], "*"))
			continue;
		bool skip = false;
		for (size_t j = 0; skip_in_type[j]; j++)
			skip |= !strcmp(skip_in_type[j], t[k].text);
		if (skip || !strncmp(t[k].text, "__", 2))
			continue;
		if (sb.len)
			strbuf_addc(&sb, ' ');
		strbuf_adds(&sb, t[k].text);
	}
	return strbuf_detach(&sb);
}

/* Declarator name in [b, e): the last depth-0 identifier not followed by
 * "(" (attribute macros), preferring names that do not start with "__". */
static size_t declarator_name(const struct ctok *t, size_t b, size_t e)
{
	size_t best = e, best_any = e;
	int depth = 0;
	for (size_t k = b; k < e; k++) {
		int d = bracket_delta(&t[k]);
		if (depth == 0 && t[k].kind == CT_IDENT && !(k + 1 < e && tk_punct(&t[k + 1], "("))) {
			bool tag = k > b && (tk_is(&t[k - 1], "struct") || tk_is(&t[k - 1], "union") ||
					     tk_is(&t[k - 1], "enum"));
			if (!tag) {
				best_any = k;
				if (strncmp(t[k].text, "__", 2))
					best = k;
			}
		}
		depth += d;
	}
	if (best == e)
		best = best_any;
	if (best == e) { /* (*fn)(...) style: first identifier inside parens */
		for (size_t k = b; k < e; k++)
			if (t[k].kind == CT_IDENT)
				return k;
	}
	return best;
}

static void parse_decl(struct sp *s, struct cs *d, size_t b, size_t e)
{
	const struct ctok *t = s->t;
	size_t partb = b;
	int depth = 0;
	const char *type = NULL;
	for (size_t k = b; k <= e; k++) {
		if (k < e) {
			int dl = bracket_delta(&t[k]);
			depth += dl;
			if (!(depth == 0 && dl == 0 && tk_punct(&t[k], ",")))
				continue;
		}
		size_t eq = k;
		int dd = 0;
		for (size_t j = partb; j < k; j++) {
			dd += bracket_delta(&t[j]);
			if (dd == 0 && tk_punct(&t[j], "=")) {
				eq = j;
				break;
			}
		}
		size_t name = declarator_name(t, partb, eq);
		if (name < eq) {
			struct cdecl *nd = ar_alloc(s->c, sizeof(*nd) * (d->ndecls + 1));
			if (d->ndecls)
				memcpy(nd, d->decls, sizeof(*nd) * d->ndecls);
			struct cdecl *x = &nd[d->ndecls++];
			d->decls = nd;
			x->name = t[name].text;
			x->line = t[name].line;
			x->col = t[name].col;
			if (!type) {
				char *ty = type_text(t, partb, name);
				type = ar_strdup(s->c, ty);
				free(ty);
			}
			x->type = type;
			for (size_t j = partb; j < name; j++)
				if (tk_punct(&t[j], "*"))
					x->pointer = true;
			if (eq < k)
				x->init = parse_slice(s->c, t, eq + 1, k, false);
		}
		partb = k + 1;
	}
}

static struct cs *parse_stmt(struct sp *s, struct cs *parent);

static struct cs *parse_block(struct sp *s, struct cs *parent)
{
	size_t open = s->p, close = find_close(s->t, s->p, s->e);
	struct cs *b = mks(s, CS_BLOCK, open, parent);
	size_t save_e = s->e;
	s->p = open + 1;
	s->e = close;
	while (s->p < s->e) {
		size_t before = s->p;
		struct cs *k = parse_stmt(s, b);
		if (s->p <= before)
			s->p = before + 1; /* never stall */
		if (!k)
			continue;
		struct cs **nk = ar_alloc(s->c, sizeof(*nk) * (b->nkids + 1));
		if (b->nkids)
			memcpy(nk, b->kids, sizeof(*nk) * b->nkids);
		nk[b->nkids++] = k;
		b->kids = nk;
	}
	s->e = save_e;
	s->p = close < s->e ? close + 1 : s->e;
	b->te = s->p;
	return b;
}

/* "(" cond ")" at s->p: parse it, leave s->p after ")". */
static struct cx *parse_paren_cond(struct sp *s)
{
	if (s->p >= s->e || !tk_punct(&s->t[s->p], "("))
		return opaque(s->c, s->t, s->p, s->p);
	size_t close = find_close(s->t, s->p, s->e);
	struct cx *c = parse_slice(s->c, s->t, s->p + 1, close, true);
	s->p = close < s->e ? close + 1 : s->e;
	return c;
}

static struct cs *parse_stmt(struct sp *s, struct cs *parent)
{
	const struct ctok *t = s->t;
	size_t i = s->p;
	if (i >= s->e)
		return NULL;
	const struct ctok *tk = &t[i];
	struct cs *x;

	if (tk_punct(tk, "{"))
		return parse_block(s, parent);
	if (tk_punct(tk, ";")) {
		s->p++;
		x = mks(s, CS_EMPTY, i, parent);
		x->te = s->p;
		return x;
	}
	if (tk->kind == CT_KEYWORD) {
		const char *k = tk->text;
		if (!strcmp(k, "if")) {
			x = mks(s, CS_IF, i, parent);
			s->p++;
			x->e = parse_paren_cond(s);
			x->body = parse_stmt(s, x);
			if (s->p < s->e && tk_is(&t[s->p], "else")) {
				s->p++;
				x->els = parse_stmt(s, x);
			}
			x->te = s->p;
			return x;
		}
		if (!strcmp(k, "while") || !strcmp(k, "switch")) {
			x = mks(s, k[0] == 'w' ? CS_WHILE : CS_SWITCH, i, parent);
			s->p++;
			x->e = parse_paren_cond(s);
			x->body = parse_stmt(s, x);
			x->te = s->p;
			return x;
		}
		if (!strcmp(k, "do")) {
			x = mks(s, CS_DO, i, parent);
			s->p++;
			x->body = parse_stmt(s, x);
			if (s->p < s->e && tk_is(&t[s->p], "while")) {
				s->p++;
				x->e = parse_paren_cond(s);
			}
			if (s->p < s->e && tk_punct(&t[s->p], ";"))
				s->p++;
			x->te = s->p;
			return x;
		}
		if (!strcmp(k, "for")) {
			x = mks(s, CS_FOR, i, parent);
			s->p++;
			if (s->p < s->e && tk_punct(&t[s->p], "(")) {
				size_t close = find_close(t, s->p, s->e);
				size_t s1 = find_semi(t, s->p + 1, close);
				size_t s2 = s1 < close ? find_semi(t, s1 + 1, close) : close;
				if (s1 > s->p + 1) {
					struct sp sub = { s->c, t, s->p + 1, s1 + 1 < close ? s1 + 1 : s1 };
					x->init = parse_stmt(&sub, x);
				}
				if (s2 > s1 + 1)
					x->e = parse_slice(s->c, t, s1 + 1, s2, true);
				if (close > s2 + 1)
					x->step = parse_slice(s->c, t, s2 + 1, close, true);
				s->p = close < s->e ? close + 1 : s->e;
			}
			x->body = parse_stmt(s, x);
			x->te = s->p;
			return x;
		}
		if (!strcmp(k, "case")) {
			x = mks(s, CS_CASE, i, parent);
			size_t k2 = i + 1;
			int depth = 0;
			for (; k2 < s->e; k2++) {
				depth += bracket_delta(&t[k2]);
				if (depth == 0 && tk_punct(&t[k2], ":"))
					break;
			}
			x->e = parse_slice(s->c, t, i + 1, k2, false);
			s->p = k2 < s->e ? k2 + 1 : s->e;
			x->te = s->p;
			return x;
		}
		if (!strcmp(k, "default") && i + 1 < s->e && tk_punct(&t[i + 1], ":")) {
			x = mks(s, CS_DEFAULT, i, parent);
			s->p = i + 2;
			x->te = s->p;
			return x;
		}
		if (!strcmp(k, "goto")) {
			x = mks(s, CS_GOTO, i, parent);
			if (i + 1 < s->e)
				x->label = t[i + 1].text;
			s->p = find_semi(t, i, s->e);
			if (s->p < s->e && tk_punct(&t[s->p], ";"))
				s->p++;
			x->te = s->p;
			return x;
		}
		if (!strcmp(k, "return") || !strcmp(k, "break") || !strcmp(k, "continue")) {
			x = mks(s, k[0] == 'r' ? CS_RETURN : k[0] == 'b' ? CS_BREAK : CS_CONTINUE, i, parent);
			size_t semi = find_semi(t, i, s->e);
			if (k[0] == 'r' && semi > i + 1)
				x->e = parse_slice(s->c, t, i + 1, semi, true);
			s->p = semi < s->e && tk_punct(&t[semi], ";") ? semi + 1 : semi;
			x->te = s->p;
			return x;
		}
		if (!strcmp(k, "asm") || !strcmp(k, "__asm__")) {
			x = mks(s, CS_OPAQUE, i, parent);
			size_t semi = find_semi(t, i, s->e);
			s->p = semi < s->e && tk_punct(&t[semi], ";") ? semi + 1 : semi;
			x->te = s->p;
			return x;
		}
	}
	/* label */
	if (tk->kind == CT_IDENT && i + 1 < s->e && tk_punct(&t[i + 1], ":")) {
		x = mks(s, CS_LABEL, i, parent);
		x->label = tk->text;
		s->p = i + 2;
		x->te = s->p;
		return x;
	}
	size_t semi = find_semi(t, i, s->e);
	if (is_decl_start(t, i, s->e)) {
		x = mks(s, CS_DECL, i, parent);
		parse_decl(s, x, i, semi);
		s->p = semi < s->e && tk_punct(&t[semi], ";") ? semi + 1 : semi;
		x->te = s->p;
		return x;
	}
	/* a loop macro: name(args) followed by a statement */
	if (tk->kind == CT_IDENT && i + 1 < s->e && tk_punct(&t[i + 1], "(")) {
		size_t close = find_close(t, i + 1, s->e);
		if (close + 1 < s->e && !tk_punct(&t[close + 1], ";") &&
		    (tk_punct(&t[close + 1], "{") || t[close + 1].kind == CT_IDENT ||
		     (t[close + 1].kind == CT_KEYWORD && (tk_is(&t[close + 1], "if") ||
							 tk_is(&t[close + 1], "return"))))) {
			x = mks(s, CS_MACROLOOP, i, parent);
			x->e = parse_slice(s->c, t, i, close + 1, false);
			s->p = close + 1;
			x->body = parse_stmt(s, x);
			x->te = s->p;
			return x;
		}
	}
	x = mks(s, CS_EXPR, i, parent);
	x->e = parse_slice(s->c, t, i, semi, true);
	s->p = semi < s->e && tk_punct(&t[semi], ";") ? semi + 1 : semi;
	x->te = s->p;
	return x;
}

struct cs *csrc_body(struct csrc *c, struct cfunc *f)
{
	if (f->body)
		return f->body;
	struct sp s = { c, c->toks, f->body_tb, f->body_te };
	f->body = parse_block(&s, NULL);
	return f->body;
}

/* ---- preprocessing: conditionals, defines ---- */

enum tri { T_FALSE, T_TRUE, T_UNKNOWN };

struct ppframe {
	bool parent_active, active, taken;
};

struct lexer {
	struct csrc *c;
	const char *text;
	size_t len;
	struct ppframe *stack;
	size_t depth, alloc;
};

static bool lx_active(const struct lexer *lx)
{
	return lx->depth == 0 || lx->stack[lx->depth - 1].active;
}

const struct cdefine *csrc_define(const struct csrc *c, const char *name)
{
	for (size_t i = c->ndefs; i-- > 0;)
		if (c->defs[i].name && !strcmp(c->defs[i].name, name))
			return &c->defs[i];
	return NULL;
}

const struct cenum *csrc_enum(const struct csrc *c, const char *name)
{
	for (size_t i = 0; i < c->nenums; i++)
		if (!strcmp(c->enums[i].name, name))
			return &c->enums[i];
	return NULL;
}

static bool name_defined(const struct csrc *c, const char *name)
{
	if (!strncmp(name, "CONFIG_", 7))
		return kconf_enabled(c->cfg, name);
	if (!strcmp(name, "__KERNEL__"))
		return true;
	return csrc_define(c, name) != NULL;
}

static int pp_ident(void *data, const char *name, int64_t *out)
{
	struct csrc *c = data;
	if (!strncmp(name, "CONFIG_", 7)) {
		*out = kconf_enabled(c->cfg, name);
		return 0;
	}
	return -1;
}

static int pp_call(void *data, const struct cx *call, int64_t *out)
{
	struct csrc *c = data;
	const char *f = cx_callee(call);
	if (!f || call->nargs != 1)
		return -1;
	const struct cx *a = cx_strip(call->args[0]);
	if (!a || a->kind != CX_IDENT)
		return -1;
	if (!strcmp(f, "defined")) {
		*out = name_defined(c, a->text);
		return 0;
	}
	if (!strcmp(f, "IS_ENABLED") || !strcmp(f, "IS_BUILTIN") || !strcmp(f, "IS_REACHABLE")) {
		*out = kconf_enabled(c->cfg, a->text);
		return 0;
	}
	if (!strcmp(f, "IS_MODULE")) {
		*out = 0;
		return 0;
	}
	return -1;
}

/* Evaluate an #if/#elif line; `defined X` is rewritten to `defined(X)`. */
static enum tri pp_eval(struct lexer *lx, const struct ctok *t, size_t n)
{
	struct csrc *c = lx->c;
	struct ctok *v = xcalloc(n * 3 + 1, sizeof(*v));
	size_t m = 0;
	for (size_t k = 0; k < n; k++) {
		if (tk_is(&t[k], "defined") && k + 1 < n && t[k + 1].kind == CT_IDENT) {
			v[m++] = t[k];
			v[m] = t[k];
			v[m].kind = CT_PUNCT;
			v[m++].text = "(";
			v[m++] = t[k + 1];
			v[m] = t[k + 1];
			v[m].kind = CT_PUNCT;
			v[m++].text = ")";
			k++;
			continue;
		}
		v[m++] = t[k];
	}
	/* the expression is parsed into the arena; keep the tokens there too */
	struct ctok *keep = ar_alloc(c, sizeof(*keep) * (m ? m : 1));
	memcpy(keep, v, sizeof(*keep) * m);
	free(v);
	struct cx *e = csrc_parse_expr(c, keep, m);
	struct ceval_env env = { pp_ident, pp_call, c };
	int64_t val;
	if (cx_eval(e, &env, &val))
		return T_UNKNOWN;
	return val ? T_TRUE : T_FALSE;
}

static void directive(struct lexer *lx, const struct ctok *t, size_t n)
{
	struct csrc *c = lx->c;
	if (n < 2)
		return;
	const char *d = t[1].text;
	bool active = lx_active(lx);
	if (!strcmp(d, "if") || !strcmp(d, "ifdef") || !strcmp(d, "ifndef")) {
		ALLOC_GROW(lx->stack, lx->depth + 1, lx->alloc);
		struct ppframe *f = &lx->stack[lx->depth++];
		f->parent_active = active;
		enum tri r;
		if (!active)
			r = T_FALSE;
		else if (d[2] == 'd')
			r = n > 2 && name_defined(c, t[2].text) ? T_TRUE : T_FALSE;
		else if (d[2] == 'n')
			r = n > 2 && name_defined(c, t[2].text) ? T_FALSE : T_TRUE;
		else
			r = pp_eval(lx, t + 2, n - 2);
		f->active = active && r != T_FALSE;
		f->taken = !active || r != T_FALSE;
		return;
	}
	if (!lx->depth)
		goto other;
	struct ppframe *f = &lx->stack[lx->depth - 1];
	if (!strcmp(d, "elif")) {
		if (!f->parent_active || f->taken) {
			f->active = false;
			return;
		}
		enum tri r = pp_eval(lx, t + 2, n - 2);
		f->active = r != T_FALSE;
		f->taken = f->active;
		return;
	}
	if (!strcmp(d, "else")) {
		f->active = f->parent_active && !f->taken;
		f->taken = true;
		return;
	}
	if (!strcmp(d, "endif")) {
		lx->depth--;
		return;
	}
other:
	if (!active)
		return;
	if (!strcmp(d, "define") && n > 2) {
		ALLOC_GROW(c->defs, c->ndefs + 1, c->defs_alloc);
		struct cdefine *df = &c->defs[c->ndefs++];
		memset(df, 0, sizeof(*df));
		df->name = t[2].text;
		df->line = t[2].line;
		size_t k = 3;
		if (n > 3 && tk_punct(&t[3], "(") && t[3].offset == t[2].offset + strlen(t[2].text)) {
			df->funclike = true;
			size_t close = find_close(t, 3, n);
			const char **ps = ar_alloc(c, sizeof(*ps) * (close - 3 + 1));
			for (size_t j = 4; j < close; j++)
				if (t[j].kind == CT_IDENT)
					ps[df->nparams++] = t[j].text;
				else if (tk_punct(&t[j], "..."))
					ps[df->nparams++] = "__VA_ARGS__";
			df->params = ps;
			k = close + 1;
		}
		if (k < n) {
			df->body = ar_alloc(c, sizeof(*df->body) * (n - k));
			memcpy(df->body, t + k, sizeof(*df->body) * (n - k));
			df->nbody = n - k;
		}
	} else if (!strcmp(d, "undef") && n > 2) {
		for (size_t i = 0; i < c->ndefs; i++)
			if (c->defs[i].name && !strcmp(c->defs[i].name, t[2].text))
				c->defs[i].name = NULL;
	}
}

/* Is the "#" at offset `off` the first thing on its line? */
static bool at_line_start(const char *text, unsigned off)
{
	while (off > 0) {
		char ch = text[off - 1];
		if (ch == '\n')
			return true;
		if (ch != ' ' && ch != '\t')
			return false;
		off--;
	}
	return true;
}

/* Offset just past the end of the directive starting at `off`. */
static size_t directive_end(const char *text, size_t len, size_t off)
{
	size_t k = off;
	while (k < len) {
		if (text[k] == '\n') {
			size_t j = k;
			while (j > off && (text[j - 1] == ' ' || text[j - 1] == '\t' || text[j - 1] == '\r'))
				j--;
			if (j > off && text[j - 1] == '\\') {
				k++;
				continue;
			}
			return k;
		}
		if (text[k] == '/' && k + 1 < len && text[k + 1] == '*') {
			/* a comment inside a directive may span lines */
			const char *end = strstr(text + k + 2, "*/");
			k = end ? (size_t)(end - text) + 2 : len;
			continue;
		}
		k++;
	}
	return len;
}

static void find_enums(struct csrc *c)
{
	const struct ctok *t = c->toks;
	for (size_t i = 0; i < c->ntoks; i++) {
		if (!tk_is(&t[i], "enum"))
			continue;
		size_t k = i + 1;
		if (k < c->ntoks && t[k].kind == CT_IDENT)
			k++;
		if (k >= c->ntoks || !tk_punct(&t[k], "{"))
			continue;
		size_t close = find_close(t, k, c->ntoks);
		const char *prev = NULL;
		size_t b = k + 1;
		int depth = 0;
		for (size_t j = k + 1; j <= close && j < c->ntoks; j++) {
			if (j < close) {
				int d = bracket_delta(&t[j]);
				depth += d;
				if (!(depth == 0 && d == 0 && tk_punct(&t[j], ",")))
					continue;
			}
			if (b < j && t[b].kind == CT_IDENT) {
				ALLOC_GROW(c->enums, c->nenums + 1, c->enums_alloc);
				struct cenum *en = &c->enums[c->nenums++];
				memset(en, 0, sizeof(*en));
				en->name = t[b].text;
				en->line = t[b].line;
				en->prev = prev;
				if (b + 1 < j && tk_punct(&t[b + 1], "=")) {
					en->expr = (struct ctok *)&t[b + 2];
					en->nexpr = j - (b + 2);
				}
				prev = en->name;
			}
			b = j + 1;
		}
		i = close;
	}
}

static void add_param(struct csrc *c, struct cfunc *f, size_t b, size_t e)
{
	const struct ctok *t = c->toks;
	if (b >= e || (e == b + 1 && tk_is(&t[b], "void")))
		return;
	if (tk_punct(&t[b], "..."))
		return;
	size_t name = declarator_name(t, b, e);
	struct cparam *np = ar_alloc(c, sizeof(*np) * (f->nparams + 1));
	if (f->nparams)
		memcpy(np, f->params, sizeof(*np) * f->nparams);
	struct cparam *p = &np[f->nparams++];
	f->params = np;
	p->name = name < e ? t[name].text : "";
	char *ty = type_text(t, b, name < e ? name : e);
	p->type = ar_strdup(c, ty);
	free(ty);
	for (size_t k = b; k < name && k < e; k++)
		if (tk_punct(&t[k], "*"))
			p->pointer = true;
}

static void parse_params(struct csrc *c, struct cfunc *f, size_t popen, size_t pclose)
{
	const struct ctok *t = c->toks;
	size_t b = popen + 1;
	int depth = 0;
	for (size_t j = popen + 1; j <= pclose; j++) {
		if (j < pclose) {
			int dd = bracket_delta(&t[j]);
			depth += dd;
			if (!(depth == 0 && dd == 0 && tk_punct(&t[j], ",")))
				continue;
		}
		add_param(c, f, b, j);
		b = j + 1;
	}
}

/* `type name(params);` at file scope, rp = the closing parenthesis */
static void add_prototype(struct csrc *c, size_t rp)
{
	const struct ctok *t = c->toks;
	int depth = 0;
	size_t lp = c->ntoks;
	for (size_t j = rp + 1; j-- > 0;) {
		depth -= bracket_delta(&t[j]);
		if (depth == 0) {
			lp = j;
			break;
		}
	}
	if (lp == c->ntoks || lp == 0 || t[lp - 1].kind != CT_IDENT)
		return;
	ALLOC_GROW(c->protos, c->nprotos + 1, c->protos_alloc);
	struct cfunc *f = &c->protos[c->nprotos++];
	memset(f, 0, sizeof(*f));
	f->name = t[lp - 1].text;
	f->line = t[lp - 1].line;
	parse_params(c, f, lp, rp);
}

struct cfunc *csrc_prototype(const struct csrc *c, const char *name)
{
	struct cfunc *f = csrc_function(c, name);
	if (f)
		return f;
	for (size_t i = c->nprotos; i-- > 0;)
		if (!strcmp(c->protos[i].name, name))
			return &c->protos[i];
	return NULL;
}

static void find_functions(struct csrc *c)
{
	const struct ctok *t = c->toks;
	size_t n = c->ntoks;
	for (size_t i = 0; i < n; i++) {
		int d = bracket_delta(&t[i]);
		if (d > 0 && !tk_punct(&t[i], "{")) {
			i = find_close(t, i, n);
			continue;
		}
		if (tk_punct(&t[i], ";") && i > 1 && tk_punct(&t[i - 1], ")")) {
			add_prototype(c, i - 1);
			continue;
		}
		if (!tk_punct(&t[i], "{"))
			continue;
		size_t close = find_close(t, i, n);
		/* walk back over annotations like __releases(x) to the parameter list */
		size_t k = i;
		size_t name = n, popen = n, pclose = n;
		while (k > 0 && tk_punct(&t[k - 1], ")")) {
			size_t rp = k - 1;
			int depth = 0;
			size_t lp = n;
			for (size_t j = rp + 1; j-- > 0;) {
				depth -= bracket_delta(&t[j]);
				if (depth == 0) {
					lp = j;
					break;
				}
			}
			if (lp == n || lp == 0 || t[lp - 1].kind != CT_IDENT)
				break;
			name = lp - 1;
			popen = lp;
			pclose = rp;
			if (name > 0 && tk_punct(&t[name - 1], ")"))
				k = name; /* this was an annotation after the real list */
			else
				break;
		}
		if (name < n) {
			ALLOC_GROW(c->funcs, c->nfuncs + 1, c->funcs_alloc);
			struct cfunc *f = &c->funcs[c->nfuncs++];
			memset(f, 0, sizeof(*f));
			f->name = t[name].text;
			f->line = t[name].line;
			f->body_tb = i;
			f->body_te = close < n ? close + 1 : n;
			parse_params(c, f, popen, pclose);
		}
		i = close;
	}
}

struct cfunc *csrc_function(const struct csrc *c, const char *name)
{
	for (size_t i = c->nfuncs; i-- > 0;)
		if (!strcmp(c->funcs[i].name, name))
			return &c->funcs[i];
	return NULL;
}

int csrc_parse(const char *path, const char *contents, size_t len,
	       const struct kconf *cfg, struct csrc **out)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	if (!contents) {
		if ((rc = strbuf_read_file(&sb, path, 64u << 20)))
			return rc;
		contents = sb.buf;
		len = sb.len;
	}
	struct csrc *c = xcalloc(1, sizeof(*c));
	c->arena = xcalloc(1, sizeof(*c->arena));
	c->path = xstrdup(path);
	c->cfg = cfg;
	/* A virtual name so that quoted #includes beside the real file are not
	 * opened: only the raw token stream is wanted. */
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char *vname = xasprintf("/gfpaudit-lex/%s", base);
	struct CXUnsavedFile uf = { vname, contents, (unsigned long)len };
	const char *args[] = { "-x", "c", "-nostdinc", "-fsyntax-only", "-w" };
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	enum CXErrorCode ec = clang_parseTranslationUnit2(idx, vname, args, 5, &uf, 1,
		CXTranslationUnit_Incomplete | CXTranslationUnit_SkipFunctionBodies |
		CXTranslationUnit_KeepGoing, &tu);
	if (ec != CXError_Success || !tu) {
		rc = err_set(GA_ETOOL, "%s: libclang could not lex the file (error %d)", path, (int)ec);
		goto cleanup;
	}
	CXFile file = clang_getFile(tu, vname);
	CXSourceRange range = clang_getRange(clang_getLocationForOffset(tu, file, 0),
					     clang_getLocationForOffset(tu, file, (unsigned)len));
	CXToken *toks = NULL;
	unsigned ntoks = 0;
	clang_tokenize(tu, range, &toks, &ntoks);

	struct lexer lx = { c, contents, len, NULL, 0, 0 };
	size_t dir_end = 0;
	struct ctok *dir = xcalloc(ntoks + 1, sizeof(*dir));
	size_t ndir = 0;
	bool in_dir = false;
	for (unsigned i = 0; i <= ntoks; i++) {
		struct ctok tk = { 0 };
		if (i < ntoks) {
			CXTokenKind kind = clang_getTokenKind(toks[i]);
			if (kind == CXToken_Comment)
				continue;
			unsigned line, col, off;
			clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i]), NULL, &line, &col, &off);
			CXString sp = clang_getTokenSpelling(tu, toks[i]);
			tk.text = ar_strdup(c, clang_getCString(sp));
			clang_disposeString(sp);
			tk.kind = kind == CXToken_Punctuation ? CT_PUNCT : kind == CXToken_Keyword ? CT_KEYWORD :
				  kind == CXToken_Identifier ? CT_IDENT : CT_LITERAL;
			tk.line = (int)line;
			tk.col = (int)col;
			tk.offset = off;
		}
		if (in_dir && (i == ntoks || tk.offset >= dir_end)) {
			directive(&lx, dir, ndir);
			in_dir = false;
			ndir = 0;
		}
		if (i == ntoks)
			break;
		if (!in_dir && tk.kind == CT_PUNCT && !strcmp(tk.text, "#") && at_line_start(contents, tk.offset)) {
			in_dir = true;
			dir_end = directive_end(contents, len, tk.offset);
		}
		if (in_dir) {
			dir[ndir++] = tk;
			continue;
		}
		if (!lx_active(&lx))
			continue;
		ALLOC_GROW(c->toks, c->ntoks + 1, c->toks_alloc);
		c->toks[c->ntoks++] = tk;
	}
	free(dir);
	free(lx.stack);
	clang_disposeTokens(tu, toks, ntoks);
	find_enums(c);
	find_functions(c);
cleanup:
	if (tu)
		clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);
	free(vname);
	strbuf_release(&sb);
	if (rc) {
		csrc_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

void csrc_free(struct csrc *c)
{
	if (!c)
		return;
	struct chunk *ch = c->arena ? c->arena->head : NULL;
	while (ch) {
		struct chunk *n = ch->next;
		free(ch);
		ch = n;
	}
	free(c->arena);
	free(c->toks);
	free(c->defs);
	free(c->enums);
	free(c->funcs);
	free(c->protos);
	free(c->path);
	free(c);
}

/* ---- control flow ---- */

static int cfg_node(struct cfg *g, enum cnode_kind k, const struct cs *s, const struct cx *e)
{
	ALLOC_GROW(g->nodes, g->n + 1, g->alloc);
	struct cnode *n = &g->nodes[g->n];
	memset(n, 0, sizeof(*n));
	n->kind = k;
	n->s = s;
	n->e = e;
	return (int)g->n++;
}

static void cfg_edge(struct cfg *g, int from, int to)
{
	struct cnode *n = &g->nodes[from];
	for (size_t i = 0; i < n->nsucc; i++)
		if (n->succ[i] == to)
			return;
	ALLOC_GROW(n->succ, n->nsucc + 1, n->succ_alloc);
	n->succ[n->nsucc++] = to;
}

struct label_ref {
	const char *name;
	int node;
};

struct cfg_ctx {
	struct cfg *g;
	struct label_ref *labels;
	size_t nlabels, labels_alloc;
	int brk, cont;
	int *cases; /* current switch's case nodes */
	size_t ncases, cases_alloc;
	bool has_default;
};

static int label_node(struct cfg_ctx *x, const char *name, const struct cs *s)
{
	for (size_t i = 0; i < x->nlabels; i++)
		if (!strcmp(x->labels[i].name, name)) {
			if (s && !x->g->nodes[x->labels[i].node].s)
				x->g->nodes[x->labels[i].node].s = s;
			return x->labels[i].node;
		}
	ALLOC_GROW(x->labels, x->nlabels + 1, x->labels_alloc);
	x->labels[x->nlabels].name = name;
	x->labels[x->nlabels].node = cfg_node(x->g, CN_LABEL, s, NULL);
	return x->labels[x->nlabels++].node;
}

static int build(struct cfg_ctx *x, const struct cs *s, int next)
{
	struct cfg *g = x->g;
	int n, c;
	if (!s)
		return next;
	switch (s->kind) {
	case CS_BLOCK:
		for (size_t i = s->nkids; i-- > 0;)
			next = build(x, s->kids[i], next);
		return next;
	case CS_DECL:
	case CS_EXPR:
	case CS_OPAQUE:
		n = cfg_node(g, CN_STMT, s, s->e);
		cfg_edge(g, n, next);
		return n;
	case CS_EMPTY:
		return next;
	case CS_LABEL:
		n = label_node(x, s->label, s);
		cfg_edge(g, n, next);
		return n;
	case CS_GOTO:
		n = cfg_node(g, CN_STMT, s, NULL);
		cfg_edge(g, n, s->label ? label_node(x, s->label, NULL) : 1);
		return n;
	case CS_RETURN:
		n = cfg_node(g, CN_STMT, s, s->e);
		cfg_edge(g, n, 1);
		return n;
	case CS_BREAK:
		n = cfg_node(g, CN_STMT, s, NULL);
		cfg_edge(g, n, x->brk >= 0 ? x->brk : 1);
		return n;
	case CS_CONTINUE:
		n = cfg_node(g, CN_STMT, s, NULL);
		cfg_edge(g, n, x->cont >= 0 ? x->cont : 1);
		return n;
	case CS_IF: {
		c = cfg_node(g, CN_COND, s, s->e);
		int t = build(x, s->body, next);
		int f = s->els ? build(x, s->els, next) : next;
		cfg_edge(g, c, t);
		cfg_edge(g, c, f);
		return c;
	}
	case CS_WHILE:
	case CS_MACROLOOP:
	case CS_FOR:
	case CS_DO: {
		int save_b = x->brk, save_c = x->cont;
		c = cfg_node(g, CN_COND, s, s->e);
		int step = c;
		if (s->kind == CS_FOR && s->step) {
			step = cfg_node(g, CN_STMT, s, s->step);
			cfg_edge(g, step, c);
		}
		x->brk = next;
		x->cont = step;
		int body = build(x, s->body, step);
		x->brk = save_b;
		x->cont = save_c;
		cfg_edge(g, c, body);
		if (!(s->kind == CS_FOR && !s->e))
			cfg_edge(g, c, next);
		if (s->kind == CS_DO)
			return body;
		if (s->kind == CS_FOR && s->init)
			return build(x, s->init, c);
		return c;
	}
	case CS_SWITCH: {
		int save_b = x->brk;
		int *save_cases = x->cases;
		size_t save_n = x->ncases, save_a = x->cases_alloc;
		bool save_d = x->has_default;
		x->cases = NULL;
		x->ncases = x->cases_alloc = 0;
		x->has_default = false;
		c = cfg_node(g, CN_COND, s, s->e);
		x->brk = next;
		build(x, s->body, next);
		for (size_t i = 0; i < x->ncases; i++)
			cfg_edge(g, c, x->cases[i]);
		if (!x->has_default)
			cfg_edge(g, c, next);
		free(x->cases);
		x->cases = save_cases;
		x->ncases = save_n;
		x->cases_alloc = save_a;
		x->has_default = save_d;
		x->brk = save_b;
		return c;
	}
	case CS_CASE:
	case CS_DEFAULT:
		n = cfg_node(g, CN_LABEL, s, NULL);
		cfg_edge(g, n, next);
		ALLOC_GROW(x->cases, x->ncases + 1, x->cases_alloc);
		x->cases[x->ncases++] = n;
		if (s->kind == CS_DEFAULT)
			x->has_default = true;
		return n;
	}
	return next;
}

void cfg_build(struct cfg *g, const struct cs *body)
{
	memset(g, 0, sizeof(*g));
	cfg_node(g, CN_ENTRY, NULL, NULL);
	cfg_node(g, CN_EXIT, NULL, NULL);
	struct cfg_ctx x = { .g = g, .brk = -1, .cont = -1 };
	int first = build(&x, body, 1);
	cfg_edge(g, 0, first);
	free(x.labels);
	free(x.cases);
}

void cfg_release(struct cfg *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->nodes[i].succ);
	free(g->nodes);
	memset(g, 0, sizeof(*g));
}
