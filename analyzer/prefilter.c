/* The lexical prefilter (see prefilter.h).
 *
 * This is a tokenizer, not a parser: it needs to tell identifiers from
 * comments, strings, numbers and member names, and, in headers, where a
 * macro or a function body starts and ends.  It runs over every file of a
 * tree (tens of thousands), so names are checked first against a bitmap of
 * their hashes and only then against the set.
 */
#define _GNU_SOURCE /* memmem */
#include <dirent.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <glib.h>
#include "gfpaudit/prefilter.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

#define BLOOM_BITS (1u << 18)
#define MAX_IDENT 127
#define MAX_INCLUDE_DEPTH 4

/* A definition seen in a header: its name and the identifiers of its body,
 * as indexes into `idents` (interned). */
struct def {
	guint name;
	size_t first, count; /* range in body_ids */
};

struct prefilter {
	GHashTable *names;          /* known allocator and wrapper names (owned keys) */
	uint64_t bloom[BLOOM_BITS / 64];
	/* learning */
	GHashTable *intern;         /* identifier -> index+1 */
	GPtrArray *ident_str;       /* index -> identifier */
	GArray *body_ids;           /* guint */
	GArray *defs;               /* struct def */
	/* quoted includes: path -> GINT_TO_POINTER(1 no match / 2 match /
	 * 3 being scanned); a "no" that met a header being scanned is not
	 * final (include cycles), so it is not remembered */
	GHashTable *header_memo;
	unsigned cycle_hits;
	/* rule triggers (see prefilter_add_trigger/_pair) */
	GPtrArray *t_prefix, *t_substr;
	struct pair { GPtrArray *a, *b; } *pairs;
	size_t npairs, pairs_alloc;
	char why[MAX_IDENT + 1];
};

static GPtrArray *strv_copy(const char *const *v)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(free);
	for (; v && *v; v++) {
		size_t n = strlen(*v);
		int prefix = n && (*v)[n - 1] == '*';
		if (prefix)
			n--;
		if (!n || n > 255)
			continue;
		unsigned char *e = xmalloc(n + 3);
		e[0] = prefix ? 2 : 1;
		e[1] = (unsigned char)n;
		memcpy(e + 2, *v, n);
		e[n + 2] = 0;
		g_ptr_array_add(a, e);
	}
	return a;
}

void prefilter_add_trigger(struct prefilter *p, const char *prefix, const char *substring)
{
	if (prefix) {
		char *e = xasprintf("%s*", prefix);
		const char *v[] = { e, NULL };
		GPtrArray *one = strv_copy(v);
		g_ptr_array_add(p->t_prefix, g_ptr_array_steal_index(one, 0));
		g_ptr_array_free(one, TRUE);
		free(e);
	}
	if (substring)
		g_ptr_array_add(p->t_substr, xstrdup(substring));
}

void prefilter_add_pair(struct prefilter *p, const char *const *a, const char *const *b)
{
	ALLOC_GROW(p->pairs, p->npairs + 1, p->pairs_alloc);
	p->pairs[p->npairs].a = strv_copy(a);
	p->pairs[p->npairs].b = strv_copy(b);
	p->npairs++;
}

/* Entries are stored as "\x01" or "\x02" (name / prefix), a length byte,
 * then the text: every identifier of every file is checked against them. */
static bool in_strv(const GPtrArray *v, const char *s, size_t n)
{
	for (guint i = 0; i < v->len; i++) {
		const unsigned char *e = v->pdata[i];
		size_t el = e[1];
		if (e[2] != (unsigned char)s[0])
			continue;
		if (e[0] == 1 ? (n == el && !memcmp(s, e + 2, n)) : (n >= el && !memcmp(s, e + 2, el)))
			return true;
	}
	return false;
}

static bool trigger_n(const struct prefilter *p, const char *s, size_t n)
{
	if (in_strv(p->t_prefix, s, n))
		return true;
	for (guint i = 0; i < p->t_substr->len; i++) {
		const char *x = p->t_substr->pdata[i];
		if (memmem(s, n, x, strlen(x)))
			return true;
	}
	return false;
}

static inline uint32_t hash_ident(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static void add_name_n(struct prefilter *p, const char *s, size_t n)
{
	char *k = xstrndup(s, n);
	if (g_hash_table_contains(p->names, k)) {
		free(k);
		return;
	}
	g_hash_table_add(p->names, k);
	uint32_t h = hash_ident(s, n) % BLOOM_BITS;
	p->bloom[h / 64] |= (uint64_t)1 << (h % 64);
}

void prefilter_add_name(struct prefilter *p, const char *name)
{
	add_name_n(p, name, strlen(name));
	/* 6.10+ spells allocator calls NAME_noprof behind alloc_hooks() */
	size_t n = strlen(name);
	if (n < 7 || strcmp(name + n - 7, "_noprof")) {
		char *np = xasprintf("%s_noprof", name);
		add_name_n(p, np, strlen(np));
		free(np);
	}
}

static bool known_n(const struct prefilter *p, const char *s, size_t n)
{
	uint32_t h = hash_ident(s, n) % BLOOM_BITS;
	if (!(p->bloom[h / 64] & ((uint64_t)1 << (h % 64))))
		return false;
	char buf[MAX_IDENT + 1];
	if (n > MAX_IDENT)
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	return g_hash_table_contains(p->names, buf);
}

bool prefilter_has_name(const struct prefilter *p, const char *name)
{
	return known_n(p, name, strlen(name));
}

int prefilter_new(const struct alloc_table *t, struct prefilter **out)
{
	struct prefilter *p = xcalloc(1, sizeof(*p));
	p->names = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	p->intern = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	p->ident_str = g_ptr_array_new();
	p->body_ids = g_array_new(FALSE, FALSE, sizeof(guint));
	p->defs = g_array_new(FALSE, FALSE, sizeof(struct def));
	p->header_memo = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	p->t_prefix = g_ptr_array_new_with_free_func(free);
	p->t_substr = g_ptr_array_new_with_free_func(free);
	for (size_t i = 0; t && i < t->n; i++)
		prefilter_add_name(p, t->e[i].name);
	*out = p;
	return 0;
}

void prefilter_free(struct prefilter *p)
{
	if (!p)
		return;
	g_hash_table_destroy(p->names);
	g_hash_table_destroy(p->intern);
	g_ptr_array_free(p->ident_str, TRUE);
	g_array_free(p->body_ids, TRUE);
	g_array_free(p->defs, TRUE);
	g_hash_table_destroy(p->header_memo);
	g_ptr_array_free(p->t_prefix, TRUE);
	g_ptr_array_free(p->t_substr, TRUE);
	for (size_t i = 0; i < p->npairs; i++) {
		g_ptr_array_free(p->pairs[i].a, TRUE);
		g_ptr_array_free(p->pairs[i].b, TRUE);
	}
	free(p->pairs);
	free(p);
}

/* ---- the tokenizer ---- */

enum tok { T_EOF, T_IDENT, T_PUNCT, T_DIRECTIVE_END };

struct lexer {
	const char *p, *end;
	const char *tok;     /* identifier start / punctuation char */
	size_t len;
	int at_line_start;   /* only whitespace since the last newline */
	int in_directive;    /* inside a # line (ends at an unescaped newline) */
	const char *directive; /* start of the current directive's text after '#' */
	int after_member;    /* the last punctuation was '.' or '->' */
};

static inline int is_id0(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static inline int is_id(char c) { return is_id0(c) || (c >= '0' && c <= '9'); }

static enum tok next(struct lexer *l)
{
	const char *p = l->p, *e = l->end;
	for (;;) {
		if (p >= e) {
			l->p = p;
			if (l->in_directive) {
				l->in_directive = 0;
				return T_DIRECTIVE_END;
			}
			return T_EOF;
		}
		char c = *p;
		if (c == '\n') {
			p++;
			l->at_line_start = 1;
			if (l->in_directive) {
				l->in_directive = 0;
				l->p = p;
				return T_DIRECTIVE_END;
			}
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			p++;
			continue;
		}
		if (c == '\\' && p + 1 < e && (p[1] == '\n' || (p[1] == '\r' && p + 2 < e && p[2] == '\n'))) {
			p += p[1] == '\n' ? 2 : 3; /* line continuation */
			continue;
		}
		if (c == '/' && p + 1 < e && p[1] == '*') {
			const char *q = p + 2;
			while (q + 1 < e && !(q[0] == '*' && q[1] == '/'))
				q++;
			p = q + 1 < e ? q + 2 : e;
			continue;
		}
		if (c == '/' && p + 1 < e && p[1] == '/') {
			while (p < e && *p != '\n')
				p++;
			continue;
		}
		int line_start = l->at_line_start;
		l->at_line_start = 0;
		if (c == '#' && line_start && !l->in_directive) {
			l->in_directive = 1;
			p++;
			l->directive = p;
			continue;
		}
		if (c == '"' || c == '\'') {
			const char *q = p + 1;
			while (q < e && *q != c && *q != '\n') {
				if (*q == '\\' && q + 1 < e)
					q++;
				q++;
			}
			p = q < e && *q == c ? q + 1 : q;
			l->after_member = 0;
			continue;
		}
		if (c >= '0' && c <= '9') {
			while (p < e && (is_id(*p) || *p == '.'))
				p++;
			l->after_member = 0;
			continue;
		}
		if (is_id0(c)) {
			const char *s = p;
			while (p < e && is_id(*p))
				p++;
			l->tok = s;
			l->len = (size_t)(p - s);
			l->p = p;
			return T_IDENT;
		}
		l->tok = p;
		l->len = 1;
		l->p = p + 1;
		return T_PUNCT;
	}
}

/* The directive's first word ("include", "define"), after '#'. */
static int directive_is(const struct lexer *l, const char *word)
{
	const char *d = l->directive;
	while (d < l->end && (*d == ' ' || *d == '\t'))
		d++;
	size_t n = strlen(word);
	return (size_t)(l->end - d) >= n && !strncmp(d, word, n) && (d + n == l->end || !is_id(d[n]));
}

/* ---- matching files ---- */

static bool match_text(struct prefilter *p, const char *text, size_t len, const char *path, int depth);

static char *dirname_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? xstrndup(path, (size_t)(s - path)) : xstrdup(".");
}

/* #include "name": does that header (next to the includer) hold a name? */
static bool match_quoted_include(struct prefilter *p, const char *includer, const char *name,
				 size_t n, int depth)
{
	if (!includer)
		return false;
	if (depth >= MAX_INCLUDE_DEPTH) {
		p->cycle_hits++; /* not a final "no" either */
		return false;
	}
	char *dir = dirname_of(includer);
	char *hp = xasprintf("%s/%.*s", dir, (int)n, name);
	free(dir);
	gpointer memo = g_hash_table_lookup(p->header_memo, hp);
	if (memo) {
		free(hp);
		if (GPOINTER_TO_INT(memo) == 3)
			p->cycle_hits++;
		return GPOINTER_TO_INT(memo) == 2;
	}
	g_hash_table_insert(p->header_memo, xstrdup(hp), GINT_TO_POINTER(3));
	unsigned cycles = p->cycle_hits;
	struct strbuf sb = STRBUF_INIT;
	bool hit = false;
	if (strbuf_read_file(&sb, hp, 0) == 0)
		hit = match_text(p, sb.buf, sb.len, hp, depth + 1);
	else
		err_clear();
	strbuf_release(&sb);
	if (hit || cycles == p->cycle_hits)
		g_hash_table_insert(p->header_memo, xstrdup(hp), GINT_TO_POINTER(hit ? 2 : 1));
	else
		g_hash_table_remove(p->header_memo, hp);
	free(hp);
	return hit;
}

static bool match_text(struct prefilter *p, const char *text, size_t len, const char *path, int depth)
{
	struct lexer l = { .p = text, .end = text + len, .at_line_start = 1 };
	enum tok t;
	int directive_word = 0, skip_directive = 0;
	/* only text that looks like C is decided here: balanced brackets outside
	 * directives, no characters C has no use for; the rest goes to the parser */
	int paren = 0, brack = 0, brace = 0, odd = 0;
	unsigned char pair_seen[64] = { 0 }; /* bit 1: a name of a, bit 2: of b */
	while ((t = next(&l)) != T_EOF) {
		if (t == T_DIRECTIVE_END) {
			directive_word = skip_directive = 0;
			continue;
		}
		if (l.in_directive && !directive_word) {
			directive_word = 1;
			/* header names are not calls: <linux/vmalloc.h> */
			if (directive_is(&l, "include") || directive_is(&l, "include_next")) {
				skip_directive = 1;
				const char *q = l.p;
				while (q < l.end && (*q == ' ' || *q == '\t'))
					q++;
				if (q < l.end && *q == '"') {
					const char *s = ++q;
					while (q < l.end && *q != '"' && *q != '\n')
						q++;
					if (q < l.end && *q == '"' &&
					    match_quoted_include(p, path, s, (size_t)(q - s), depth)) {
						snprintf(p->why, sizeof(p->why), "#include \"%.*s\"", (int)(q - s), s);
						return true;
					}
				}
			} else if (directive_is(&l, "pragma") || directive_is(&l, "error") ||
				   directive_is(&l, "warning") || directive_is(&l, "line")) {
				skip_directive = 1;
			}
			continue;
		}
		if (skip_directive)
			continue;
		if (t == T_PUNCT) {
			char c = *l.tok;
			if (!l.in_directive) {
				paren += c == '(' ? 1 : c == ')' ? -1 : 0;
				brack += c == '[' ? 1 : c == ']' ? -1 : 0;
				brace += c == '{' ? 1 : c == '}' ? -1 : 0;
				odd |= c == '@' || c == '`' || paren < 0 || brack < 0 || brace < 0;
			}
			if (c == '.')
				l.after_member = 1;
			else if (c == '>' && l.tok > text && l.tok[-1] == '-')
				l.after_member = 1;
			else if (c != '-')
				l.after_member = 0;
			continue;
		}
		if (l.after_member) {
			l.after_member = 0;
			continue;
		}
		if (known_n(p, l.tok, l.len) || trigger_n(p, l.tok, l.len)) {
			snprintf(p->why, sizeof(p->why), "%.*s", (int)l.len, l.tok);
			return true;
		}
		for (size_t i = 0; i < p->npairs && i < sizeof(pair_seen); i++) {
			if (in_strv(p->pairs[i].a, l.tok, l.len))
				pair_seen[i] |= 1;
			if (in_strv(p->pairs[i].b, l.tok, l.len))
				pair_seen[i] |= 2;
			if (pair_seen[i] == 3) {
				snprintf(p->why, sizeof(p->why), "%.*s (with its pair)", (int)l.len, l.tok);
				return true;
			}
		}
	}
	if (depth == 0 && (paren || brack || brace || odd)) {
		snprintf(p->why, sizeof(p->why), "not plain C to the tokenizer (brackets or stray characters)");
		return true;
	}
	return false;
}

bool prefilter_match(struct prefilter *p, const char *text, size_t len, const char *path,
		     const char **why)
{
	p->why[0] = 0;
	bool hit;
	if (memchr(text, 0, len)) {
		snprintf(p->why, sizeof(p->why), "binary");
		hit = true; /* the parser says what is wrong with it */
	} else {
		hit = match_text(p, text, len, path, 0);
	}
	if (why)
		*why = p->why;
	return hit;
}

/* ---- learning wrappers from headers ---- */

static guint intern(struct prefilter *p, const char *s, size_t n)
{
	char buf[MAX_IDENT + 1];
	if (n > MAX_IDENT)
		n = MAX_IDENT;
	memcpy(buf, s, n);
	buf[n] = 0;
	gpointer v = g_hash_table_lookup(p->intern, buf);
	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	char *k = xstrdup(buf);
	guint id = p->ident_str->len;
	g_ptr_array_add(p->ident_str, k);
	g_hash_table_insert(p->intern, k, GUINT_TO_POINTER(id + 1));
	return id;
}

static void body_ident(struct prefilter *p, const char *s, size_t n)
{
	guint id = intern(p, s, n);
	g_array_append_val(p->body_ids, id);
}

static void end_def(struct prefilter *p, guint name, size_t first)
{
	struct def d = { name, first, p->body_ids->len - first };
	if (d.count)
		g_array_append_val(p->defs, d);
	else
		g_array_set_size(p->body_ids, first);
}

/* Record every #define and every top-level function body with the
 * identifiers it uses; prefilter_learn_finish() decides which are wrappers. */
void prefilter_learn_text(struct prefilter *p, const char *text, size_t len)
{
	struct lexer l = { .p = text, .end = text + len, .at_line_start = 1 };
	enum tok t;
	/* directive state */
	int dstate = 0;      /* 0 first word, 1 define name expected, 2 body, 3 ignore */
	guint dname = 0;
	size_t dfirst = 0;
	/* function state */
	int depth = 0, parens = 0;
	int have_cand = 0, cand_closed = 0, in_body = 0;
	guint cand = 0;
	size_t ffirst = 0;
	while ((t = next(&l)) != T_EOF) {
		if (t == T_DIRECTIVE_END) {
			if (dstate == 2)
				end_def(p, dname, dfirst);
			dstate = 0;
			continue;
		}
		if (l.in_directive) {
			if (dstate == 0) {
				dstate = (t == T_IDENT && l.len == 6 && !strncmp(l.tok, "define", 6)) ? 1 : 3;
			} else if (dstate == 1) {
				if (t != T_IDENT) {
					dstate = 3;
					continue;
				}
				dname = intern(p, l.tok, l.len);
				dfirst = p->body_ids->len;
				dstate = 2;
			} else if (dstate == 2 && t == T_IDENT) {
				body_ident(p, l.tok, l.len);
			}
			continue;
		}
		if (t == T_IDENT) {
			if (in_body) {
				body_ident(p, l.tok, l.len);
			} else if (depth == 0 && parens == 0) {
				/* the last identifier before '(' at file scope: a candidate name */
				cand = intern(p, l.tok, l.len);
				have_cand = 1;
				cand_closed = 0;
			}
			continue;
		}
		char c = *l.tok;
		if (c == '(') {
			if (!in_body && depth == 0)
				parens++;
		} else if (c == ')') {
			if (!in_body && depth == 0 && parens > 0 && --parens == 0 && have_cand)
				cand_closed = 1;
		} else if (c == '{') {
			if (depth == 0 && parens == 0 && have_cand && cand_closed) {
				in_body = 1;
				ffirst = p->body_ids->len;
			}
			depth++;
		} else if (c == '}') {
			if (depth > 0 && --depth == 0) {
				if (in_body)
					end_def(p, cand, ffirst);
				in_body = 0;
				have_cand = cand_closed = 0;
			}
		} else if (c == ';' && depth == 0) {
			have_cand = cand_closed = 0;
			parens = 0;
		} else if (c == '=' && depth == 0 && parens == 0) {
			have_cand = cand_closed = 0; /* an initializer, not a function body */
		}
	}
	if (dstate == 2)
		end_def(p, dname, dfirst);
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect_headers(const char *dir, GPtrArray *out)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	GPtrArray *names = g_ptr_array_new();
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			g_ptr_array_add(names, xstrdup(e->d_name));
	closedir(d);
	if (names->len > 1) /* qsort(NULL, 0) is undefined */
		qsort(names->pdata, names->len, sizeof(char *), cmp_cstr);
	for (guint i = 0; i < names->len; i++) {
		char *path = xasprintf("%s/%s", dir, (char *)names->pdata[i]);
		struct stat st;
		size_t n = strlen(path);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			collect_headers(path, out);
			free(path);
		} else if (S_ISREG(st.st_mode) && n > 2 && !strcmp(path + n - 2, ".h")) {
			g_ptr_array_add(out, path);
		} else {
			free(path);
		}
		free(names->pdata[i]);
	}
	g_ptr_array_free(names, TRUE);
}

int prefilter_learn_dir(struct prefilter *p, const char *dir)
{
	GPtrArray *files = g_ptr_array_new();
	collect_headers(dir, files);
	struct strbuf sb = STRBUF_INIT;
	for (guint i = 0; i < files->len; i++) {
		strbuf_reset(&sb);
		if (strbuf_read_file(&sb, files->pdata[i], 0) == 0)
			prefilter_learn_text(p, sb.buf, sb.len);
		free(files->pdata[i]);
	}
	strbuf_release(&sb);
	int n = (int)files->len;
	g_ptr_array_free(files, TRUE);
	err_clear();
	return n;
}

size_t prefilter_learn_finish(struct prefilter *p)
{
	size_t learned = 0;
	guint nid = p->ident_str->len;
	/* known[id]: the identifier is an allocator or a wrapper */
	unsigned char *known = xcalloc(nid ? nid : 1, 1);
	for (guint i = 0; i < nid; i++) {
		const char *s = p->ident_str->pdata[i];
		known[i] = known_n(p, s, strlen(s));
	}
	const struct def *defs = (const struct def *)(void *)p->defs->data;
	const guint *ids = (const guint *)(void *)p->body_ids->data;
	for (int changed = 1; changed; ) {
		changed = 0;
		for (guint k = 0; k < p->defs->len; k++) {
			const struct def *d = &defs[k];
			if (known[d->name])
				continue;
			for (size_t j = 0; j < d->count; j++)
				if (known[ids[d->first + j]] && ids[d->first + j] != d->name) {
					known[d->name] = 1;
					const char *s = p->ident_str->pdata[d->name];
					add_name_n(p, s, strlen(s));
					learned++;
					changed = 1;
					break;
				}
		}
	}
	free(known);
	/* the definitions are not needed any more, and workers fork from this
	 * process: give the memory back before they copy it */
	g_array_set_size(p->defs, 0);
	g_array_set_size(p->body_ids, 0);
	g_hash_table_destroy(p->intern);
	g_ptr_array_free(p->ident_str, TRUE);
	p->intern = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	p->ident_str = g_ptr_array_new();
	return learned;
}
