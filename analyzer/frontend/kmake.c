/* The make subset of kbuild Makefiles (see kmake.h). */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gfpaudit/kmake.h"
#include "gfpaudit/strbuf.h"

#define MAX_EXPAND_DEPTH 40
#define MAX_INCLUDE_DEPTH 6
#define MAX_COND_DEPTH 32

GHashTable *kmake_config(const char *tree)
{
	static char *memo_path;
	static struct stat memo_st;
	static GHashTable *memo;
	char *p = xasprintf("%s/include/config/auto.conf", tree);
	struct stat st;
	bool have = stat(p, &st) == 0;
	if (memo && have && !strcmp(memo_path, p) && st.st_mtim.tv_sec == memo_st.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == memo_st.st_mtim.tv_nsec && st.st_size == memo_st.st_size) {
		free(p);
		return g_hash_table_ref(memo);
	}
	GHashTable *c = g_hash_table_new_full(g_str_hash, g_str_equal, free, free);
	FILE *f = have ? fopen(p, "r") : NULL;
	if (!f) {
		free(p);
		return c;
	}
	char line[4096];
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "CONFIG_", 7))
			continue;
		char *eq = strchr(line, '=');
		if (!eq || (eq[1] != 'y' && eq[1] != 'm'))
			continue;
		g_hash_table_insert(c, xstrndup(line, (size_t)(eq - line)), xstrndup(eq + 1, 1));
	}
	fclose(f);
	if (memo)
		g_hash_table_unref(memo);
	free(memo_path);
	memo = g_hash_table_ref(c);
	memo_path = p;
	memo_st = st;
	return c;
}

static void assign_free(gpointer p)
{
	struct kmake_assign *a = p;
	free(a->name);
	free(a->value);
	free(a->dir);
	free(a);
}

void kmake_init(struct kmake *m, const char *tree, GHashTable *config)
{
	m->tree = tree;
	m->config = g_hash_table_ref(config);
	m->vars = g_hash_table_new_full(g_str_hash, g_str_equal, free, free);
	m->simple = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	m->assigns = g_ptr_array_new_with_free_func(assign_free);
	m->files = g_ptr_array_new_with_free_func(free);
	m->evals = g_ptr_array_new_with_free_func(free);
	m->globs = g_ptr_array_new_with_free_func(free);
}

void kmake_release(struct kmake *m)
{
	g_hash_table_unref(m->config);
	g_hash_table_destroy(m->vars);
	g_hash_table_destroy(m->simple);
	g_ptr_array_free(m->assigns, TRUE);
	g_ptr_array_free(m->files, TRUE);
	g_ptr_array_free(m->evals, TRUE);
	g_ptr_array_free(m->globs, TRUE);
	memset(m, 0, sizeof(*m));
}

void kmake_set(struct kmake *m, const char *name, const char *value)
{
	g_hash_table_insert(m->vars, xstrdup(name), xstrdup(value));
	g_hash_table_add(m->simple, xstrdup(name));
}

/* ---- words ---- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Words of s (a new array of owned strings). */
static GPtrArray *words(const char *s)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(free);
	for (const char *p = s; *p;) {
		while (is_blank(*p))
			p++;
		const char *b = p;
		while (*p && !is_blank(*p))
			p++;
		if (p > b)
			g_ptr_array_add(w, xstrndup(b, (size_t)(p - b)));
	}
	return w;
}

static void add_word(struct strbuf *sb, const char *w, size_t n)
{
	if (sb->len)
		strbuf_addc(sb, ' ');
	strbuf_add(sb, w, n);
}

/* make's % pattern: *stem gets the part % matched. */
static bool pat_match(const char *pat, const char *w, const char **stem, size_t *stemlen)
{
	const char *pct = strchr(pat, '%');
	if (!pct) {
		*stem = NULL;
		*stemlen = 0;
		return !strcmp(pat, w);
	}
	size_t pre = (size_t)(pct - pat), post = strlen(pct + 1), wl = strlen(w);
	if (wl < pre + post || strncmp(w, pat, pre) || strcmp(w + wl - post, pct + 1))
		return false;
	*stem = w + pre;
	*stemlen = wl - pre - post;
	return true;
}

static void pat_replace(struct strbuf *sb, const char *rep, const char *stem, size_t stemlen)
{
	const char *pct = strchr(rep, '%');
	if (!pct || !stem) {
		add_word(sb, rep, strlen(rep));
		return;
	}
	if (sb->len)
		strbuf_addc(sb, ' ');
	strbuf_add(sb, rep, (size_t)(pct - rep));
	strbuf_add(sb, stem, stemlen);
	strbuf_adds(sb, pct + 1);
}

static char *patsubst(const char *pat, const char *rep, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	GPtrArray *w = words(text);
	for (guint i = 0; i < w->len; i++) {
		const char *s = g_ptr_array_index(w, i), *stem;
		size_t sl;
		if (pat_match(pat, s, &stem, &sl))
			pat_replace(&sb, rep, stem, sl);
		else
			add_word(&sb, s, strlen(s));
	}
	g_ptr_array_free(w, TRUE);
	return strbuf_detach(&sb);
}

static char *strip_copy(const char *s)
{
	while (is_blank(*s))
		s++;
	size_t n = strlen(s);
	while (n && is_blank(s[n - 1]))
		n--;
	return xstrndup(s, n);
}

/* ---- expansion ---- */

struct exp {
	struct kmake *m;
	const char *dir;
	bool strict;
};

static char *expand(struct exp *x, const char *s, int depth);

/* Split a function's raw arguments at top-level commas (at most max). */
static GPtrArray *split_args(const char *s, int max)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(free);
	int level = 0;
	const char *b = s;
	for (const char *p = s; *p; p++) {
		if (*p == '(' || *p == '{')
			level++;
		else if (*p == ')' || *p == '}')
			level--;
		else if (*p == ',' && level == 0 && (int)a->len + 1 < max) {
			g_ptr_array_add(a, xstrndup(b, (size_t)(p - b)));
			b = p + 1;
		}
	}
	g_ptr_array_add(a, xstrdup(b));
	return a;
}

static char *arg(struct exp *x, GPtrArray *a, guint i, int depth)
{
	return i < a->len ? expand(x, g_ptr_array_index(a, i), depth + 1) : xstrdup("");
}

char *kmake_glob_key(const char *pattern)
{
	struct strbuf sb = STRBUF_INIT;
	glob_t g;
	if (glob(pattern, 0, NULL, &g) == 0)
		for (size_t k = 0; k < g.gl_pathc; k++) {
			if (k)
				strbuf_addc(&sb, ' ');
			strbuf_adds(&sb, g.gl_pathv[k]);
		}
	globfree(&g);
	return strbuf_detach(&sb);
}

/* Functions of one list argument mapped over its words. */
static char *map_words(const char *fn, const char *text, struct kmake *m)
{
	const char *tree = m->tree;
	struct strbuf sb = STRBUF_INIT;
	GPtrArray *w = words(text);
	for (guint i = 0; i < w->len; i++) {
		const char *s = g_ptr_array_index(w, i);
		const char *slash = strrchr(s, '/'), *base = slash ? slash + 1 : s;
		const char *dot = strrchr(base, '.');
		if (!strcmp(fn, "dir"))
			slash ? add_word(&sb, s, (size_t)(slash - s) + 1) : add_word(&sb, "./", 2);
		else if (!strcmp(fn, "notdir"))
			add_word(&sb, base, strlen(base));
		else if (!strcmp(fn, "basename"))
			add_word(&sb, s, dot ? (size_t)(dot - s) : strlen(s));
		else if (!strcmp(fn, "suffix")) {
			if (dot)
				add_word(&sb, dot, strlen(dot));
		} else if (!strcmp(fn, "wildcard")) {
			/* make runs in the object tree, which is the source tree here */
			char *pat = s[0] == '/' ? xstrdup(s) : xasprintf("%s/%s", tree, s);
			glob_t g;
			if (glob(pat, 0, NULL, &g) == 0) {
				size_t tl = strlen(tree);
				for (size_t k = 0; k < g.gl_pathc; k++) {
					const char *r = g.gl_pathv[k];
					if (s[0] != '/' && !strncmp(r, tree, tl) && r[tl] == '/')
						r += tl + 1;
					add_word(&sb, r, strlen(r));
				}
			}
			globfree(&g);
			/* what the directory held is an input too */
			char *key = kmake_glob_key(pat);
			g_ptr_array_add(m->globs, xasprintf("%s\t%s", pat, key));
			free(key);
			free(pat);
		}
	}
	g_ptr_array_free(w, TRUE);
	return strbuf_detach(&sb);
}

static int cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The functions of one argument; false when fn is none of them. */
static bool one_arg_function(struct exp *x, const char *fn, const char *raw, int depth, char **out)
{
	static const char *const one_arg[] = { "strip", "sort", "words", "firstword", "lastword", "dir",
					       "notdir", "basename", "suffix", "wildcard", NULL };
	const char *const *o = one_arg;
	while (*o && strcmp(fn, *o))
		o++;
	if (!*o)
		return false;
	*out = NULL;
	char *t = expand(x, raw, depth + 1);
	if (!t)
		return true;
	if (strcmp(fn, "strip") && strcmp(fn, "sort") && strcmp(fn, "words") && strcmp(fn, "firstword") &&
	    strcmp(fn, "lastword")) {
		*out = map_words(fn, t, x->m);
		free(t);
		return true;
	}
	GPtrArray *w = words(t);
	struct strbuf sb = STRBUF_INIT;
	if (!strcmp(fn, "sort"))
		g_ptr_array_sort(w, cmp_str);
	if (!strcmp(fn, "words")) {
		strbuf_addf(&sb, "%u", w->len);
	} else if (!strcmp(fn, "firstword") || !strcmp(fn, "lastword")) {
		if (w->len)
			strbuf_adds(&sb, g_ptr_array_index(w, !strcmp(fn, "firstword") ? 0 : w->len - 1));
	} else {
		for (guint i = 0; i < w->len; i++) {
			const char *s = g_ptr_array_index(w, i);
			if (!strcmp(fn, "sort") && i && !strcmp(s, g_ptr_array_index(w, i - 1)))
				continue;
			add_word(&sb, s, strlen(s));
		}
	}
	g_ptr_array_free(w, TRUE);
	free(t);
	*out = strbuf_detach(&sb);
	return true;
}

/* $(foreach var,list,text) */
static char *fn_foreach(struct exp *x, GPtrArray *a, int depth)
{
	char *r = NULL;
	char *var = arg(x, a, 0, depth), *list = arg(x, a, 1, depth);
	if (var && list && a->len == 3) {
		char *v = strip_copy(var);
		char *saved = g_hash_table_lookup(x->m->vars, v);
		saved = saved ? xstrdup(saved) : NULL;
		bool was_simple = g_hash_table_contains(x->m->simple, v);
		struct strbuf sb = STRBUF_INIT;
		GPtrArray *w = words(list);
		bool ok = true;
		for (guint i = 0; i < w->len && ok; i++) {
			kmake_set(x->m, v, g_ptr_array_index(w, i));
			char *e = arg(x, a, 2, depth);
			if (!e)
				ok = false;
			else if (*e)
				add_word(&sb, e, strlen(e));
			free(e);
		}
		g_ptr_array_free(w, TRUE);
		if (saved)
			g_hash_table_insert(x->m->vars, xstrdup(v), saved);
		else
			g_hash_table_remove(x->m->vars, v);
		if (!was_simple)
			g_hash_table_remove(x->m->simple, v);
		r = ok ? strbuf_detach(&sb) : NULL;
		if (!ok)
			strbuf_release(&sb);
		free(v);
	}
	free(var);
	free(list);
	return r;
}

/* $(call name,args...): bind $(1).. and expand the variable's text */
static char *fn_call(struct exp *x, GPtrArray *a, int depth)
{
	char *r = NULL;
	/* bind $(1).. and expand the variable's text */
	char *name = arg(x, a, 0, depth);
	char *n = name ? strip_copy(name) : NULL;
	const char *body = n ? g_hash_table_lookup(x->m->vars, n) : NULL;
	if (body && a->len <= 10) {
		char *keep[10] = { 0 };
		char *bodyc = xstrdup(body);
		bool ok = true;
		for (guint i = 1; i < 10; i++) {
			char key[4];
			snprintf(key, sizeof(key), "%u", i);
			keep[i] = g_hash_table_lookup(x->m->vars, key) ? xstrdup(g_hash_table_lookup(x->m->vars, key)) : NULL;
			char *v = i < a->len ? arg(x, a, i, depth) : xstrdup("");
			if (!v) {
				ok = false;
				v = xstrdup("");
			}
			kmake_set(x->m, key, v);
			free(v);
		}
		r = ok ? expand(x, bodyc, depth + 1) : NULL;
		for (guint i = 1; i < 10; i++) {
			char key[4];
			snprintf(key, sizeof(key), "%u", i);
			if (keep[i])
				g_hash_table_insert(x->m->vars, xstrdup(key), keep[i]);
			else
				g_hash_table_remove(x->m->vars, key);
		}
		free(bodyc);
	} else if (n && !body && !x->strict) {
		r = xstrdup(""); /* make: calling an undefined variable gives nothing */
	}
	free(name);
	free(n);
	return r;
}

/* The text functions of two or three arguments. */
static char *fn_text(struct exp *x, const char *fn, GPtrArray *a, int depth)
{
	char *r = NULL, *a0 = NULL, *a1 = NULL, *a2 = NULL;
	bool three = !strcmp(fn, "subst") || !strcmp(fn, "patsubst");
	if ((a0 = arg(x, a, 0, depth)) && (a1 = arg(x, a, 1, depth)) && (!three || (a2 = arg(x, a, 2, depth)))) {
		struct strbuf sb = STRBUF_INIT;
		if (!strcmp(fn, "subst")) {
			const char *p = a2;
			size_t fl = strlen(a0);
			while (fl && *p) {
				const char *q = strstr(p, a0);
				if (!q)
					break;
				strbuf_add(&sb, p, (size_t)(q - p));
				strbuf_adds(&sb, a1);
				p = q + fl;
			}
			strbuf_adds(&sb, p);
			r = strbuf_detach(&sb);
		} else if (!strcmp(fn, "patsubst")) {
			char *pat = strip_copy(a0), *rep = strip_copy(a1);
			r = patsubst(pat, rep, a2);
			free(pat);
			free(rep);
		} else if (!strcmp(fn, "findstring")) {
			r = xstrdup(strstr(a1, a0) ? a0 : "");
		} else if (!strcmp(fn, "word")) {
			GPtrArray *w = words(a1);
			long k = atol(a0);
			r = xstrdup(k >= 1 && (guint)k <= w->len ? (char *)g_ptr_array_index(w, k - 1) : "");
			g_ptr_array_free(w, TRUE);
		} else {
			GPtrArray *p = words(a0), *w = words(a1);
			for (guint i = 0; i < w->len; i++) {
				const char *s = g_ptr_array_index(w, i);
				if (fn[0] == 'a') {
					char *fix = strip_copy(a0);
					char *t = fn[3] == 'p' ? xasprintf("%s%s", fix, s) : xasprintf("%s%s", s, fix);
					add_word(&sb, t, strlen(t));
					free(t);
					free(fix);
					continue;
				}
				bool hit = false;
				for (guint k = 0; k < p->len && !hit; k++) {
					const char *stem;
					size_t sl;
					hit = pat_match(g_ptr_array_index(p, k), s, &stem, &sl);
				}
				if (hit == !strcmp(fn, "filter"))
					add_word(&sb, s, strlen(s));
			}
			g_ptr_array_free(p, TRUE);
			g_ptr_array_free(w, TRUE);
			r = strbuf_detach(&sb);
		}
	}
	free(a0);
	free(a1);
	free(a2);
	return r;
}

/* $(fn args): NULL when fn is not one we know (or its expansion fails). */
static char *call_function(struct exp *x, const char *fn, const char *raw, int depth)
{
	char *r1;
	if (one_arg_function(x, fn, raw, depth, &r1))
		return r1;
	GPtrArray *a = split_args(raw, !strcmp(fn, "if") ? 3 : !strcmp(fn, "foreach") ? 3
					: (!strcmp(fn, "or") || !strcmp(fn, "and") || !strcmp(fn, "call")) ? 1000 : 3);
	char *r = NULL, *a0 = NULL;
	if (!strcmp(fn, "if")) {
		if ((a0 = arg(x, a, 0, depth))) {
			char *c = strip_copy(a0);
			r = arg(x, a, *c ? 1 : 2, depth);
			free(c);
		}
	} else if (!strcmp(fn, "or") || !strcmp(fn, "and")) {
		bool is_or = fn[0] == 'o';
		r = xstrdup("");
		for (guint i = 0; i < a->len && r; i++) {
			free(r);
			char *v = arg(x, a, i, depth);
			r = v ? strip_copy(v) : NULL;
			free(v);
			if (r && (is_or ? *r != 0 : *r == 0))
				break;
		}
	} else if (!strcmp(fn, "eval")) {
		/* the text is read as Makefile lines once the line that
		 * expanded it is done (line()); it expands to nothing */
		char *t = xstrdup(raw);
		char *e = expand(x, t, depth + 1);
		free(t);
		if (e)
			g_ptr_array_add(x->m->evals, e);
		r = e ? xstrdup("") : NULL;
	} else if (!strcmp(fn, "foreach")) {
		r = fn_foreach(x, a, depth);
	} else if (!strcmp(fn, "call")) {
		r = fn_call(x, a, depth);
	} else if (!strcmp(fn, "subst") || !strcmp(fn, "patsubst") || !strcmp(fn, "findstring") ||
		   !strcmp(fn, "filter") || !strcmp(fn, "filter-out") || !strcmp(fn, "addprefix") ||
		   !strcmp(fn, "addsuffix") || !strcmp(fn, "word")) {
		r = fn_text(x, fn, a, depth);
	}
	free(a0);
	g_ptr_array_free(a, TRUE);
	return r;
}

/* The value of variable `name` (expanded), or NULL when unknown. */
static char *variable(struct exp *x, const char *name, int depth)
{
	struct kmake *m = x->m;
	if (!strcmp(name, "src") || !strcmp(name, "obj"))
		return xstrdup(x->dir);
	if (!strcmp(name, "srctree") || !strcmp(name, "objtree"))
		return xstrdup(m->tree);
	if (!strncmp(name, "CONFIG_", 7)) {
		const char *v = g_hash_table_lookup(m->config, name);
		return xstrdup(v ? v : "");
	}
	const char *v = g_hash_table_lookup(m->vars, name);
	if (!v)
		return x->strict ? NULL : xstrdup("");
	if (g_hash_table_contains(m->simple, name))
		return xstrdup(v);
	char *copy = xstrdup(v); /* the table may change while it expands */
	char *r = expand(x, copy, depth + 1);
	free(copy);
	return r;
}

static char *expand(struct exp *x, const char *s, int depth)
{
	if (depth > MAX_EXPAND_DEPTH)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = s; *p;) {
		if (p[0] != '$') {
			strbuf_addc(&sb, *p++);
			continue;
		}
		if (p[1] == '$') {
			strbuf_addc(&sb, '$');
			p += 2;
			continue;
		}
		char open = p[1], close = open == '(' ? ')' : open == '{' ? '}' : 0;
		if (!close) {
			/* $X: one-character variable name */
			if (!p[1])
				goto unknown;
			char name[2] = { p[1], 0 };
			char *v = variable(x, name, depth);
			if (!v)
				goto unknown;
			strbuf_adds(&sb, v);
			free(v);
			p += 2;
			continue;
		}
		int level = 0;
		const char *q = p + 1;
		for (; *q; q++) {
			if (*q == '(' || *q == '{')
				level++;
			else if ((*q == ')' || *q == '}') && --level == 0)
				break;
		}
		if (!*q)
			goto unknown;
		char *inner = xstrndup(p + 2, (size_t)(q - p - 2));
		size_t fl = strcspn(inner, " \t$:");
		char *v = NULL;
		if (inner[fl] == ' ' || inner[fl] == '\t') {
			char *fn = xstrndup(inner, fl);
			v = call_function(x, fn, inner + fl + 1, depth);
			free(fn);
		} else {
			/* a name, maybe computed, maybe with a substitution :a=b */
			char *colon = NULL;
			int lv = 0;
			for (char *c = inner; *c; c++) {
				if (*c == '(' || *c == '{')
					lv++;
				else if (*c == ')' || *c == '}')
					lv--;
				else if (*c == ':' && !lv) {
					colon = c;
					break;
				}
			}
			if (colon)
				*colon = 0;
			char *name = strchr(inner, '$') ? expand(x, inner, depth + 1) : xstrdup(inner);
			if (name && !strpbrk(name, " \t,")) {
				v = variable(x, name, depth);
				if (v && colon) {
					char *eq = strchr(colon + 1, '=');
					if (!eq) {
						free(v);
						v = NULL;
					} else {
						*eq = 0;
						char *from = expand(x, colon + 1, depth + 1), *to = expand(x, eq + 1, depth + 1);
						char *pf = from && strchr(from, '%') ? xstrdup(from) : xasprintf("%%%s", from ? from : "");
						char *pt = to && strchr(from ? from : "", '%') ? xstrdup(to) : xasprintf("%%%s", to ? to : "");
						char *nv = from && to ? patsubst(pf, pt, v) : NULL;
						free(pf);
						free(pt);
						free(from);
						free(to);
						free(v);
						v = nv;
					}
				}
			}
			free(name);
		}
		free(inner);
		if (!v)
			goto unknown;
		strbuf_adds(&sb, v);
		free(v);
		p = q + 1;
	}
	return strbuf_detach(&sb);
unknown:
	strbuf_release(&sb);
	return NULL;
}

char *kmake_expand(struct kmake *m, const char *s, const char *dir, bool strict)
{
	struct exp x = { m, dir, strict };
	return expand(&x, s, 0);
}

char *kmake_value(struct kmake *m, const char *name, const char *dir)
{
	struct exp x = { m, dir, false };
	char *v = variable(&x, name, 0);
	return v ? v : xstrdup("");
}

/* ---- reading ---- */

enum tri { T_FALSE, T_TRUE, T_UNKNOWN };

struct cond {
	bool parent_active;
	enum tri cur;
	bool taken;   /* a branch so far was surely taken */
	bool unknown; /* a branch so far could not be decided */
};

struct reader {
	struct kmake *m;
	const char *dir;
	struct cond stack[MAX_COND_DEPTH];
	int depth;        /* conditionals open */
	int skipped;      /* conditionals open beyond the stack */
	bool in_define;
	bool in_rule;     /* after a rule line: tab-led lines are its recipe */
};

static bool active(const struct reader *r)
{
	if (r->skipped)
		return false;
	if (!r->depth)
		return true;
	const struct cond *c = &r->stack[r->depth - 1];
	return c->parent_active && c->cur != T_FALSE;
}

/* ifeq/ifneq operands: "(a,b)", "'a' 'b'", "\"a\" \"b\"". */
static enum tri eval_eq(struct reader *r, const char *args, bool neq)
{
	char *a = NULL, *b = NULL;
	const char *p = args;
	while (is_blank(*p))
		p++;
	if (*p == '(') {
		size_t n = strlen(p);
		while (n && is_blank(p[n - 1]))
			n--;
		if (n < 2 || p[n - 1] != ')')
			return T_UNKNOWN;
		char *in = xstrndup(p + 1, n - 2);
		GPtrArray *v = split_args(in, 2);
		free(in);
		if (v->len == 2) {
			a = xstrdup(g_ptr_array_index(v, 0));
			b = xstrdup(g_ptr_array_index(v, 1));
		}
		g_ptr_array_free(v, TRUE);
	} else if (*p == '"' || *p == '\'') {
		const char *e = strchr(p + 1, *p);
		if (e) {
			a = xstrndup(p + 1, (size_t)(e - p - 1));
			const char *s = e + 1;
			while (is_blank(*s))
				s++;
			const char *e2 = (*s == '"' || *s == '\'') ? strchr(s + 1, *s) : NULL;
			if (e2)
				b = xstrndup(s + 1, (size_t)(e2 - s - 1));
		}
	}
	enum tri t = T_UNKNOWN;
	if (a && b) {
		char *ea = kmake_expand(r->m, a, r->dir, false), *eb = kmake_expand(r->m, b, r->dir, false);
		if (ea && eb) {
			char *sa = strip_copy(ea), *sbb = strip_copy(eb);
			t = (!strcmp(sa, sbb)) != neq ? T_TRUE : T_FALSE;
			free(sa);
			free(sbb);
		}
		free(ea);
		free(eb);
	}
	free(a);
	free(b);
	return t;
}

static enum tri eval_def(struct reader *r, const char *args, bool ndef)
{
	char *n = kmake_expand(r->m, args, r->dir, false);
	if (!n)
		return T_UNKNOWN;
	char *name = strip_copy(n);
	free(n);
	const char *v = !strncmp(name, "CONFIG_", 7) ? g_hash_table_lookup(r->m->config, name)
						    : g_hash_table_lookup(r->m->vars, name);
	free(name);
	return (v && *v) != ndef ? T_TRUE : T_FALSE;
}

/* A conditional directive; false when the line is none. */
static bool directive(struct reader *r, const char *p)
{
	static const char *const kw[] = { "ifeq", "ifneq", "ifdef", "ifndef", NULL };
	bool is_else = !strncmp(p, "else", 4) && (!p[4] || is_blank(p[4]));
	const char *q = is_else ? p + 4 : p;
	while (is_else && is_blank(*q))
		q++;
	int which = -1;
	for (int i = 0; kw[i]; i++) {
		size_t n = strlen(kw[i]);
		if (!strncmp(q, kw[i], n) && (is_blank(q[n]) || q[n] == '(')) {
			which = i;
			q += n;
			break;
		}
	}
	if (!strncmp(p, "endif", 5) && (!p[5] || is_blank(p[5]))) {
		if (r->skipped)
			r->skipped--;
		else if (r->depth)
			r->depth--;
		return true;
	}
	if (!is_else && which < 0)
		return false;
	bool evaluate = is_else ? (r->depth && r->stack[r->depth - 1].parent_active && !r->skipped) : active(r);
	enum tri t = T_TRUE;
	if (which >= 0 && evaluate)
		t = which < 2 ? eval_eq(r, q, which == 1) : eval_def(r, q, which == 3);
	if (!is_else) {
		if (r->depth == MAX_COND_DEPTH || r->skipped) {
			r->skipped++;
			return true;
		}
		struct cond *c = &r->stack[r->depth++];
		c->parent_active = evaluate;
		c->cur = t;
		c->taken = t == T_TRUE;
		c->unknown = t == T_UNKNOWN;
		return true;
	}
	if (r->skipped || !r->depth)
		return true;
	struct cond *c = &r->stack[r->depth - 1];
	if (c->taken)
		c->cur = T_FALSE;
	else if (c->unknown)
		c->cur = t == T_FALSE ? T_FALSE : T_UNKNOWN;
	else
		c->cur = t;
	c->taken |= c->cur == T_TRUE;
	c->unknown |= c->cur == T_UNKNOWN;
	return true;
}

static void read_file(struct kmake *m, const char *path, const char *dir, int depth);

static void assignment(struct reader *r, char *p)
{
	struct kmake *m = r->m;
	char *op = strpbrk(p, ":+?=");
	if (!op)
		return;
	r->in_rule = op[0] == ':' && op[1] != '=' && !(op[1] == ':' && op[2] == '=');
	size_t oplen;
	char kind; /* '=', '+', '?', ':' */
	if (op[0] == '=')
		oplen = 1, kind = '=';
	else if (op[0] == '+' && op[1] == '=')
		oplen = 2, kind = '+';
	else if (op[0] == '?' && op[1] == '=')
		oplen = 2, kind = '?';
	else if (op[0] == ':' && op[1] == '=')
		oplen = 2, kind = ':';
	else if (op[0] == ':' && op[1] == ':' && op[2] == '=')
		oplen = 3, kind = ':';
	else
		return; /* a rule */
	char *name_end = op;
	while (name_end > p && is_blank(name_end[-1]))
		name_end--;
	char *raw = xstrndup(p, (size_t)(name_end - p));
	char *value = op + oplen;
	while (is_blank(*value))
		value++;
	size_t vl = strlen(value);
	while (vl && is_blank(value[vl - 1]))
		value[--vl] = 0;
	char *name = strchr(raw, '$') ? kmake_expand(m, raw, r->dir, false) : xstrdup(raw);
	free(raw);
	if (!name || !*name || strpbrk(name, " \t")) {
		free(name);
		return;
	}
	const char *old = g_hash_table_lookup(m->vars, name);
	bool simple = g_hash_table_contains(m->simple, name);
	char *nv = NULL;
	if (kind == '?' && old) {
		free(name);
		return;
	}
	if (kind == ':' || (kind == '+' && old && simple)) {
		char *e = kmake_expand(m, value, r->dir, false);
		if (e && kind == '+')
			nv = xasprintf("%s%s%s", old, *old && *e ? " " : "", e);
		else if (e)
			nv = xstrdup(e);
		free(e);
		if (!nv) { /* not expandable now: keep the text, expand later */
			nv = kind == '+' ? xasprintf("%s %s", old, value) : xstrdup(value);
			simple = false;
		} else {
			simple = true;
		}
	} else if (kind == '+' && old) {
		nv = xasprintf("%s %s", old, value);
	} else {
		nv = xstrdup(value);
		simple = false;
	}
	g_hash_table_insert(m->vars, xstrdup(name), nv);
	if (simple)
		g_hash_table_add(m->simple, xstrdup(name));
	else
		g_hash_table_remove(m->simple, name);
	struct kmake_assign *a = xcalloc(1, sizeof(*a));
	a->name = name;
	a->value = xstrdup(value);
	a->dir = xstrdup(r->dir);
	g_ptr_array_add(m->assigns, a);
}

/* A line that is one $(...) and nothing else. */
static bool call_line(const char *p)
{
	if (p[0] != '$' || (p[1] != '(' && p[1] != '{'))
		return false;
	char open = p[1], close = open == '(' ? ')' : '}';
	int depth = 0;
	const char *q = p + 1;
	for (; *q; q++) {
		if (*q == open)
			depth++;
		else if (*q == close && --depth == 0)
			break;
	}
	if (!*q)
		return false;
	for (q++; *q; q++)
		if (!is_blank(*q))
			return false;
	return true;
}

/* One logical line (continuations joined).  A tab-led line is a recipe
 * only after a rule; elsewhere (`\tobj-$(CONFIG_X) += x.o` inside an ifdef,
 * as in mm/Makefile) it is read like any other. */
static void line(struct reader *r, char *text, int depth)
{
	bool recipe = text[0] == '\t' && r->in_rule;
	if (text[0] != '\t' && text[0])
		r->in_rule = false;
	char *p = text;
	while (is_blank(*p))
		p++;
	if (r->in_define) {
		if (!strncmp(p, "endef", 5))
			r->in_define = false;
		return;
	}
	char *hash = strchr(p, '#');
	if (hash)
		*hash = 0;
	if (!*p)
		return;
	if (!recipe && directive(r, p))
		return;
	if (!active(r))
		return;
	if (!strncmp(p, "define ", 7) || !strncmp(p, "define\t", 7)) {
		r->in_define = true;
		return;
	}
	if (recipe)
		return;
	if (!strncmp(p, "include ", 8) || !strncmp(p, "-include ", 9) || !strncmp(p, "sinclude ", 9)) {
		char *files = kmake_expand(r->m, strchr(p, ' ') + 1, r->dir, false);
		if (!files)
			return;
		GPtrArray *w = words(files);
		for (guint i = 0; i < w->len; i++) {
			const char *t = g_ptr_array_index(w, i);
			char *f = t[0] == '/' ? xstrdup(t) : xasprintf("%s/%s", r->m->tree, t);
			read_file(r->m, f, r->dir, depth + 1);
			free(f);
		}
		g_ptr_array_free(w, TRUE);
		free(files);
		return;
	}
	if (call_line(p)) {
		/* a line that is one function call: what it $(eval)s */
		g_ptr_array_set_size(r->m->evals, 0);
		free(kmake_expand(r->m, p, r->dir, false));
		GPtrArray *ev = r->m->evals;
		r->m->evals = g_ptr_array_new_with_free_func(free);
		for (guint i = 0; i < ev->len && depth < MAX_INCLUDE_DEPTH; i++)
			line(r, g_ptr_array_index(ev, i), depth + 1);
		g_ptr_array_free(ev, TRUE);
		return;
	}
	for (;;) {
		if (!strncmp(p, "export ", 7))
			p += 7;
		else if (!strncmp(p, "override ", 9))
			p += 9;
		else if (!strncmp(p, "private ", 8))
			p += 8;
		else
			break;
		while (is_blank(*p))
			p++;
	}
	assignment(r, p);
}

static void read_file(struct kmake *m, const char *path, const char *dir, int depth)
{
	if (depth > MAX_INCLUDE_DEPTH)
		return;
	struct strbuf sb = STRBUF_INIT;
	if (strbuf_read_file(&sb, path, 0)) {
		strbuf_release(&sb);
		return;
	}
	g_ptr_array_add(m->files, xstrdup(path));
	struct reader r = { .m = m, .dir = dir };
	struct strbuf ln = STRBUF_INIT;
	for (char *p = sb.buf; p && *p;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && p[len - 1] == '\r')
			len--;
		if (len && p[len - 1] == '\\') {
			strbuf_add(&ln, p, len - 1);
			strbuf_addc(&ln, ' ');
		} else {
			strbuf_add(&ln, p, len);
			line(&r, ln.buf, depth);
			strbuf_reset(&ln);
		}
		p = nl ? nl + 1 : NULL;
	}
	if (ln.len)
		line(&r, ln.buf, depth);
	strbuf_release(&ln);
	strbuf_release(&sb);
}

void kmake_read(struct kmake *m, const char *path, const char *dir)
{
	read_file(m, path, dir, 0);
}
