/* The lexical prefilter (see prefilter.h).
 *
 * It reads util/clex.c's tokens, it does not parse: it needs to tell
 * identifiers from comments, strings, numbers and member names, and, in
 * headers, where a macro or a function body starts and ends.  It runs over every file of a
 * tree (tens of thousands), so names are checked first against a bitmap of
 * their hashes and only then against the set.
 */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <glib.h>
#include "gfpaudit/prefilter.h"
#include "gfpaudit/clex.h"
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

/* ---- reading the tokens ---- */

/* The prefilter reads util/clex.c's tokens one at a time (a file is
 * decided at its first allocator name).  Numbers and literals are passed
 * over (they only end a member access); punctuation is read byte by byte
 * ("->" is a '-' then a '>'). */
struct walk {
	const char *text;
	bool in_directive;   /* inside a # line */
	bool after_member;   /* the last punctuation was '.' or '->' */
};

static inline bool tok_directive_start(const char *text, const struct tok *k)
{
	return k->pp && k->bol && k->kind == TK_PUNCT && text[k->begin] == '#';
}

/* The directive's first word ("include", "define"): the text after its
 * '#', which ends at offset hash_end. */
static bool directive_is(const struct clex *l, size_t hash_end, const char *word)
{
	const char *d = l->text + hash_end, *end = l->text + l->len;
	while (d < end && (*d == ' ' || *d == '\t'))
		d++;
	size_t n = strlen(word);
	return (size_t)(end - d) >= n && !strncmp(d, word, n) &&
	       (d + n == end || !(isalnum((unsigned char)d[n]) || d[n] == '_'));
}

/* A punctuation byte: is a member name next? */
static void member_punct(struct walk *w, size_t b)
{
	char c = w->text[b];
	if (c == '.')
		w->after_member = true;
	else if (c == '>' && b > 0 && w->text[b - 1] == '-')
		w->after_member = true;
	else if (c != '-')
		w->after_member = false;
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

/* #include "name" after the directive word (which ends at word_end): its
 * header. */
static bool match_include(struct prefilter *p, const struct clex *l, size_t word_end, const char *path,
			  int depth)
{
	const char *q = l->text + word_end, *end = l->text + l->len;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (q >= end || *q != '"')
		return false;
	const char *s = ++q;
	while (q < end && *q != '"' && *q != '\n')
		q++;
	if (q < end && *q == '"' && match_quoted_include(p, path, s, (size_t)(q - s), depth)) {
		snprintf(p->why, sizeof(p->why), "#include \"%.*s\"", (int)(q - s), s);
		return true;
	}
	return false;
}

/* Only text that looks like C is decided here: balanced brackets outside
 * directives, no characters C has no use for; the rest goes to the parser. */
struct shape {
	int paren, brack, brace;
	bool odd;
};

static void shape_punct(struct shape *sh, char c)
{
	sh->paren += c == '(' ? 1 : c == ')' ? -1 : 0;
	sh->brack += c == '[' ? 1 : c == ']' ? -1 : 0;
	sh->brace += c == '{' ? 1 : c == '}' ? -1 : 0;
	sh->odd |= c == '@' || c == '`' || sh->paren < 0 || sh->brack < 0 || sh->brace < 0;
}

/* An identifier of code: does it decide the file? */
static bool match_ident(struct prefilter *p, const char *s, size_t n, unsigned char *pair_seen,
			size_t npair_seen)
{
	if (known_n(p, s, n) || trigger_n(p, s, n)) {
		snprintf(p->why, sizeof(p->why), "%.*s", (int)n, s);
		return true;
	}
	for (size_t i = 0; i < p->npairs && i < npair_seen; i++) {
		if (in_strv(p->pairs[i].a, s, n))
			pair_seen[i] |= 1;
		if (in_strv(p->pairs[i].b, s, n))
			pair_seen[i] |= 2;
		if (pair_seen[i] == 3) {
			snprintf(p->why, sizeof(p->why), "%.*s (with its pair)", (int)n, s);
			return true;
		}
	}
	return false;
}

static bool match_text(struct prefilter *p, const char *text, size_t len, const char *path, int depth)
{
	struct clex l;
	struct tok tk, *k = &tk;
	struct walk w = { .text = text };
	struct shape sh = { 0 };
	bool directive_word = false, skip_directive = false;
	size_t hash_end = 0;
	unsigned char pair_seen[64] = { 0 }; /* bit 1: a name of a, bit 2: of b */
	clex_init(&l, text, len);
	while (clex_next(&l, k)) {
		if (!k->pp || tok_directive_start(text, k)) {
			directive_word = skip_directive = false;
			w.in_directive = k->pp;
			if (k->pp) {
				hash_end = k->end;
				continue;
			}
		}
		if (k->kind == TK_NUMBER || k->kind == TK_STRING || k->kind == TK_CHAR) {
			w.after_member = false;
			continue;
		}
		if (w.in_directive && !directive_word) {
			directive_word = true;
			/* header names are not calls: <linux/vmalloc.h> */
			if (directive_is(&l, hash_end, "include") || directive_is(&l, hash_end, "include_next")) {
				skip_directive = true;
				if (match_include(p, &l, k->end, path, depth))
					return true;
			} else if (directive_is(&l, hash_end, "pragma") || directive_is(&l, hash_end, "error") ||
				   directive_is(&l, hash_end, "warning") || directive_is(&l, hash_end, "line")) {
				skip_directive = true;
			}
			continue;
		}
		if (skip_directive)
			continue;
		if (k->kind == TK_PUNCT) {
			for (size_t b = k->begin; b < k->end; b++) {
				if (!w.in_directive)
					shape_punct(&sh, text[b]);
				member_punct(&w, b);
			}
			continue;
		}
		if (w.after_member) {
			w.after_member = false;
			continue;
		}
		if (match_ident(p, text + k->begin, k->end - k->begin, pair_seen, sizeof(pair_seen)))
			return true;
	}
	if (depth == 0 && (sh.paren || sh.brack || sh.brace || sh.odd)) {
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
/* The state of prefilter_learn_text(): the #define being read, the
 * file-scope function whose name and body are being read. */
struct learn {
	int dstate;          /* 0 first word, 1 define name expected, 2 body, 3 ignore */
	bool in_directive;
	guint dname;
	size_t dfirst;
	int depth, parens;
	bool have_cand, cand_closed, in_body;
	guint cand;
	size_t ffirst;
};

static void learn_directive_end(struct prefilter *p, struct learn *l)
{
	if (l->in_directive && l->dstate == 2)
		end_def(p, l->dname, l->dfirst);
	l->dstate = 0;
	l->in_directive = false;
}

/* A token of a directive after its '#': #define's name and body. */
static void learn_directive(struct prefilter *p, struct learn *l, const char *text, const struct tok *k)
{
	const char *s = text + k->begin;
	size_t n = k->end - k->begin;
	if (l->dstate == 0) {
		l->dstate = (k->kind == TK_IDENT && n == 6 && !strncmp(s, "define", 6)) ? 1 : 3;
	} else if (l->dstate == 1) {
		if (k->kind != TK_IDENT) {
			l->dstate = 3;
			return;
		}
		l->dname = intern(p, s, n);
		l->dfirst = p->body_ids->len;
		l->dstate = 2;
	} else if (l->dstate == 2 && k->kind == TK_IDENT) {
		body_ident(p, s, n);
	}
}

/* A punctuation byte outside directives: parameter lists and bodies. */
static void learn_punct(struct prefilter *p, struct learn *l, char c)
{
	if (c == '(') {
		if (!l->in_body && l->depth == 0)
			l->parens++;
	} else if (c == ')') {
		if (!l->in_body && l->depth == 0 && l->parens > 0 && --l->parens == 0 && l->have_cand)
			l->cand_closed = true;
	} else if (c == '{') {
		if (l->depth == 0 && l->parens == 0 && l->have_cand && l->cand_closed) {
			l->in_body = true;
			l->ffirst = p->body_ids->len;
		}
		l->depth++;
	} else if (c == '}') {
		if (l->depth > 0 && --l->depth == 0) {
			if (l->in_body)
				end_def(p, l->cand, l->ffirst);
			l->in_body = false;
			l->have_cand = l->cand_closed = false;
		}
	} else if (c == ';' && l->depth == 0) {
		l->have_cand = l->cand_closed = false;
		l->parens = 0;
	} else if (c == '=' && l->depth == 0 && l->parens == 0) {
		l->have_cand = l->cand_closed = false; /* an initializer, not a function body */
	}
}

/* Record every #define and every top-level function body with the
 * identifiers it uses; prefilter_learn_finish() decides which are wrappers.
 * Numbers and literals are passed over. */
void prefilter_learn_text(struct prefilter *p, const char *text, size_t len)
{
	struct clex lx;
	struct tok tk, *k = &tk;
	struct learn l = { 0 };
	clex_init(&lx, text, len);
	while (clex_next(&lx, k)) {
		if (!k->pp || tok_directive_start(text, k)) {
			learn_directive_end(p, &l);
			if (k->pp) {
				l.in_directive = true;
				continue;
			}
		}
		if (k->kind == TK_NUMBER || k->kind == TK_STRING || k->kind == TK_CHAR)
			continue;
		if (l.in_directive) {
			learn_directive(p, &l, text, k);
			continue;
		}
		if (k->kind == TK_IDENT) {
			if (l.in_body) {
				body_ident(p, text + k->begin, k->end - k->begin);
			} else if (l.depth == 0 && l.parens == 0) {
				/* the last identifier before '(' at file scope: a candidate name */
				l.cand = intern(p, text + k->begin, k->end - k->begin);
				l.have_cand = true;
				l.cand_closed = false;
			}
			continue;
		}
		for (size_t b = k->begin; b < k->end; b++)
			learn_punct(p, &l, text[b]);
	}
	learn_directive_end(p, &l);
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
