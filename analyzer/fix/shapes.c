/* Fix shapes: the edits upstream makes to a costly-order site.
 *
 * Each shape reads the site's byte ranges and the file as written and
 * either returns edits or refuses with a reason.  The shapes are
 * conservative on purpose: a fix that changes how much memory the caller
 * gets (cap-order, order-zero, fallback-loop) is only offered when the
 * size the caller computes follows the order variable, and kvmalloc only
 * when every free of the pointer in the file can become kvfree.  Whatever a
 * shape emits is verified afterwards by re-analysis (fix.c); the checks here
 * are about what re-analysis cannot see: the caller's size math and who
 * frees the memory.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "gfpaudit/fix.h"
#include "gfpaudit/check.h"
#include "gfpaudit/err.h"
#include "gfpaudit/facts.h"
#include "gfpaudit/frees.h"
#include "lex.h"

#define NONE ((size_t)-1)
#define COSTLY_NAME "PAGE_ALLOC_COSTLY_ORDER"

struct shape {
	const struct fix_ctx *c;
	const struct site *s;  /* points at `fixed` */
	struct site fixed;     /* shallow copy with the ranges snapped to tokens */
	const char *text;
	size_t len;
	struct toks t;
	bool have_fn;
	struct fn_span fn;
	size_t call;       /* token at call_begin */
	size_t call_rp;    /* the call's ")" */
	bool have_st;
	struct stmt_span st;
	struct strbuf *note;
};

/* Every attempt with a fallback after it already has __GFP_NOWARN. */
static bool fallback_must_nowarn(const struct site *s)
{
	struct gfp_bits g;
	return site_role_mask(s, ROLE_FALLBACK, -1, &g) && gfp_must(g, GFPB(NOWARN));
}

static int refuse(struct shape *sh, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(struct shape *sh, const char *fmt, ...)
{
	va_list ap;
	strbuf_reset(sh->note);
	va_start(ap, fmt);
	strbuf_vaddf(sh->note, fmt, ap);
	va_end(ap);
	return GA_ENOTFOUND;
}

static void shape_close(struct shape *sh)
{
	toks_release(&sh->t);
}

/* Make [*b, *e) the whole call argument it starts in.  Clang's extents
 * stop at the start of a trailing macro ("GFP_KERNEL | __GFP_COMP" ends
 * where __GFP_COMP starts; a lone GFP_KERNEL is empty), and the role
 * ranges are always whole arguments, so the argument's own bounds are the
 * right ones.  A range outside the call's parentheses is not spelled at the
 * call: 0/0. */
static void snap_range(struct shape *sh, unsigned *b, unsigned *e)
{
	if (*b > *e || *e > sh->len || (*b == 0 && *e == 0))
		return;
	if (sh->call == NONE || sh->call_rp == NONE) {
		*b = *e = 0;
		return;
	}
	size_t lp = sh->call + 1, rp = sh->call_rp;
	if (*b < sh->t.v[lp].end || *b >= sh->t.v[rp].begin) {
		*b = *e = 0;
		return;
	}
	size_t start = lp + 1;
	for (size_t i = lp + 1; i <= rp; i++) {
		if (i < rp && (tok_is(&sh->t, i, "(") || tok_is(&sh->t, i, "[") || tok_is(&sh->t, i, "{"))) {
			size_t m = toks_match(&sh->t, i);
			if (m != NONE && m < rp)
				i = m;
			continue;
		}
		if (i == rp || tok_is(&sh->t, i, ",")) {
			if (i > start && sh->t.v[i - 1].end > *b) {
				*b = (unsigned)sh->t.v[start].begin;
				*e = (unsigned)sh->t.v[i - 1].end;
				return;
			}
			start = i + 1;
		}
	}
	*b = *e = 0;
}

static int shape_open(struct shape *sh, const struct fix_ctx *c, struct strbuf *note)
{
	memset(sh, 0, sizeof(*sh));
	sh->c = c;
	sh->text = c->text;
	sh->len = c->len;
	sh->note = note;
	sh->call = sh->call_rp = NONE;
	toks_scan(&sh->t, c->text, c->len);
	sh->fixed = *c->site;
	sh->s = &sh->fixed;
	const struct site *s = sh->s;
	if (s->call_begin >= s->call_end || s->call_end > c->len)
		return refuse(sh, "the call is not spelled in this file (inside a macro body)");
	sh->call = toks_at(&sh->t, s->call_begin);
	if (sh->call >= sh->t.n || sh->t.v[sh->call].begin != s->call_begin)
		return refuse(sh, "the site's offsets do not match the file");
	if (tok_is(&sh->t, sh->call + 1, "("))
		sh->call_rp = toks_match(&sh->t, sh->call + 1);
	snap_range(sh, &sh->fixed.gfp_begin, &sh->fixed.gfp_end);
	snap_range(sh, &sh->fixed.order_begin, &sh->fixed.order_end);
	sh->have_fn = toks_function(&sh->t, s->call_begin, &sh->fn);
	if (sh->have_fn)
		sh->have_st = toks_statement(&sh->t, sh->call, &sh->st);
	return 0;
}

/* ---- small text helpers -------------------------------------------- */

static char *range_str(const struct shape *sh, size_t b, size_t e)
{
	return xstrndup(sh->text + b, e - b);
}

/* Visual column of pos (tabs of 8). */
static size_t vcol(const char *text, size_t pos)
{
	size_t col = 0;
	for (size_t i = line_begin(text, pos); i < pos; i++)
		col = text[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
	return col;
}

static void add_indent_to(struct strbuf *sb, size_t col)
{
	for (size_t i = 0; i < col / 8; i++)
		strbuf_addc(sb, '\t');
	for (size_t i = 0; i < col % 8; i++)
		strbuf_addc(sb, ' ');
}

/* The text with runs of whitespace (newlines too) squeezed to one space. */
static char *squeeze(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	bool sp = false;
	for (size_t i = 0; i < n; i++) {
		if (isspace((unsigned char)s[i])) {
			sp = true;
			continue;
		}
		if (sp && sb.len)
			strbuf_addc(&sb, ' ');
		sp = false;
		strbuf_addc(&sb, s[i]);
	}
	return strbuf_detach(&sb);
}

/* Token range [tb, te) covering bytes [b, e). */
static void tok_range(const struct shape *sh, size_t b, size_t e, size_t *tb, size_t *te)
{
	*tb = toks_at(&sh->t, b);
	*te = toks_at(&sh->t, e);
}

static bool range_has_tok(const struct shape *sh, size_t tb, size_t te, const char *s)
{
	for (size_t i = tb; i < te; i++)
		if (tok_is(&sh->t, i, s))
			return true;
	return false;
}

/* Operators at the top level of tokens [tb, te) (outside brackets). */
enum {
	OP_OR = 1, OP_XOR = 2, OP_AND = 4, OP_LOGIC = 8, OP_COND = 16, OP_ASSIGN = 32,
	OP_COMMA = 64, OP_OTHER = 128,
};

static bool is_assign_op(const struct shape *sh, size_t i)
{
	static const char *const ops[] = { "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
					   "<<=", ">>=", NULL };
	for (size_t k = 0; ops[k]; k++)
		if (tok_is(&sh->t, i, ops[k]))
			return true;
	return false;
}

static bool is_operand_end(const struct shape *sh, size_t i)
{
	const struct tok *k = &sh->t.v[i];
	return k->kind != TK_PUNCT || tok_is(&sh->t, i, ")") || tok_is(&sh->t, i, "]");
}

static int top_ops(const struct shape *sh, size_t tb, size_t te)
{
	int ops = 0;
	for (size_t i = tb; i < te; i++) {
		if (tok_is(&sh->t, i, "(") || tok_is(&sh->t, i, "[")) {
			size_t m = toks_match(&sh->t, i);
			if (m == NONE || m >= te)
				return OP_OTHER | OP_COMMA; /* unbalanced: be careful */
			i = m;
			continue;
		}
		if (sh->t.v[i].kind != TK_PUNCT)
			continue;
		bool binary = i > tb && is_operand_end(sh, i - 1);
		if (tok_is(&sh->t, i, "|"))
			ops |= OP_OR;
		else if (tok_is(&sh->t, i, "^"))
			ops |= OP_XOR;
		else if (tok_is(&sh->t, i, "&") && binary)
			ops |= OP_AND;
		else if (tok_is(&sh->t, i, "&&") || tok_is(&sh->t, i, "||"))
			ops |= OP_LOGIC;
		else if (tok_is(&sh->t, i, "?") || tok_is(&sh->t, i, ":"))
			ops |= OP_COND;
		else if (is_assign_op(sh, i))
			ops |= OP_ASSIGN;
		else if (tok_is(&sh->t, i, ","))
			ops |= OP_COMMA;
		else if (binary)
			ops |= OP_OTHER;
	}
	return ops;
}

/* Top-level "|" terms of tokens [tb, te): token ranges. */
struct term {
	size_t tb, te;
};

static size_t split_or(const struct shape *sh, size_t tb, size_t te, struct term *out, size_t max)
{
	size_t n = 0, start = tb;
	for (size_t i = tb; i <= te && n < max; i++) {
		if (i == te || tok_is(&sh->t, i, "|")) {
			out[n++] = (struct term){ start, i };
			start = i + 1;
			continue;
		}
		if (tok_is(&sh->t, i, "(") || tok_is(&sh->t, i, "[")) {
			size_t m = toks_match(&sh->t, i);
			if (m != NONE && m < te)
				i = m;
		}
	}
	return n;
}

static bool term_is(const struct shape *sh, const struct term *tm, const char *s)
{
	return tm->te == tm->tb + 1 && tok_is(&sh->t, tm->tb, s);
}

/* A single-bit __GFP_ flag other than direct reclaim: it carries no
 * __GFP_DIRECT_RECLAIM and can stay outside the "& ~" group. */
static bool term_is_plain_flag(const struct shape *sh, const struct term *tm)
{
	if (tm->te != tm->tb + 1 || sh->t.v[tm->tb].kind != TK_IDENT)
		return false;
	char *s = tok_str(&sh->t, tm->tb);
	int f = !strncmp(s, "__GFP_", 6) ? gfp_flag_lookup(s) : -1;
	free(s);
	return f >= 0 && f != GFPF_DIRECT_RECLAIM;
}

/* ---- statement context --------------------------------------------- */

static int need_statement(struct shape *sh, const char *what)
{
	if (!sh->have_fn)
		return refuse(sh, "the call is not inside a function body");
	if (!sh->have_st)
		return refuse(sh, "%s needs the call in a plain statement, not inside a condition", what);
	const struct tok *f = &sh->t.v[sh->st.first];
	if (!f->bol)
		return refuse(sh, "the statement around the call does not start its line");
	if (tok_is(&sh->t, sh->st.first, "if") || tok_is(&sh->t, sh->st.first, "while") ||
	    tok_is(&sh->t, sh->st.first, "for") || tok_is(&sh->t, sh->st.first, "switch") ||
	    tok_is(&sh->t, sh->st.first, "do"))
		return refuse(sh, "%s needs the call outside a control statement's header", what);
	if (sh->st.unbraced_body && sh->st.first == 0)
		return refuse(sh, "%s needs a braced block around the call", what);
	return 0;
}

/* The unbraced body of an if/else/for/while gets braces, so statements can
 * go in front of the call: " {" after the header, "}" after the statement
 * (before an "else" on the next line: "} else"). */
static void open_block(struct shape *sh, struct fix_edits *out)
{
	size_t h = sh->st.first - 1, kw = h;
	if (tok_is(&sh->t, h, ")")) {
		size_t m = toks_match(&sh->t, h);
		if (m != NONE && m > 0)
			kw = m - 1;
	}
	char *outer = line_indent(sh->text, sh->len, sh->t.v[kw].begin);
	fix_edits_insert(out, sh->t.v[h].end, " {");
	size_t next = sh->st.last + 1;
	if (next < sh->t.n && tok_is(&sh->t, next, "else") && sh->t.v[next].bol) {
		char *r = xasprintf("%s} ", outer);
		fix_edits_replace(out, line_begin(sh->text, sh->t.v[next].begin), sh->t.v[next].begin, r);
		free(r);
	} else {
		char *r = xasprintf("%s}\n", outer);
		fix_edits_insert(out, line_end(sh->text, sh->len, sh->t.v[sh->st.last].end), r);
		free(r);
	}
	free(outer);
}

/* Is the statement "LVALUE = CALL(...);" (the call is the whole right side)? */
static bool stmt_is_assignment(const struct shape *sh, size_t *eq)
{
	if (sh->call == 0 || !tok_is(&sh->t, sh->call - 1, "=") || sh->call_rp == NONE)
		return false;
	if (sh->call_rp + 1 != sh->st.last)
		return false;
	*eq = sh->call - 1;
	/* a declaration has a type before the name: two identifiers in a row
	 * or a "*" right after the first token */
	for (size_t i = sh->st.first; i + 1 < *eq; i++) {
		if (sh->t.v[i].kind == TK_IDENT && sh->t.v[i + 1].kind == TK_IDENT)
			return false;
		if (sh->t.v[i].kind == TK_IDENT && tok_is(&sh->t, i + 1, "*") && i == sh->st.first)
			return false;
	}
	return *eq > sh->st.first;
}

static bool ident_in_function(const struct shape *sh, const char *name)
{
	for (size_t i = sh->fn.lbrace; i <= sh->fn.rbrace; i++)
		if (sh->t.v[i].kind == TK_IDENT && tok_is(&sh->t, i, name))
			return true;
	return false;
}

static const char *fresh_mask_name(const struct shape *sh)
{
	static const char *const names[] = { "alloc_gfp", "try_gfp", "costly_gfp", NULL };
	for (size_t i = 0; names[i]; i++)
		if (!ident_in_function(sh, names[i]))
			return names[i];
	return NULL;
}

/* Does the first statement after "{" look like a declaration? */
static bool starts_declaration(const struct shape *sh, size_t i)
{
	static const char *const kw[] = { "struct", "union", "enum", "const", "static", "unsigned",
		"signed", "int", "long", "short", "char", "bool", "void", "volatile", "gfp_t",
		"size_t", "ssize_t", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
		"loff_t", "pgoff_t", "unsigned", NULL };
	for (size_t k = 0; kw[k]; k++)
		if (tok_is(&sh->t, i, kw[k]))
			return true;
	if (i + 2 < sh->t.n && sh->t.v[i].kind == TK_IDENT) {
		if (sh->t.v[i + 1].kind == TK_IDENT)
			return true;
		if (tok_is(&sh->t, i + 1, "*") && sh->t.v[i + 2].kind == TK_IDENT &&
		    (tok_is(&sh->t, i + 3, "=") || tok_is(&sh->t, i + 3, ";") || tok_is(&sh->t, i + 3, ",")))
			return true;
	}
	return false;
}

/* Declare `decl` ("gfp_t alloc_gfp;") first in the block that holds the
 * statement: always legal under -Wdeclaration-after-statement. */
static int declare_in_block(struct shape *sh, struct fix_edits *out, const char *decl, const char *indent)
{
	size_t lb = sh->st.block;
	if (lb == NONE)
		return refuse(sh, "no block around the call to declare a mask in");
	size_t after = sh->t.v[lb].end;
	size_t le = line_end(sh->text, sh->len, after);
	for (size_t i = after; i < le; i++)
		if (!isspace((unsigned char)sh->text[i]))
			return refuse(sh, "the block around the call opens mid-line");
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s%s\n", indent, decl);
	if (!starts_declaration(sh, lb + 1))
		strbuf_addc(&sb, '\n');
	fix_edits_insert(out, le, sb.buf);
	strbuf_release(&sb);
	return 0;
}

/* ---- uses of a name in the function --------------------------------- */

struct use {
	size_t tok;
	bool assign;   /* assigned or declared here, not read */
};

static bool is_member_tok(const struct shape *sh, size_t i)
{
	return i > 0 && (tok_is(&sh->t, i - 1, "->") || tok_is(&sh->t, i - 1, "."));
}

/* Occurrences of identifier token `name` (a member name when member is set)
 * in the function body outside [skip_b, skip_e) tokens. */
static size_t find_uses(const struct shape *sh, const char *name, bool member,
			size_t skip_b, size_t skip_e, struct use *out, size_t max)
{
	size_t n = 0;
	for (size_t i = sh->fn.lbrace; i <= sh->fn.rbrace && n < max; i++) {
		if (i >= skip_b && i < skip_e)
			continue;
		if (sh->t.v[i].kind != TK_IDENT || !tok_is(&sh->t, i, name) || is_member_tok(sh, i) != member)
			continue;
		bool assign = (is_assign_op(sh, i + 1) && !tok_is(&sh->t, i + 1, "==")) ||
			      tok_is(&sh->t, i + 1, "++") || tok_is(&sh->t, i + 1, "--") ||
			      tok_is(&sh->t, i - 1, "++") || tok_is(&sh->t, i - 1, "--");
		/* "unsigned int order;" / "int order, i;" */
		if (!assign && i > 0 && (sh->t.v[i - 1].kind == TK_IDENT || tok_is(&sh->t, i - 1, "*")) &&
		    (tok_is(&sh->t, i + 1, ";") || tok_is(&sh->t, i + 1, ",")) && !member)
			assign = true;
		out[n++] = (struct use){ i, assign };
	}
	return n;
}

/* Is this read harmless for sizing: a comparison or a check? */
static bool use_is_check(const struct shape *sh, size_t i)
{
	static const char *const cmp[] = { "<", ">", "<=", ">=", "==", "!=", NULL };
	for (size_t k = 0; cmp[k]; k++)
		if (tok_is(&sh->t, i + 1, cmp[k]) || tok_is(&sh->t, i - 1, cmp[k]))
			return true;
	return tok_is(&sh->t, i - 1, "!");
}

/* A pointer to follow: the tokens of an lvalue ("buf", "priv->table"). */
struct ptr_key {
	struct toks t;    /* tokens of the lvalue text */
	char *member;     /* last member name when the lvalue is a member access */
};

/* Does the token sequence at i of sh match key (exactly, or by member)? */
static size_t match_key(const struct shape *sh, size_t i, size_t end, const struct ptr_key *k)
{
	if (k->member) {
		/* any "...->member" or "....member" ending right before `end` */
		if (end >= 2 && end - 1 >= i && tok_is(&sh->t, end - 1, k->member) &&
		    (tok_is(&sh->t, end - 2, "->") || tok_is(&sh->t, end - 2, ".")))
			return end;
		return NONE;
	}
	if (end - i != k->t.n)
		return NONE;
	for (size_t j = 0; j < k->t.n; j++) {
		size_t n1 = sh->t.v[i + j].end - sh->t.v[i + j].begin, n2 = k->t.v[j].end - k->t.v[j].begin;
		if (n1 != n2 || memcmp(sh->text + sh->t.v[i + j].begin, k->t.text + k->t.v[j].begin, n1))
			return NONE;
	}
	return end;
}

/* Does any argument of the call whose "(" is at lp mention the key? */
static bool args_mention(const struct shape *sh, size_t lp, const struct ptr_key *k)
{
	size_t rp = toks_match(&sh->t, lp);
	if (rp == NONE)
		return false;
	for (size_t i = lp + 1; i < rp; i++) {
		if (k->member) {
			if (tok_is(&sh->t, i, k->member) && is_member_tok(sh, i))
				return true;
		} else if (i + k->t.n <= rp && match_key(sh, i, i + k->t.n, k) != NONE) {
			return true;
		}
	}
	return false;
}

/* The key of an lvalue's text: its tokens, and the member it ends in. */
static bool key_from_text(struct ptr_key *key, const char *lv, size_t n)
{
	memset(key, 0, sizeof(*key));
	toks_scan(&key->t, lv, n);
	if (!key->t.n) {
		toks_release(&key->t);
		return false;
	}
	if (key->t.n >= 3 && key->t.v[key->t.n - 1].kind == TK_IDENT &&
	    (tok_is(&key->t, key->t.n - 2, "->") || tok_is(&key->t, key->t.n - 2, ".")))
		key->member = tok_str(&key->t, key->t.n - 1);
	return true;
}

/* The key of the site's result, or false when it is not stored. */
static bool result_key(const struct shape *sh, struct ptr_key *key)
{
	const char *lv = sh->s->result_lvalue;
	if (!lv || !*lv) {
		memset(key, 0, sizeof(*key));
		return false;
	}
	return key_from_text(key, lv, strlen(lv));
}

static void key_release(struct ptr_key *key)
{
	free(key->member);
	toks_release(&key->t);
}

/* The first "__free_pages(P, ORDER)" / "free_pages(P, ORDER)" of the
 * result in the file: token index of the free's name, and its order
 * argument's tokens [*ob, *oe); NONE when there is none. */
static size_t find_order_free(const struct shape *sh, const struct ptr_key *key, size_t *ob, size_t *oe)
{
	for (size_t i = 0; i + 1 < sh->t.n; i++) {
		if (sh->t.v[i].pp || !(tok_is(&sh->t, i, "__free_pages") || tok_is(&sh->t, i, "free_pages")) ||
		    !tok_is(&sh->t, i + 1, "("))
			continue;
		size_t rp = toks_match(&sh->t, i + 1), comma = NONE;
		if (rp == NONE)
			continue;
		for (size_t k = i + 2; k < rp; k++) {
			if (tok_is(&sh->t, k, "(")) {
				size_t m = toks_match(&sh->t, k);
				if (m != NONE)
					k = m;
				continue;
			}
			if (tok_is(&sh->t, k, ",")) {
				comma = k;
				break;
			}
		}
		if (comma == NONE)
			continue;
		bool mentions = false;
		for (size_t k = i + 2; k < comma && !mentions; k++) {
			if (key->member)
				mentions = tok_is(&sh->t, k, key->member) && is_member_tok(sh, k);
			else
				mentions = k + key->t.n <= comma && match_key(sh, k, k + key->t.n, key) != NONE;
		}
		if (mentions) {
			*ob = comma + 1;
			*oe = rp;
			return i;
		}
	}
	return NONE;
}

enum order_how {
	ORD_LITERAL,    /* 4 */
	ORD_MACRO,      /* RING_ORDER */
	ORD_LOCAL,      /* a local variable */
	ORD_EXPR,       /* anything else, no name of it used elsewhere */
};

struct order_info {
	enum order_how how;
	char *name;          /* ORD_MACRO / ORD_LOCAL */
	size_t define_tok;   /* ORD_MACRO: the value token of "#define NAME value" in this file */
	bool used_after;     /* ORD_LOCAL: read after the call statement */
	int after_line;
};

/* "order = get_order(req->block_size);": when what the order is computed
 * from also sizes other code of the function, that size is a requirement
 * (a ring of blocks of that size), not a wish a smaller order can meet. */
static int required_size(struct shape *sh, const char *var, size_t at)
{
	size_t i = at + 1;
	if (!is_assign_op(sh, i))
		return 0;
	size_t end = i + 1;
	while (end < sh->fn.rbrace && !tok_is(&sh->t, end, ";")) {
		if (tok_is(&sh->t, end, "(")) {
			size_t m = toks_match(&sh->t, end);
			if (m == NONE)
				return 0;
			end = m;
		}
		end++;
	}
	struct use uses[64];
	for (size_t k = i + 1; k < end; k++) {
		if (sh->t.v[k].kind != TK_IDENT || tok_is(&sh->t, k + 1, "(") || tok_is(&sh->t, k + 1, "->") ||
		    tok_is(&sh->t, k + 1, "."))
			continue;
		char *name = tok_str(&sh->t, k);
		bool lower = false;
		for (const char *p = name; *p; p++)
			lower = lower || islower((unsigned char)*p);
		int rc = 0;
		if (lower && strcmp(name, var)) {
			size_t n = find_uses(sh, name, is_member_tok(sh, k), at, end, uses, 64);
			for (size_t u = 0; u < n && !rc; u++) {
				if (uses[u].assign || use_is_check(sh, uses[u].tok) ||
				    (uses[u].tok >= sh->call && uses[u].tok <= sh->call_rp))
					continue;
				rc = refuse(sh, "'%s' is computed from '%s' (line %d), which also sizes other code "
					    "(line %d): the caller needs that size, not a smaller order", var, name,
					    line_of(sh->text, sh->t.v[at].begin),
					    line_of(sh->text, sh->t.v[uses[u].tok].begin));
			}
		}
		free(name);
		if (rc)
			return rc;
	}
	return 0;
}

/* Classify the order argument and refuse when the caller's size math
 * cannot follow a changed order.  `what` names the shape for reasons. */
static int order_analysis_inner(struct shape *sh, const char *what, struct order_info *oi);

static int order_analysis(struct shape *sh, const char *what, struct order_info *oi)
{
	int rc = order_analysis_inner(sh, what, oi);
	if (rc) {
		free(oi->name);
		oi->name = NULL;
	}
	return rc;
}

/* "min_order", mapping_min_folio_order(): a floor the caller must get (a
 * mapping's minimum folio size), not a wish to trade down */
static int refuse_minimum_order(struct shape *sh, size_t tb, size_t te)
{
	const struct site *s = sh->s;
	for (size_t i = tb; i < te; i++) {
		if (sh->t.v[i].kind != TK_IDENT)
			continue;
		char *name = tok_str(&sh->t, i);
		bool is_min = false;
		for (char *c = strtok(name, "_"); c && !is_min; c = strtok(NULL, "_"))
			is_min = !strcasecmp(c, "min") || !strcasecmp(c, "minimum");
		free(name);
		if (is_min)
			return refuse(sh, "'%.*s' is a minimum order the caller needs: a lower order would "
				      "break it", (int)(s->order_end - s->order_begin), sh->text + s->order_begin);
	}
	return 0;
}

/* An order spelled as a number: the same number shifted elsewhere in the
 * function is the size the caller derives from it ("PAGE_SIZE << 4"). */
static int literal_order(struct shape *sh, size_t tb, struct order_info *oi)
{
	const struct tok *v = sh->t.v;
	size_t n = v[tb].end - v[tb].begin;
	oi->how = ORD_LITERAL;
	for (size_t i = sh->fn.lbrace; i < sh->fn.rbrace; i++)
		if (i != tb && v[i].kind == TK_NUMBER && tok_is(&sh->t, i - 1, "<<") && v[i].end - v[i].begin == n &&
		    !memcmp(sh->text + v[i].begin, sh->text + v[tb].begin, n))
			return refuse(sh, "the order %.*s also sizes other code in '%s' (line %d): "
				      "the size math would not follow", (int)n, sh->text + v[tb].begin,
				      sh->s->function, line_of(sh->text, v[i].begin));
	return 0;
}

/* An upper-case name: a macro, changed at its "#define NAME value" when
 * this file has one; one used elsewhere and defined elsewhere is refused. */
static int macro_order(struct shape *sh, size_t tb, size_t te, struct order_info *oi)
{
	const char *name = oi->name;
	struct use uses[64];
	oi->how = ORD_MACRO;
	for (size_t i = 0; i + 3 < sh->t.n; i++)
		if (sh->t.v[i].pp && tok_is(&sh->t, i, "#") && tok_is(&sh->t, i + 1, "define") &&
		    tok_is(&sh->t, i + 2, name) && sh->t.v[i + 3].kind == TK_NUMBER &&
		    (i + 4 >= sh->t.n || !sh->t.v[i + 4].pp || sh->t.v[i + 4].bol))
			oi->define_tok = i + 3;
	size_t n = find_uses(sh, name, false, tb, te, uses, 64);
	if (n && oi->define_tok == NONE)
		return refuse(sh, "'%s' also sizes other code in '%s' (line %d) and is not "
			      "defined in this file: change it where it is defined",
			      name, sh->s->function, line_of(sh->text, sh->t.v[uses[0].tok].begin));
	return 0;
}

/* A local variable: refused when what it is computed from is a required
 * size or when it sized something before the call; a read after the call
 * is noted (the free must follow). */
static int local_order(struct shape *sh, size_t tb, size_t te, struct order_info *oi)
{
	const char *name = oi->name;
	struct use uses[64];
	oi->how = ORD_LOCAL;
	size_t n = find_uses(sh, name, false, tb, te, uses, 64);
	size_t stf = sh->have_st ? sh->st.first : sh->call, stl = sh->have_st ? sh->st.last : sh->call;
	for (size_t k = 0; k < n; k++) {
		if (uses[k].assign && uses[k].tok < stf) {
			int rc = required_size(sh, name, uses[k].tok);
			if (rc)
				return rc;
		}
		if (uses[k].assign || use_is_check(sh, uses[k].tok))
			continue;
		if (uses[k].tok < stf)
			return refuse(sh, "'%s' already sized something before the call (line %d): "
				      "the size math would not follow", name,
				      line_of(sh->text, sh->t.v[uses[k].tok].begin));
		if (uses[k].tok > stl && !oi->used_after) {
			oi->used_after = true;
			oi->after_line = line_of(sh->text, sh->t.v[uses[k].tok].begin);
		}
	}
	return 0;
}

/* A helper called in the order expression at token i computes the order:
 * called anywhere else, the free or size path recomputes it. */
static int refuse_helper_called_elsewhere(struct shape *sh, size_t i, const char *name)
{
	int rc = 0;
	for (size_t k = 0; k + 1 < sh->t.n && !rc; k++) {
		if (k == i || !tok_is(&sh->t, k, name) || !tok_is(&sh->t, k + 1, "(") || sh->t.v[k].pp)
			continue;
		struct fn_span other;
		if (!toks_function(&sh->t, sh->t.v[k].begin, &other))
			continue; /* its definition or a prototype */
		rc = refuse(sh, "'%s()' also computes the order at line %d: it would not follow",
			    name, line_of(sh->text, sh->t.v[k].begin));
	}
	return rc;
}

/* Any other expression: refused when a helper that computes it, or a
 * variable it reads, also sizes other code. */
static int expr_order(struct shape *sh, size_t tb, size_t te, struct order_info *oi)
{
	static const char *const math[] = { "get_order", "ilog2", "order_base_2", "fls", "fls64", "__fls",
		"min", "max", "min_t", "max_t", "clamp", "clamp_t", "clamp_val", "DIV_ROUND_UP",
		"roundup_pow_of_two", "rounddown_pow_of_two", "PAGE_ALIGN", "ALIGN", "sizeof",
		"array_size", "struct_size", "size_mul", NULL };
	oi->how = ORD_EXPR;
	size_t skip_until = 0; /* inside the arguments of a helper: object handles */
	for (size_t i = tb; i < te; i++) {
		if (i < skip_until || sh->t.v[i].kind != TK_IDENT)
			continue;
		char *name = tok_str(&sh->t, i);
		int rc = 0;
		if (tok_is(&sh->t, i + 1, "(")) {
			bool is_math = false;
			for (size_t k = 0; math[k]; k++)
				is_math = is_math || !strcmp(math[k], name);
			if (!is_math) {
				size_t m = toks_match(&sh->t, i + 1);
				skip_until = m == NONE ? te : m;
				rc = refuse_helper_called_elsewhere(sh, i, name);
			}
			free(name);
			if (rc)
				return rc;
			continue;
		}
		bool lower = false;
		for (const char *p = name; *p; p++)
			if (islower((unsigned char)*p))
				lower = true;
		/* "r->size": the member is the value, "r" only the handle */
		if (lower && !tok_is(&sh->t, i + 1, "->") && !tok_is(&sh->t, i + 1, ".")) {
			struct use uses[64];
			size_t n = find_uses(sh, name, is_member_tok(sh, i), tb, te, uses, 64);
			for (size_t k = 0; k < n && !rc; k++) {
				if (uses[k].assign || use_is_check(sh, uses[k].tok))
					continue;
				rc = refuse(sh, "'%s' of the order also sizes other code in '%s' (line %d): "
					    "the size math would not follow", name, sh->s->function,
					    line_of(sh->text, sh->t.v[uses[k].tok].begin));
			}
		}
		free(name);
		if (rc)
			return rc;
	}
	return 0;
}

static int order_analysis_inner(struct shape *sh, const char *what, struct order_info *oi)
{
	const struct site *s = sh->s;
	memset(oi, 0, sizeof(*oi));
	oi->define_tok = NONE;
	if (s->kind != API_PAGES && s->kind != API_WRAPPER)
		return refuse(sh, "%s changes an order argument; '%s' takes a size", what, s->api);
	if (s->order_begin >= s->order_end || s->order_end > sh->len)
		return refuse(sh, "the order is not spelled at the call in this file");
	if (!sh->have_fn)
		return refuse(sh, "the call is not inside a function body");
	size_t tb, te;
	tok_range(sh, s->order_begin, s->order_end, &tb, &te);
	int rc = refuse_minimum_order(sh, tb, te);
	if (rc)
		return rc;
	if (te == tb + 1 && sh->t.v[tb].kind == TK_NUMBER)
		return literal_order(sh, tb, oi);
	if (te != tb + 1 || sh->t.v[tb].kind != TK_IDENT)
		return expr_order(sh, tb, te, oi);
	oi->name = tok_str(&sh->t, tb);
	bool macro = true;
	for (const char *p = oi->name; *p; p++)
		if (islower((unsigned char)*p))
			macro = false;
	if (macro)
		return macro_order(sh, tb, te, oi);
	if (fn_is_param(&sh->t, &sh->fn, oi->name))
		return refuse(sh, "'%s' comes from the caller, which sizes its use by it: "
			      "change the order there", oi->name);
	return local_order(sh, tb, te, oi);
}

/* Replace the order (argument, #define or a statement before the call) by
 * `value`, or by min_t(unsigned int, ORDER, value) when `cap`. */
static int rewrite_order(struct shape *sh, const char *what, const char *value, bool cap,
			 struct fix_edits *out)
{
	const struct site *s = sh->s;
	struct order_info oi;
	int rc = order_analysis(sh, what, &oi);
	if (rc)
		return rc;
	/* The free must use the same order as the allocation: a change at the
	 * call alone leaves "__free_pages(p, 4)" behind. */
	bool at_call = oi.how == ORD_LITERAL || oi.how == ORD_EXPR ||
		       (oi.how == ORD_MACRO && oi.define_tok == NONE) || (oi.how == ORD_LOCAL && !oi.used_after);
	struct ptr_key key;
	bool free_seen = false;
	if (result_key(sh, &key)) {
		size_t ob, oe, fi = find_order_free(sh, &key, &ob, &oe);
		bool follows = fi != NONE && oi.name && !at_call && range_has_tok(sh, ob, oe, oi.name);
		free_seen = fi != NONE;
		if (fi != NONE && !follows) {
			rc = refuse(sh, "'%s' is freed with its own order at line %d: %s the call alone would "
				    "free the wrong order", s->result_lvalue, line_of(sh->text, sh->t.v[fi].begin),
				    at_call ? "changing" : "changing the order before");
			key_release(&key);
			free(oi.name);
			return rc;
		}
		key_release(&key);
	}
	char *arg = range_str(sh, s->order_begin, s->order_end);
	struct strbuf sb = STRBUF_INIT;
	strbuf_reset(sh->note);
	switch (oi.how) {
	case ORD_LITERAL:
		fix_edits_replace(out, s->order_begin, s->order_end, value);
		strbuf_addf(sh->note, "order %s becomes %s; the caller's size math must follow", arg, value);
		break;
	case ORD_MACRO:
		if (oi.define_tok != NONE) {
			const struct tok *v = &sh->t.v[oi.define_tok];
			fix_edits_replace(out, v->begin, v->end, value);
			strbuf_addf(sh->note, "'%s' becomes %s where it is defined, so every size computed "
				    "from it follows", oi.name, value);
		} else if (cap) {
			strbuf_addf(&sb, "min_t(unsigned int, %s, %s)", arg, value);
			fix_edits_replace(out, s->order_begin, s->order_end, sb.buf);
			strbuf_addf(sh->note, "caps '%s' at the call; the caller's size math must follow", arg);
		} else {
			fix_edits_replace(out, s->order_begin, s->order_end, value);
			strbuf_addf(sh->note, "order '%s' becomes %s at the call; the caller's size math must follow",
				    arg, value);
		}
		break;
	case ORD_LOCAL:
		if (oi.used_after) {
			/* the obvious rewrite: lower the variable itself, so
			 * what is computed from it after the call follows */
			if ((rc = need_statement(sh, what)))
				break;
			if (sh->st.unbraced_body)
				open_block(sh, out);
			char *ind = line_indent(sh->text, sh->len, sh->t.v[sh->st.first].begin);
			if (cap)
				strbuf_addf(&sb, "%s%s = min_t(unsigned int, %s, %s);\n", ind, oi.name, oi.name, value);
			else
				strbuf_addf(&sb, "%s%s = %s;\n", ind, oi.name, value);
			fix_edits_insert(out, line_begin(sh->text, sh->t.v[sh->st.first].begin), sb.buf);
			free(ind);
			strbuf_addf(sh->note, "%s '%s' before the call, so the size computed from it on line %d "
				    "follows", cap ? "caps" : "zeroes", oi.name, oi.after_line);
			break;
		}
		/* fallthrough */
	case ORD_EXPR:
		if (cap) {
			strbuf_addf(&sb, "min_t(unsigned int, %s, %s)", arg, value);
			fix_edits_replace(out, s->order_begin, s->order_end, sb.buf);
			strbuf_addf(sh->note, "caps the order at the call; the caller's size math must follow");
		} else {
			fix_edits_replace(out, s->order_begin, s->order_end, value);
			strbuf_addf(sh->note, "order '%s' becomes %s; the caller's size math must follow", arg, value);
		}
		break;
	}
	if (!rc && at_call && !free_seen)
		strbuf_addf(sh->note, "; whoever frees it must pass the new order");
	strbuf_release(&sb);
	free(arg);
	free(oi.name);
	return rc;
}

/* ---- the shapes ------------------------------------------------------ */

static int need_gfp(struct shape *sh)
{
	const struct site *s = sh->s;
	if (s->gfp_begin >= s->gfp_end || s->gfp_end > sh->len)
		return refuse(sh, "the gfp mask is not spelled at the call in this file");
	return 0;
}

/* A list of mask terms to be joined with " | ". */
struct mask_terms {
	char *v[40];
	size_t n;
};

static void mt_add(struct mask_terms *m, char *owned)
{
	if (m->n < 40)
		m->v[m->n++] = owned;
	else
		free(owned);
}

static void mt_release(struct mask_terms *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i]);
	m->n = 0;
}

/* Replace the mask argument with the terms joined by " | ", broken after a
 * "|" and aligned with the argument when a line would pass 80 columns. */
static void emit_mask(struct shape *sh, const struct mask_terms *m, struct fix_edits *out)
{
	const struct site *s = sh->s;
	size_t c0 = vcol(sh->text, s->gfp_begin);
	size_t le = line_end(sh->text, sh->len, s->gfp_end);
	size_t rest = le - s->gfp_end - (le > s->gfp_end && sh->text[le - 1] == '\n' ? 1 : 0);
	struct strbuf sb = STRBUF_INIT;
	size_t cur = c0;
	for (size_t i = 0; i < m->n; i++) {
		size_t tl = strlen(m->v[i]) + (i + 1 == m->n ? rest : 0);
		if (i == 0) {
			strbuf_adds(&sb, m->v[i]);
			cur += strlen(m->v[i]);
		} else if (cur + 3 + tl > 80) {
			strbuf_adds(&sb, " |\n");
			add_indent_to(&sb, c0);
			strbuf_adds(&sb, m->v[i]);
			cur = c0 + strlen(m->v[i]);
		} else {
			strbuf_addf(&sb, " | %s", m->v[i]);
			cur += 3 + strlen(m->v[i]);
		}
	}
	fix_edits_replace(out, s->gfp_begin, s->gfp_end, sb.buf);
	strbuf_release(&sb);
}

static char *term_text(const struct shape *sh, const struct term *tm)
{
	size_t b = sh->t.v[tm->tb].begin, e = sh->t.v[tm->te - 1].end;
	return squeeze(sh->text + b, e - b);
}

/* The mask's own top-level terms, or the whole mask in parentheses when its
 * operators bind looser than "|" (?:, &&, ||, =, ","). */
static void mask_terms_of(struct shape *sh, size_t tb, size_t te, struct mask_terms *m)
{
	const struct site *s = sh->s;
	if (top_ops(sh, tb, te) & (OP_LOGIC | OP_COND | OP_ASSIGN | OP_COMMA)) {
		char *x = squeeze(sh->text + s->gfp_begin, s->gfp_end - s->gfp_begin);
		mt_add(m, xasprintf("(%s)", x));
		free(x);
		return;
	}
	struct term terms[40];
	size_t n = split_or(sh, tb, te, terms, 40);
	for (size_t i = 0; i < n; i++)
		if (terms[i].te > terms[i].tb)
			mt_add(m, term_text(sh, &terms[i]));
}

/* Append flags the mask does not spell yet: "EXPR | A | B". */
static int append_flags(struct shape *sh, const char *const *flags, struct fix_edits *out,
			struct strbuf *added)
{
	const struct site *s = sh->s;
	int rc = need_gfp(sh);
	if (rc)
		return rc;
	size_t tb, te;
	tok_range(sh, s->gfp_begin, s->gfp_end, &tb, &te);
	strbuf_reset(added);
	for (size_t i = 0; flags[i]; i++)
		if (!range_has_tok(sh, tb, te, flags[i]))
			strbuf_addf(added, "%s%s", added->len ? " | " : "", flags[i]);
	if (!added->len)
		return refuse(sh, "the mask already spells the flags (the analysis sees a path without them)");
	struct mask_terms m = { .n = 0 };
	mask_terms_of(sh, tb, te, &m);
	for (size_t i = 0; flags[i]; i++)
		if (!range_has_tok(sh, tb, te, flags[i]))
			mt_add(&m, xstrdup(flags[i]));
	emit_mask(sh, &m, out);
	mt_release(&m);
	return 0;
}

static int shape_add_noretry(struct shape *sh, struct fix_edits *out);

static int shape_add_nowarn(struct shape *sh, struct fix_edits *out)
{
	static const char *const flags[] = { "__GFP_NOWARN", NULL };
	struct strbuf added = STRBUF_INIT;
	int rc = append_flags(sh, flags, out, &added);
	if (!rc) {
		strbuf_reset(sh->note);
		strbuf_addf(sh->note, "adds %s: a __GFP_NORETRY attempt is expected to fail quietly", added.buf);
	}
	strbuf_release(&added);
	return rc;
}

/* The floor of an order loop as text ("0", or the loop's named floor). */
static char *floor_text(const struct shape *sh)
{
	const struct site *s0 = sh->s;
	bool order_is_min = s0->order_end - s0->order_begin == 9 &&
			    !memcmp(sh->text + s0->order_begin, "min_order", 9);
	if (sh->have_fn && !order_is_min && ident_in_function(sh, "min_order"))
		return xstrdup("min_order");
	const struct site *s = sh->s;
	return xasprintf("%d", s->order.known && s->order.lo > 0 ? s->order.lo : 0);
}

/* Is the order argument safe to evaluate twice (no calls, no side effects)? */
static bool order_is_pure(const struct shape *sh, char **text)
{
	const struct site *s = sh->s;
	if (s->order_begin >= s->order_end || s->order_end > sh->len)
		return false;
	size_t tb, te;
	tok_range(sh, s->order_begin, s->order_end, &tb, &te);
	for (size_t i = tb; i < te; i++)
		if (tok_is(&sh->t, i, "(") || is_assign_op(sh, i) || tok_is(&sh->t, i, "++") ||
		    tok_is(&sh->t, i, "--"))
			return false;
	*text = squeeze(sh->text + s->order_begin, s->order_end - s->order_begin);
	if (top_ops(sh, tb, te)) {
		char *p = xasprintf("(%s)", *text);
		free(*text);
		*text = p;
	}
	return true;
}

/* Put per-order mask logic `body` (lines already indented one level below
 * `ind`) in front of the call statement, working on a mask variable that the
 * call then uses.  An existing local mask that only this call reads is
 * reused (the page cache's alloc_gfp); otherwise a new one is declared. */
static int conditional_mask(struct shape *sh, const char *what, const char *body_fmt,
			    const char *body_fmt_nowarn, struct fix_edits *out)
{
	const struct site *s = sh->s;
	int rc = need_gfp(sh);
	if (rc || (rc = need_statement(sh, what)))
		return rc;
	char *ord;
	if (!order_is_pure(sh, &ord))
		return refuse(sh, "the order argument has side effects; it cannot be tested before the call");
	size_t tb, te;
	tok_range(sh, s->gfp_begin, s->gfp_end, &tb, &te);
	char *ind = line_indent(sh->text, sh->len, sh->t.v[sh->st.first].begin);
	char *var = NULL;
	bool reuse = false;
	if (te == tb + 1 && sh->t.v[tb].kind == TK_IDENT) {
		char *name = tok_str(&sh->t, tb);
		struct use uses[64];
		size_t n = find_uses(sh, name, false, tb, te, uses, 64);
		bool declared_here = false, read_elsewhere = false;
		for (size_t k = 0; k < n; k++) {
			struct stmt_span ds;
			/* declared in the block of the call, so it starts afresh
			 * each time the block runs (an order loop's body) */
			if (uses[k].tok < sh->st.first && uses[k].assign &&
			    sh->t.v[uses[k].tok - 1].kind == TK_IDENT &&
			    toks_statement(&sh->t, uses[k].tok, &ds) && ds.block == sh->st.block)
				declared_here = true;
			if (!uses[k].assign && (uses[k].tok > sh->st.last || uses[k].tok < sh->st.first))
				read_elsewhere = true;
		}
		if (declared_here && !read_elsewhere && !fn_is_param(&sh->t, &sh->fn, name)) {
			var = name;
			reuse = true;
		} else {
			free(name);
		}
	}
	if (!var) {
		const char *fresh = fresh_mask_name(sh);
		if (!fresh) {
			free(ind);
			free(ord);
			return refuse(sh, "no free name for a local mask");
		}
		var = xstrdup(fresh);
	}
	struct strbuf sb = STRBUF_INIT;
	bool fresh_block = sh->st.unbraced_body || (sh->st.block != NONE && sh->st.first == sh->st.block + 1);
	if (sh->st.unbraced_body)
		open_block(sh, out);
	/* a mask that already says __GFP_NOWARN for these attempts does not
	 * need it again */
	if (range_has_tok(sh, tb, te, "__GFP_NOWARN") || fallback_must_nowarn(s))
		body_fmt = body_fmt_nowarn;
	if (!reuse && fresh_block) {
		/* the call opens its block: declare and set the mask right there */
		char *g = squeeze(sh->text + s->gfp_begin, s->gfp_end - s->gfp_begin);
		strbuf_addf(&sb, "%sgfp_t %s = %s;\n\n", ind, var, g);
		free(g);
		fix_edits_replace(out, s->gfp_begin, s->gfp_end, var);
	} else if (!reuse) {
		char *decl = xasprintf("gfp_t %s;", var);
		rc = declare_in_block(sh, out, decl, ind);
		free(decl);
		if (rc)
			goto cleanup;
		char *g = squeeze(sh->text + s->gfp_begin, s->gfp_end - s->gfp_begin);
		strbuf_addf(&sb, "%s%s = %s;\n", ind, var, g);
		free(g);
		fix_edits_replace(out, s->gfp_begin, s->gfp_end, var);
	}
	char *fl = floor_text(sh);
	/* body_fmt: %1$s indent, %2$s var, %3$s order, %4$s floor */
	struct strbuf body = STRBUF_INIT;
	for (const char *p = body_fmt; *p; p++) {
		if (*p == '@' && p[1]) {
			p++;
			strbuf_adds(&body, *p == 'i' ? ind : *p == 'v' ? var : *p == 'o' ? ord : *p == 'f' ? fl : "");
			continue;
		}
		strbuf_addc(&body, *p);
	}
	strbuf_add(&sb, body.buf, body.len);
	strbuf_release(&body);
	free(fl);
	fix_edits_insert(out, line_begin(sh->text, sh->t.v[sh->st.first].begin), sb.buf);
	strbuf_reset(sh->note);
	strbuf_addf(sh->note, "%s the mask '%s' per order before the call", reuse ? "adjusts" : "computes", var);
cleanup:
	strbuf_release(&sb);
	free(var);
	free(ind);
	free(ord);
	return rc;
}

static bool order_loop_floor_at_call(const struct shape *sh)
{
	/* the call also makes the loop's last attempt: the floor keeps its mask */
	return sh->s->fallback == FB_ORDER_LOOP &&
	       (!sh->s->order.known || sh->s->order.lo < sh->s->order.hi);
}

static int shape_add_noretry(struct shape *sh, struct fix_edits *out)
{
	if (order_loop_floor_at_call(sh)) {
		int rc = conditional_mask(sh, "add-noretry",
			"@iif (@o > @f)\n@i\t@v |= __GFP_NORETRY | __GFP_NOWARN;\n",
			"@iif (@o > @f)\n@i\t@v |= __GFP_NORETRY;\n", out);
		if (!rc) {
			strbuf_addf(sh->note, ": attempts above the loop's floor give up early and quietly, "
				    "the floor keeps the caller's mask");
		}
		return rc;
	}
	static const char *const flags[] = { "__GFP_NORETRY", "__GFP_NOWARN", NULL };
	struct strbuf added = STRBUF_INIT;
	int rc = append_flags(sh, flags, out, &added);
	if (!rc) {
		strbuf_reset(sh->note);
		strbuf_addf(sh->note, "adds %s to the attempt that has a fallback", added.buf);
	}
	strbuf_release(&added);
	return rc;
}

/* (EXPR & ~__GFP_DIRECT_RECLAIM) | __GFP_NOWARN: composite terms get the
 * "& ~", single flags stay outside, __GFP_DIRECT_RECLAIM goes and
 * __GFP_RECLAIM becomes __GFP_KSWAPD_RECLAIM. */
static int strip_inline(struct shape *sh, struct fix_edits *out)
{
	const struct site *s = sh->s;
	size_t tb, te;
	tok_range(sh, s->gfp_begin, s->gfp_end, &tb, &te);
	int ops = top_ops(sh, tb, te);
	struct mask_terms m = { .n = 0 };
	if (ops & (OP_LOGIC | OP_COND | OP_ASSIGN | OP_COMMA | OP_XOR)) {
		char *x = squeeze(sh->text + s->gfp_begin, s->gfp_end - s->gfp_begin);
		mt_add(&m, xasprintf("((%s) & ~__GFP_DIRECT_RECLAIM)", x));
		free(x);
	} else {
		struct term terms[40];
		size_t n = split_or(sh, tb, te, terms, 40);
		if (n == 40)
			return refuse(sh, "the mask has too many terms");
		for (size_t i = 0; i < n; i++) {
			const struct term *tm = &terms[i];
			if (tm->te <= tm->tb || term_is(sh, tm, "__GFP_DIRECT_RECLAIM"))
				continue;
			if (term_is(sh, tm, "__GFP_RECLAIM")) {
				mt_add(&m, xstrdup("__GFP_KSWAPD_RECLAIM"));
			} else if (term_is_plain_flag(sh, tm)) {
				mt_add(&m, term_text(sh, tm));
			} else {
				char *x = term_text(sh, tm);
				bool inner = top_ops(sh, tm->tb, tm->te) & ~(OP_AND | OP_OTHER);
				mt_add(&m, xasprintf(inner ? "((%s) & ~__GFP_DIRECT_RECLAIM)" :
						     "(%s & ~__GFP_DIRECT_RECLAIM)", x));
				free(x);
			}
		}
	}
	/* a mask that already has it (at the call, or set before it for
	 * every attempt with a fallback) does not get it twice */
	if (!range_has_tok(sh, tb, te, "__GFP_NOWARN") && !fallback_must_nowarn(s))
		mt_add(&m, xstrdup("__GFP_NOWARN"));
	emit_mask(sh, &m, out);
	mt_release(&m);
	return 0;
}

static int shape_strip_direct_reclaim(struct shape *sh, struct fix_edits *out)
{
	const struct site *s = sh->s;
	int costly = sh->c->costly_order;
	int rc = need_gfp(sh);
	if (rc)
		return rc;
	if (s->order.known && s->order.lo > costly) {
		size_t tb, te;
		tok_range(sh, s->gfp_begin, s->gfp_end, &tb, &te);
		bool nowarn = range_has_tok(sh, tb, te, "__GFP_NOWARN") || fallback_must_nowarn(s);
		if ((rc = strip_inline(sh, out)))
			return rc;
		strbuf_reset(sh->note);
		strbuf_addf(sh->note, "every attempt here is above order %d: clear __GFP_DIRECT_RECLAIM "
			    "(kswapd is still woken)%s", costly, nowarn ? "" : " and add __GFP_NOWARN");
		return 0;
	}
	/* a mask with __GFP_NORETRY already keeps it for the lower orders */
	size_t gtb, gte;
	tok_range(sh, s->gfp_begin, s->gfp_end, &gtb, &gte);
	if (range_has_tok(sh, gtb, gte, "__GFP_NORETRY")) {
		if (order_loop_floor_at_call(sh))
			rc = conditional_mask(sh, "strip-direct-reclaim",
				"@iif (@o > " COSTLY_NAME ")\n"
				"@i\t@v &= ~__GFP_DIRECT_RECLAIM;\n"
				"@iif (@o > @f)\n"
				"@i\t@v |= __GFP_NOWARN;\n",
				"@iif (@o > " COSTLY_NAME ")\n"
				"@i\t@v &= ~__GFP_DIRECT_RECLAIM;\n", out);
		else
			rc = conditional_mask(sh, "strip-direct-reclaim",
				"@iif (@o > " COSTLY_NAME ")\n"
				"@i\t@v &= ~__GFP_DIRECT_RECLAIM;\n"
				"@i@v |= __GFP_NOWARN;\n",
				"@iif (@o > " COSTLY_NAME ")\n"
				"@i\t@v &= ~__GFP_DIRECT_RECLAIM;\n", out);
		if (!rc)
			strbuf_addf(sh->note, ": orders above %d lose __GFP_DIRECT_RECLAIM (kswapd is still woken), "
				    "lower ones keep __GFP_NORETRY", costly);
		return rc;
	}
	/* The same call also asks for non-costly orders: only the costly ones
	 * lose direct reclaim, the others get __GFP_NORETRY, all of them
	 * __GFP_NOWARN (the mm/filemap fix discussed in 2026, in its flat
	 * if/else form).  In an order loop the floor keeps the mask. */
	if (order_loop_floor_at_call(sh))
		rc = conditional_mask(sh, "strip-direct-reclaim",
			"@iif (@o > " COSTLY_NAME ")\n"
			"@i\t@v &= ~__GFP_DIRECT_RECLAIM;\n"
			"@ielse if (@o > @f)\n"
			"@i\t@v |= __GFP_NORETRY;\n"
			"@iif (@o > @f)\n"
			"@i\t@v |= __GFP_NOWARN;\n",
			"@iif (@o > " COSTLY_NAME ")\n"
			"@i\t@v &= ~__GFP_DIRECT_RECLAIM;\n"
			"@ielse if (@o > @f)\n"
			"@i\t@v |= __GFP_NORETRY;\n", out);
	else
		rc = conditional_mask(sh, "strip-direct-reclaim",
			"@iif (@o > " COSTLY_NAME ")\n"
			"@i\t@v &= ~__GFP_DIRECT_RECLAIM;\n"
			"@ielse\n"
			"@i\t@v |= __GFP_NORETRY;\n"
			"@i@v |= __GFP_NOWARN;\n",
			"@iif (@o > " COSTLY_NAME ")\n"
			"@i\t@v &= ~__GFP_DIRECT_RECLAIM;\n"
			"@ielse\n"
			"@i\t@v |= __GFP_NORETRY;\n", out);
	if (!rc)
		strbuf_addf(sh->note, ": orders above %d lose __GFP_DIRECT_RECLAIM (kswapd is still woken), "
			    "lower ones get __GFP_NORETRY", costly);
	return rc;
}

static int shape_cap_order(struct shape *sh, struct fix_edits *out)
{
	int cap = sh->c->cap > 0 ? sh->c->cap : sh->c->costly_order;
	char *value = cap == sh->c->costly_order ? xstrdup(COSTLY_NAME) : xasprintf("%d", cap);
	int rc = rewrite_order(sh, "cap-order", value, true, out);
	free(value);
	return rc;
}

static int shape_order_zero(struct shape *sh, struct fix_edits *out)
{
	return rewrite_order(sh, "order-zero", "0", false, out);
}

/* Is the stored result tested after the call ("!p", "p == NULL", "if (p)")
 * within the function? */
static bool result_checked(const struct shape *sh)
{
	struct ptr_key key;
	if (!sh->have_fn || !sh->have_st || !result_key(sh, &key))
		return false;
	bool found = false;
	for (size_t i = sh->st.last + 1; i < sh->fn.rbrace && !found; i++) {
		size_t e = i + key.t.n;
		if (e > sh->fn.rbrace || match_key(sh, i, e, &key) == NONE)
			continue;
		found = tok_is(&sh->t, i - 1, "!") || tok_is(&sh->t, e, "==") || tok_is(&sh->t, e, "!=") ||
			(tok_is(&sh->t, i - 1, "(") && tok_is(&sh->t, e, ")") &&
			 (tok_is(&sh->t, i - 2, "if") || tok_is(&sh->t, i - 2, "IS_ERR_OR_NULL") ||
			  tok_is(&sh->t, i - 2, "unlikely") || tok_is(&sh->t, i - 2, "likely")));
	}
	key_release(&key);
	return found;
}

static int shape_drop_nofail(struct shape *sh, struct fix_edits *out)
{
	const struct site *s = sh->s;
	int rc = need_gfp(sh);
	if (rc)
		return rc;
	if (s->fallback == FB_UNKNOWN || !result_checked(sh))
		return refuse(sh, "the result is not checked for NULL after the call: without __GFP_NOFAIL "
			      "the call can fail");
	size_t tb, te;
	tok_range(sh, s->gfp_begin, s->gfp_end, &tb, &te);
	if (top_ops(sh, tb, te) & ~OP_OR)
		return refuse(sh, "the mask is not a plain list of flags");
	struct term terms[32];
	size_t n = split_or(sh, tb, te, terms, 32);
	for (size_t i = 0; i < n; i++) {
		if (!term_is(sh, &terms[i], "__GFP_NOFAIL"))
			continue;
		if (n == 1)
			return refuse(sh, "__GFP_NOFAIL is the whole mask");
		size_t e = sh->t.v[terms[i].te - 1].end;
		if (i > 0)
			fix_edits_delete(out, sh->t.v[terms[i - 1].te - 1].end, e);
		else
			fix_edits_delete(out, sh->t.v[terms[i].tb].begin, sh->t.v[terms[i + 1].tb].begin);
		strbuf_reset(sh->note);
		strbuf_addf(sh->note, "drops __GFP_NOFAIL: the call's failure path must handle NULL");
		return 0;
	}
	return refuse(sh, "__GFP_NOFAIL is not spelled in the mask at the call");
}

/* kmalloc family -> kvmalloc family (same arguments: kvrealloc as in 6.12,
 * whose (p, size, gfp) matches krealloc; older trees take the old size too,
 * and re-analysis drops the candidate there). */
static const char *const kv_map[][2] = {
	{ "kmalloc", "kvmalloc" }, { "kzalloc", "kvzalloc" }, { "kcalloc", "kvcalloc" },
	{ "kmalloc_array", "kvmalloc_array" }, { "kmalloc_node", "kvmalloc_node" },
	{ "kzalloc_node", "kvzalloc_node" }, { "kcalloc_node", "kvcalloc_node" },
	{ "kmalloc_array_node", "kvmalloc_array_node" }, { "krealloc", "kvrealloc" },
	{ "memdup_user", "vmemdup_user" }, { "kmemdup", "kvmemdup" }, { NULL, NULL },
};
static const char *const free_map[][2] = {
	{ "kfree", "kvfree" }, { "kfree_sensitive", "kvfree_sensitive" }, { "kzfree", "kvfree_sensitive" },
	{ NULL, NULL },
};
/* Calls that need physically contiguous memory behind the pointer (the
 * model's contiguity analysis decides first; this catches what it could not
 * follow, in the file as written). */
static const char *const contiguous_users[] = {
	"dma_map_single", "dma_map_single_attrs", "dma_map_page", "virt_to_page", "virt_to_phys",
	"virt_to_head_page", "virt_to_pfn", "__pa", "sg_set_buf", "sg_init_one", "dma_map_page_attrs",
	"kmap_to_page", "flush_dcache_page", "get_page", "set_memory_ro", "ksize", NULL,
};
/* Frees kvfree has no counterpart for here. */
static const char *const unconvertible_frees[] = { "kfree_rcu", "kfree_const", "kfree_rcu_mightsleep", NULL };

#define MAX_KEYS 4


/* "X = KEY;" in the function: the pointer is kept under another name too
 * (a struct field, another local); that name's frees are the pointer's. */
static void add_stored_names(struct shape *sh, struct ptr_key *keys, size_t *nk, struct strbuf *names)
{
	const struct ptr_key *k0 = &keys[0];
	for (size_t i = sh->fn.lbrace; i + k0->t.n + 1 < sh->fn.rbrace && *nk < MAX_KEYS; i++) {
		if (!tok_is(&sh->t, i, "=") || !tok_is(&sh->t, i + 1 + k0->t.n, ";") ||
		    match_key(sh, i + 1, i + 1 + k0->t.n, k0) == NONE)
			continue;
		/* the left side: back to the start of the statement */
		size_t j = i;
		while (j > sh->fn.lbrace && !tok_is(&sh->t, j - 1, ";") && !tok_is(&sh->t, j - 1, "{") &&
		       !tok_is(&sh->t, j - 1, "}") && !tok_is(&sh->t, j - 1, ")"))
			j--;
		if (j >= i)
			continue;
		size_t b = sh->t.v[j].begin, e = sh->t.v[i - 1].end;
		if (!key_from_text(&keys[*nk], sh->text + b, e - b))
			continue;
		strbuf_addf(names, "%s'%.*s' (line %d)", names->len ? ", " : "", (int)(e - b), sh->text + b,
			    line_of(sh->text, sh->t.v[i].begin));
		(*nk)++;
	}
}

/* "*P = kmalloc(...)" with P a parameter: an out-parameter.  The callers
 * in this file that pass "&X" there keep the memory as X; X's frees are the
 * pointer's.  Returns how many callers were found. */
static size_t add_out_param_names(struct shape *sh, struct ptr_key *keys, size_t *nk, struct strbuf *names)
{
	const struct ptr_key *k0 = &keys[0];
	if (k0->member || k0->t.n != 2 || !tok_is(&k0->t, 0, "*") || k0->t.v[1].kind != TK_IDENT ||
	    !sh->have_fn || sh->fn.name == NONE)
		return 0;
	char *p = tok_str(&k0->t, 1);
	int idx = fn_param_index(&sh->t, &sh->fn, p);
	free(p);
	if (idx < 0)
		return 0;
	size_t found = 0;
	char *fname = tok_str(&sh->t, sh->fn.name);
	for (size_t i = 0; i + 1 < sh->t.n && *nk < MAX_KEYS; i++) {
		if ((i >= sh->fn.name && i <= sh->fn.rbrace) || sh->t.v[i].pp || !tok_is(&sh->t, i, fname) ||
		    !tok_is(&sh->t, i + 1, "("))
			continue;
		size_t rp = toks_match(&sh->t, i + 1);
		if (rp == NONE)
			continue;
		/* the argument at idx */
		int a = 0;
		size_t start = i + 2;
		for (size_t j = i + 2; j <= rp; j++) {
			if (j < rp && (tok_is(&sh->t, j, "(") || tok_is(&sh->t, j, "["))) {
				size_t m = toks_match(&sh->t, j);
				if (m != NONE && m < rp)
					j = m;
				continue;
			}
			if (j != rp && !tok_is(&sh->t, j, ","))
				continue;
			if (a++ == idx && j == start + 2 && tok_is(&sh->t, start, "&") &&
			    sh->t.v[start + 1].kind == TK_IDENT) {
				size_t b = sh->t.v[start + 1].begin, e = sh->t.v[start + 1].end;
				if (key_from_text(&keys[*nk], sh->text + b, e - b)) {
					strbuf_addf(names, "%s'%.*s' (the caller's, line %d)", names->len ? ", " : "",
						    (int)(e - b), sh->text + b, line_of(sh->text, b));
					(*nk)++;
					found++;
				}
			}
			start = j + 1;
		}
	}
	free(fname);
	return found;
}

/* "struct T *NAME" (stars '*'s) declared in tokens [b, e): T's token, or NONE. */
static size_t decl_record_ptr(const struct shape *sh, size_t b, size_t e, const char *name, int stars)
{
	for (size_t i = b; i + 3 < e; i++) {
		if (!(tok_is(&sh->t, i, "struct") || tok_is(&sh->t, i, "union")) || sh->t.v[i + 1].kind != TK_IDENT)
			continue;
		size_t j = i + 2;
		int n = 0;
		while (j < e && tok_is(&sh->t, j, "*")) {
			j++;
			n++;
		}
		if (n == stars && j + 1 < e && tok_is(&sh->t, j, name) &&
		    (tok_is(&sh->t, j + 1, "=") || tok_is(&sh->t, j + 1, ";") || tok_is(&sh->t, j + 1, ",") ||
		     tok_is(&sh->t, j + 1, ")")))
			return i + 1;
	}
	return NONE;
}

/* A plain local of type "struct T *" handed back to the caller: the frees
 * of struct T objects are its frees.  In this file, each "kfree(X)" or
 * "kfree(*X)" whose X its function declares as a pointer to (a pointer to)
 * struct T adds X's text as a key; the fact base (frees.h) says whether
 * other files free struct T with kfree too, which refuses (in *why).
 * Returns the number of frees found here; the type in *type (new). */
static size_t returned_type_frees(struct shape *sh, struct ptr_key *keys, size_t *nk, struct strbuf *names,
				  char **type, struct strbuf *why)
{
	*type = NULL;
	const struct ptr_key *k0 = &keys[0];
	if (k0->member || k0->t.n != 1 || !sh->have_fn)
		return 0;
	char *name = tok_str(&k0->t, 0);
	size_t b = sh->fn.lparen != NONE ? sh->fn.lparen : sh->fn.lbrace;
	size_t ti = decl_record_ptr(sh, b, sh->call, name, 1);
	free(name);
	if (ti == NONE)
		return 0;
	char *tname = tok_str(&sh->t, ti);
	*type = xasprintf("%s %s", tok_is(&sh->t, ti - 1, "union") ? "union" : "struct", tname);
	size_t found = 0;
	for (size_t i = 0; i + 3 < sh->t.n; i++) {
		bool is_free = false;
		for (size_t f = 0; free_map[f][0]; f++)
			is_free = is_free || tok_is(&sh->t, i, free_map[f][0]);
		if (!is_free || sh->t.v[i].pp || !tok_is(&sh->t, i + 1, "("))
			continue;
		size_t a = i + 2, rp = toks_match(&sh->t, i + 1);
		int deref = tok_is(&sh->t, a, "*") ? 1 : 0;
		if (rp == NONE || rp != a + 1 + (size_t)deref || sh->t.v[a + deref].kind != TK_IDENT)
			continue;
		struct fn_span fn2;
		if (!toks_function(&sh->t, sh->t.v[i].begin, &fn2))
			continue;
		char *x = tok_str(&sh->t, a + deref);
		size_t d = decl_record_ptr(sh, fn2.lparen != NONE ? fn2.lparen : fn2.lbrace, i, x, 1 + deref);
		free(x);
		if (d == NONE || !tok_is(&sh->t, d, tname))
			continue;
		found++;
		size_t kb = sh->t.v[a].begin, ke = sh->t.v[rp - 1].end;
		bool have = false;
		for (size_t k = 0; k < *nk && !have; k++)
			have = match_key(sh, a, rp, &keys[k]) != NONE;
		if (!have && *nk < MAX_KEYS && key_from_text(&keys[*nk], sh->text + kb, ke - kb)) {
			strbuf_addf(names, "%s'%.*s' (a '%s', line %d)", names->len ? ", " : "", (int)(ke - kb),
				    sh->text + kb, *type, line_of(sh->text, kb));
			(*nk)++;
		}
	}
	free(tname);
	struct fact_value v;
	char *key = frees_key(*type);
	const char *self = sh->s->file;
	if (found && sh->c->facts && self && factbase_get(sh->c->facts, key, &v)) {
		size_t sl = strlen(self);
		bool first_here = v.where && !strncmp(v.where, self, sl) && v.where[sl] == ':';
		const char *other = !first_here ? v.where : v.nfiles > 1 ? v.where2 : NULL;
		if (other)
			strbuf_addf(why, "'%s' is returned to the caller, and '%s' objects are freed with kfree in "
				    "another file too (%s): kfree would have to become kvfree there", sh->s->result_lvalue,
				    *type, other);
	}
	free(key);
	return found;
}

/* The kvmalloc counterpart of the site's call in *kv, or a refusal: the
 * API, the mask (atomic, DMA zones) or a use that needs the memory
 * physically contiguous. */
static int kvmalloc_counterpart(struct shape *sh, const char **kv)
{
	const struct site *s = sh->s;
	*kv = NULL;
	if (s->kind != API_SLAB)
		return refuse(sh, "kvmalloc replaces kmalloc-family calls; '%s' is not one", s->api);
	for (size_t i = 0; kv_map[i][0]; i++)
		if (!strcmp(kv_map[i][0], s->api))
			*kv = kv_map[i][1];
	if (!*kv && !strncmp(s->api, "devm_", 5))
		return refuse(sh, "there is no devm_ kvmalloc variant: the device core frees '%s' memory with kfree",
			      s->api);
	if (!*kv)
		return refuse(sh, "'%s' has no kvmalloc counterpart with the same arguments", s->api);
	if (!tok_is(&sh->t, sh->call, s->api))
		return refuse(sh, "the call is not spelled '%s' at the site", s->api);
	if (!gfp_must(s->gfp, GFPB(DIRECT_RECLAIM)))
		return refuse(sh, "the mask may lack __GFP_DIRECT_RECLAIM (atomic context such as GFP_ATOMIC or "
			      "GFP_NOWAIT): kvmalloc only falls back to vmalloc when it may block");
	if (gfp_may(s->gfp, GFPB(DMA) | GFPB(DMA32)))
		return refuse(sh, "the mask asks for a DMA zone: the memory must stay physically contiguous");
	if (s->contig == CONTIG_PHYSICAL)
		return refuse(sh, "the memory must stay physically contiguous: it %s (line %d)",
			      s->contig_why ? s->contig_why : "reaches a physical-address use", s->contig_line);
	if (!s->result_lvalue || !*s->result_lvalue)
		return refuse(sh, "the result is not stored to a named pointer, so its frees cannot be found");
	return 0;
}

/* A plain local handed back to the caller: its frees are elsewhere, unless
 * they are the frees of its struct type in this file (returned_type_frees,
 * which names the type in *rtype).  Refused when none is in view. */
static int kvmalloc_returned(struct shape *sh, struct ptr_key *keys, size_t *nk, struct strbuf *names,
			     char **rtype)
{
	for (size_t i = sh->fn.lbrace; i < sh->fn.rbrace; i++) {
		if (!tok_is(&sh->t, i, "return"))
			continue;
		size_t e = i + 1;
		while (e < sh->fn.rbrace && !tok_is(&sh->t, e, ";"))
			e++;
		if (match_key(sh, i + 1, e, &keys[0]) == NONE)
			continue;
		int rc = 0;
		struct strbuf why = STRBUF_INIT;
		size_t got = returned_type_frees(sh, keys, nk, names, rtype, &why);
		if (why.len)
			rc = refuse(sh, "%s", why.buf);
		else if (!got)
			rc = refuse(sh, "'%s' is returned to the caller (line %d): its frees are in the callers, "
				    "not in view", sh->s->result_lvalue, line_of(sh->text, sh->t.v[i].begin));
		strbuf_release(&why);
		return rc;
	}
	return 0;
}

/* The call at token i with a key among its arguments: refused when it
 * needs physically contiguous memory, resizes it with krealloc or frees
 * it with no kvfree form. */
static int kvmalloc_refused_use(struct shape *sh, size_t i, const struct ptr_key *key, const char *kname)
{
	const struct site *s = sh->s;
	for (size_t c = 0; contiguous_users[c]; c++)
		if (tok_is(&sh->t, i, contiguous_users[c]) && args_mention(sh, i + 1, key))
			return refuse(sh, "'%s' (%s) reaches '%s' (line %d), which needs physically contiguous "
				      "memory", s->result_lvalue, kname, contiguous_users[c],
				      line_of(sh->text, sh->t.v[i].begin));
	if (tok_is(&sh->t, i, "krealloc") && args_mention(sh, i + 1, key) && sh->t.v[i].begin != s->call_begin)
		return refuse(sh, "'%s' is resized with krealloc (line %d)", s->result_lvalue,
			      line_of(sh->text, sh->t.v[i].begin));
	for (size_t c = 0; unconvertible_frees[c]; c++)
		if (tok_is(&sh->t, i, unconvertible_frees[c]) && args_mention(sh, i + 1, key))
			return refuse(sh, "'%s' is freed with '%s' (line %d), which has no kvfree form here",
				      s->result_lvalue, unconvertible_frees[c], line_of(sh->text, sh->t.v[i].begin));
	return 0;
}

/* Every call of the file that takes the pointer or one of its copies (the
 * keys): each kfree of it becomes kvfree (its line added to `frees`), or
 * the use is refused. */
static int kvmalloc_convert_frees(struct shape *sh, const struct ptr_key *keys, size_t nk, struct fix_edits *out,
				  struct strbuf *frees, size_t *nfree)
{
	for (size_t i = 0; i + 1 < sh->t.n; i++) {
		if (sh->t.v[i].kind != TK_IDENT || !tok_is(&sh->t, i + 1, "(") || sh->t.v[i].pp)
			continue;
		for (size_t k = 0; k < nk; k++) {
			int rc = kvmalloc_refused_use(sh, i, &keys[k], k ? "its copy" : "it");
			if (rc)
				return rc;
			for (size_t f = 0; free_map[f][0]; f++) {
				if (!tok_is(&sh->t, i, free_map[f][0]))
					continue;
				size_t rp = toks_match(&sh->t, i + 1);
				if (rp == NONE || match_key(sh, i + 2, rp, &keys[k]) == NONE)
					continue;
				fix_edits_replace(out, sh->t.v[i].begin, sh->t.v[i].end, free_map[f][1]);
				strbuf_addf(frees, "%s%d", *nfree ? ", " : "", line_of(sh->text, sh->t.v[i].begin));
				(*nfree)++;
			}
		}
	}
	return 0;
}

/* The call renamed to `kv`: continuation lines aligned with the old
 * name's "(" move with it. */
static void rename_call(struct shape *sh, const char *kv, struct fix_edits *out)
{
	fix_edits_replace(out, sh->t.v[sh->call].begin, sh->t.v[sh->call].end, kv);
	if (sh->call_rp == NONE)
		return;
	size_t lp = sh->t.v[sh->call + 1].begin, col = vcol(sh->text, lp) + 1;
	size_t delta = strlen(kv) - strlen(sh->s->api);
	for (size_t p = line_end(sh->text, sh->len, lp); p < sh->t.v[sh->call_rp].begin;
	     p = line_end(sh->text, sh->len, p)) {
		size_t q = p;
		while (q < sh->len && (sh->text[q] == ' ' || sh->text[q] == '\t'))
			q++;
		if (vcol(sh->text, q) != col)
			continue;
		struct strbuf ind = STRBUF_INIT;
		add_indent_to(&ind, col + delta);
		fix_edits_replace(out, p, q, ind.buf);
		strbuf_release(&ind);
	}
}

static void kvmalloc_note(struct shape *sh, const char *kv, size_t nfree, const char *frees, const char *rtype,
			  const struct strbuf *names)
{
	const struct site *s = sh->s;
	strbuf_reset(sh->note);
	if (nfree == 1)
		strbuf_addf(sh->note, "%s becomes %s and the kfree of '%s' on line %s becomes kvfree", s->api,
			    kv, s->result_lvalue, frees);
	else
		strbuf_addf(sh->note, "%s becomes %s and the %zu kfrees of '%s' on lines %s become kvfree",
			    s->api, kv, nfree, s->result_lvalue, frees);
	if (rtype)
		strbuf_addf(sh->note, "; '%s' is returned to the caller: the frees of '%s' objects here are its "
			    "frees (%s)%s", s->result_lvalue, rtype, names->buf,
			    sh->c->facts ? "" : "; other files not checked (no fact base)");
	else if (names->len)
		strbuf_addf(sh->note, " (stored as %s)", names->buf);
}

static int shape_kvmalloc(struct shape *sh, struct fix_edits *out)
{
	const struct site *s = sh->s;
	const char *kv;
	int rc = kvmalloc_counterpart(sh, &kv);
	if (rc)
		return rc;
	struct ptr_key keys[MAX_KEYS];
	size_t nk = 0;
	if (!key_from_text(&keys[0], s->result_lvalue, strlen(s->result_lvalue)))
		return refuse(sh, "the result is not stored to a named pointer, so its frees cannot be found");
	nk = 1;
	struct strbuf frees = STRBUF_INIT, names = STRBUF_INIT;
	size_t nfree = 0;
	char *rtype = NULL; /* returned: the struct type whose frees are its frees */
	if (!keys[0].member && sh->have_fn) {
		rc = kvmalloc_returned(sh, keys, &nk, &names, &rtype);
		if (rc)
			goto cleanup;
		/* "priv->buf = buf;": freed under that name */
		add_stored_names(sh, keys, &nk, &names);
		/* "*data = kmemdup(...)": freed as the callers' "&X" */
		add_out_param_names(sh, keys, &nk, &names);
	}
	rc = kvmalloc_convert_frees(sh, keys, nk, out, &frees, &nfree);
	if (rc)
		goto cleanup;
	if (!nfree) {
		rc = names.len ? refuse(sh, "no kfree of '%s' or of %s in this file: it is freed elsewhere (another "
					"file?), where kfree would have to become kvfree", s->result_lvalue, names.buf)
			       : refuse(sh, "no kfree of '%s' in this file: it is freed elsewhere (another file?), "
					"where kfree would have to become kvfree", s->result_lvalue);
		goto cleanup;
	}
	rename_call(sh, kv, out);
	kvmalloc_note(sh, kv, nfree, frees.buf, rtype, &names);
cleanup:
	free(rtype);
	strbuf_release(&frees);
	strbuf_release(&names);
	for (size_t k = 0; k < nk; k++)
		key_release(&keys[k]);
	return rc;
}

static int shape_fallback_loop(struct shape *sh, struct fix_edits *out)
{
	const struct site *s = sh->s;
	struct order_info oi;
	int rc = order_analysis(sh, "fallback-loop", &oi);
	if (rc)
		return rc;
	if (oi.how != ORD_LOCAL) {
		rc = refuse(sh, "the order is not a local variable: nothing would tell the caller which "
			    "order it got");
		goto done;
	}
	if (!oi.used_after) {
		rc = refuse(sh, "nothing after the call reads '%s': the size it implies is computed elsewhere",
			    oi.name);
		goto done;
	}
	if ((rc = need_statement(sh, "fallback-loop")) || (rc = need_gfp(sh)))
		goto done;
	size_t eq;
	if (!stmt_is_assignment(sh, &eq)) {
		rc = refuse(sh, "the call is not a plain 'ptr = call(...);' statement");
		goto done;
	}
	const char *var = fresh_mask_name(sh);
	if (!var) {
		rc = refuse(sh, "no free name for a local mask");
		goto done;
	}
	size_t tb, te;
	tok_range(sh, s->gfp_begin, s->gfp_end, &tb, &te);
	struct strbuf add = STRBUF_INIT, sb = STRBUF_INIT;
	if (!range_has_tok(sh, tb, te, "__GFP_NORETRY"))
		strbuf_adds(&add, "__GFP_NORETRY");
	if (!range_has_tok(sh, tb, te, "__GFP_NOWARN"))
		strbuf_addf(&add, "%s__GFP_NOWARN", add.len ? " | " : "");
	char *ind = line_indent(sh->text, sh->len, sh->t.v[sh->st.first].begin);
	char *lv = squeeze(sh->text + sh->t.v[sh->st.first].begin,
			   sh->t.v[eq - 1].end - sh->t.v[sh->st.first].begin);
	char *g = squeeze(sh->text + s->gfp_begin, s->gfp_end - s->gfp_begin);
	char *fl = floor_text(sh);
	size_t sb_line = line_begin(sh->text, sh->t.v[sh->st.first].begin);
	size_t se_line = line_end(sh->text, sh->len, sh->t.v[sh->st.last].end);

	strbuf_addf(&sb, "%sdo {\n%s\tgfp_t %s = %s;\n\n", ind, ind, var, g);
	if (add.len)
		strbuf_addf(&sb, "%s\tif (%s > %s)\n%s\t\t%s |= %s;\n", ind, oi.name, fl, ind, var, add.buf);
	/* the statement itself, one level deeper, with the mask replaced */
	for (size_t p = sb_line; p < se_line;) {
		size_t le = line_end(sh->text, sh->len, p);
		strbuf_addc(&sb, '\t');
		if (p <= s->gfp_begin && s->gfp_begin < le) {
			strbuf_add(&sb, sh->text + p, s->gfp_begin - p);
			strbuf_adds(&sb, var);
			size_t ge_line_end = line_end(sh->text, sh->len, s->gfp_end);
			strbuf_add(&sb, sh->text + s->gfp_end, ge_line_end - s->gfp_end);
			p = ge_line_end;
			continue;
		}
		strbuf_add(&sb, sh->text + p, le - p);
		p = le;
	}
	if (se_line == sh->len && (!sb.len || sb.buf[sb.len - 1] != '\n'))
		strbuf_addc(&sb, '\n');
	strbuf_addf(&sb, "%s\tif (%s)\n%s\t\tbreak;\n%s} while (%s-- > %s);\n", ind, lv, ind, ind, oi.name, fl);
	fix_edits_replace(out, sb_line, se_line, sb.buf);
	strbuf_reset(sh->note);
	strbuf_addf(sh->note, "retries at lower orders down to %s with __GFP_NORETRY | __GFP_NOWARN above "
		    "it; '%s' is read after the call (line %d), so the size follows the order obtained",
		    fl, oi.name, oi.after_line);
	free(fl);
	free(g);
	free(lv);
	free(ind);
	strbuf_release(&sb);
	strbuf_release(&add);
done:
	free(oi.name);
	return rc;
}

int fix_shape(enum fix_kind k, const struct fix_ctx *c, struct fix_edits *out, struct strbuf *note)
{
	struct shape sh;
	int rc = shape_open(&sh, c, note);
	if (!rc) {
		switch (k) {
		case FIX_ADD_NORETRY: rc = shape_add_noretry(&sh, out); break;
		case FIX_STRIP_DIRECT_RECLAIM: rc = shape_strip_direct_reclaim(&sh, out); break;
		case FIX_CAP_ORDER: rc = shape_cap_order(&sh, out); break;
		case FIX_KVMALLOC: rc = shape_kvmalloc(&sh, out); break;
		case FIX_FALLBACK_LOOP: rc = shape_fallback_loop(&sh, out); break;
		case FIX_ORDER_ZERO: rc = shape_order_zero(&sh, out); break;
		case FIX_ADD_NOWARN: rc = shape_add_nowarn(&sh, out); break;
		case FIX_DROP_NOFAIL: rc = shape_drop_nofail(&sh, out); break;
		default: rc = refuse(&sh, "unknown fix shape"); break;
		}
	}
	if (rc)
		fix_edits_release(out);
	shape_close(&sh);
	return rc;
}

/* ---- ranking --------------------------------------------------------- */

static bool fn_mentions(const struct fix_ctx *c, const char *name)
{
	struct toks t;
	struct fn_span fn;
	bool r = false;
	toks_scan(&t, c->text, c->len);
	if (c->site->call_end <= c->len && toks_function(&t, c->site->call_begin, &fn))
		for (size_t i = fn.lbrace; i <= fn.rbrace && !r; i++)
			r = tok_is(&t, i, name);
	toks_release(&t);
	return r;
}

static void plan(struct fix_plan *out, size_t max, size_t *n, enum fix_kind k, int cap, const char *reason)
{
	if (*n >= max)
		return;
	out[*n].kind = k;
	out[*n].cap = cap;
	snprintf(out[*n].reason, sizeof(out[*n].reason), "%s", reason);
	(*n)++;
}

/* Which FIXW_* conditions hold at c->site.  The function's text is read
 * only when a step asks about it. */
static unsigned fix_conditions(const struct fix_ctx *c, unsigned asked)
{
	const struct site *s = c->site;
	unsigned w = s->kind == API_SLAB ? FIXW_SLAB : FIXW_NOT_SLAB;
	if (asked & (FIXW_NORETRY_IDIOM | FIXW_NOT_NORETRY_IDIOM | FIXW_FN_STRIPS | FIXW_NOT_FN_STRIPS)) {
		bool own_strip = fn_mentions(c, "__GFP_DIRECT_RECLAIM");
		bool own_noretry = fn_mentions(c, "__GFP_NORETRY");
		w |= own_strip ? FIXW_FN_STRIPS : FIXW_NOT_FN_STRIPS;
		w |= own_noretry && !own_strip && !(s->order.known && s->order.lo > c->costly_order)
			     ? FIXW_NORETRY_IDIOM : FIXW_NOT_NORETRY_IDIOM;
	}
	return w;
}

size_t fix_rank(const char *rule, const struct fix_ctx *c, struct fix_plan *out, size_t max)
{
	const struct check *chk = check_find(rule);
	if (!chk || !chk->fixes)
		return 0;
	unsigned asked = 0;
	for (const struct fix_step *st = chk->fixes; st->reason; st++)
		asked |= st->when;
	unsigned holds = fix_conditions(c, asked);
	size_t n = 0;
	for (const struct fix_step *st = chk->fixes; st->reason; st++)
		if ((st->when & holds) == st->when)
			plan(out, max, &n, st->kind, st->cap == FIX_CAP_COSTLY ? c->costly_order : st->cap, st->reason);
	return n;
}
