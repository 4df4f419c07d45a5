/* The per-directory compiler flags of kbuild Makefiles (see frontend.h).
 *
 * Not a make implementation: a reader of the assignments kbuild Makefiles
 * use for preprocessor flags.  For a file D/f.c it takes
 *   subdir-ccflags-y / subdir-ccflags-$(CONFIG_X) of D and every directory
 *     above it, up to the tree root,
 *   ccflags-y / ccflags-$(CONFIG_X) / EXTRA_CFLAGS of D,
 *   CFLAGS_f.o of D,
 * each from D's Makefile or Kbuild (and the files they `include`), and keeps
 * -I, -D, -U and -include.  $(src), $(obj) expand to the Makefile's directory,
 * $(srctree)/$(objtree) to the tree, $(CONFIG_X) to y or m when the tree's
 * include/config/auto.conf sets it, and other variables to what the same
 * Makefile assigned them (recursively; $(call ...), $(shell ...) and other
 * functions are unknown, and a flag that uses one is left out).  Conditionals
 * (ifdef, ifeq) are not evaluated: both branches count.
 *
 * A directory whose Makefile sets no ccflags of its own gets the -I paths of
 * the nearest directory above that sets some: such directories are often
 * built by that Makefile (nouveau's Kbuild includes nvkm/.../Kbuild).
 *
 * What this misses: flags of a Makefile in a sibling directory that lists
 * the object (amdgpu's Makefile builds ../display/...), exported variables,
 * and anything computed.  Files then parse with fewer -I paths, as before. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <glib.h>
#include "gfpaudit/frontend.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

#define MAX_EXPAND_DEPTH 8
#define MAX_INCLUDE_DEPTH 4

struct mk {
	const char *tree;
	GHashTable *config;  /* CONFIG_X -> "y"/"m" (borrowed) */
	GHashTable *vars;    /* name -> value (this Makefile's) */
	GPtrArray *assigns;  /* struct assign, in order */
};

struct assign {
	char *name; /* after expansion of $(CONFIG_X) */
	char *value;
	char *dir;  /* the Makefile's directory: $(src) */
};

static void assign_free(gpointer p)
{
	struct assign *a = p;
	free(a->name);
	free(a->value);
	free(a->dir);
	free(a);
}

/* The tree's auto.conf as CONFIG_X -> "y"/"m".  A worker parses many files
 * of one tree: the table is kept for the process (reachable, never freed)
 * and read again only when the tree or the file's stamp changes. */
static GHashTable *read_config(const char *tree)
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

/* Expand $(X) / ${X} in s; NULL when a reference cannot be expanded. */
static char *expand(struct mk *m, const char *s, const char *dir, int depth)
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
		if (!close)
			goto unknown;
		/* the matching parenthesis (nesting counted) */
		int level = 0;
		const char *q = p + 1;
		for (; *q; q++) {
			if (*q == open)
				level++;
			else if (*q == close && --level == 0)
				break;
		}
		if (!*q)
			goto unknown;
		char *inner = xstrndup(p + 2, (size_t)(q - p - 2));
		char *name = strchr(inner, '$') ? expand(m, inner, dir, depth + 1) : xstrdup(inner);
		free(inner);
		if (!name || strpbrk(name, " \t,")) { /* a function call */
			free(name);
			goto unknown;
		}
		const char *val = NULL;
		char *owned = NULL;
		if (!strcmp(name, "src") || !strcmp(name, "obj"))
			val = dir;
		else if (!strcmp(name, "srctree") || !strcmp(name, "objtree"))
			val = m->tree;
		else if (!strncmp(name, "CONFIG_", 7))
			val = g_hash_table_lookup(m->config, name) ? g_hash_table_lookup(m->config, name) : "";
		else if ((val = g_hash_table_lookup(m->vars, name)))
			val = owned = expand(m, val, dir, depth + 1);
		else
			val = NULL;
		free(name);
		if (!val)
			goto unknown;
		strbuf_adds(&sb, val);
		free(owned);
		p = q + 1;
	}
	return strbuf_detach(&sb);
unknown:
	strbuf_release(&sb);
	return NULL;
}

static void read_makefile(struct mk *m, const char *path, const char *dir, int depth);

/* One logical line (continuations joined, comment cut). */
static void mk_line(struct mk *m, char *line, const char *dir, int depth)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = 0;
	char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return;
	if (!strncmp(p, "include ", 8) || !strncmp(p, "-include ", 9) || !strncmp(p, "sinclude ", 9)) {
		char *files = expand(m, strchr(p, ' ') + 1, dir, 0);
		if (!files)
			return;
		for (char *save = NULL, *t = strtok_r(files, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
			char *f = t[0] == '/' ? xstrdup(t) : xasprintf("%s/%s", m->tree, t);
			read_makefile(m, f, dir, depth + 1);
			free(f);
		}
		free(files);
		return;
	}
	/* NAME op VALUE */
	char *op = strpbrk(p, ":+?=");
	if (!op)
		return;
	size_t oplen = 0;
	bool append = false;
	if (op[0] == '=')
		oplen = 1;
	else if (op[0] == '+' && op[1] == '=')
		oplen = 2, append = true;
	else if (op[0] == '?' && op[1] == '=')
		oplen = 2;
	else if (op[0] == ':' && op[1] == '=')
		oplen = 2;
	else if (op[0] == ':' && op[1] == ':' && op[2] == '=')
		oplen = 3;
	else
		return; /* a rule */
	char *name_end = op;
	while (name_end > p && (name_end[-1] == ' ' || name_end[-1] == '\t'))
		name_end--;
	char *raw = xstrndup(p, (size_t)(name_end - p));
	char *value = op + oplen;
	while (*value == ' ' || *value == '\t')
		value++;
	size_t vl = strlen(value);
	while (vl && (value[vl - 1] == ' ' || value[vl - 1] == '\t' || value[vl - 1] == '\n' || value[vl - 1] == '\r'))
		value[--vl] = 0;
	char *name = strchr(raw, '$') ? expand(m, raw, dir, 0) : xstrdup(raw);
	free(raw);
	if (!name || !*name || strpbrk(name, " \t")) {
		free(name);
		return;
	}
	/* remember the variable (for later references) */
	const char *old = g_hash_table_lookup(m->vars, name);
	char *nv = append && old ? xasprintf("%s %s", old, value) : xstrdup(value);
	g_hash_table_insert(m->vars, xstrdup(name), nv);
	struct assign *a = xcalloc(1, sizeof(*a));
	a->name = name;
	a->value = xstrdup(value);
	a->dir = xstrdup(dir);
	g_ptr_array_add(m->assigns, a);
}

static void read_makefile(struct mk *m, const char *path, const char *dir, int depth)
{
	if (depth > MAX_INCLUDE_DEPTH)
		return;
	struct strbuf sb = STRBUF_INIT;
	if (strbuf_read_file(&sb, path, 0)) {
		strbuf_release(&sb);
		return;
	}
	struct strbuf line = STRBUF_INIT;
	for (char *p = sb.buf; p && *p;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && p[len - 1] == '\\') {
			strbuf_add(&line, p, len - 1);
			strbuf_addc(&line, ' ');
		} else {
			strbuf_add(&line, p, len);
			mk_line(m, line.buf, dir, depth);
			strbuf_reset(&line);
		}
		p = nl ? nl + 1 : NULL;
	}
	if (line.len)
		mk_line(m, line.buf, dir, depth);
	strbuf_release(&line);
	strbuf_release(&sb);
}

/* Keep the preprocessor flags of one expanded value. */
static void keep_flags(const char *tree, const char *value, GPtrArray *out, bool only_includes)
{
	char *v = xstrdup(value);
	char *save = NULL;
	for (char *t = strtok_r(v, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		const char *arg = NULL;
		char kind = 0;
		if (!strcmp(t, "-I") || !strcmp(t, "-include")) {
			kind = t[2] == 0 ? 'I' : 'i';
			arg = strtok_r(NULL, " \t", &save);
		} else if (!strncmp(t, "-I", 2)) {
			kind = 'I';
			arg = t + 2;
		} else if (!strncmp(t, "-D", 2) || !strncmp(t, "-U", 2)) {
			if (t[2] && !only_includes)
				g_ptr_array_add(out, xstrdup(t));
			continue;
		}
		if (!kind || !arg || !*arg)
			continue;
		char *abs = arg[0] == '/' ? xstrdup(arg) : xasprintf("%s/%s", tree, arg);
		if (kind == 'I') {
			g_ptr_array_add(out, xasprintf("-I%s", abs));
			free(abs);
		} else {
			g_ptr_array_add(out, xstrdup("-include"));
			g_ptr_array_add(out, abs);
		}
	}
	free(v);
}

static bool name_is(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	return !strncmp(name, prefix, n) && (!strcmp(name + n, "y") || !strcmp(name + n, "m"));
}

/* Flags of one directory's Makefile: subdir flags always, own flags when
 * `own` (the file's directory), CFLAGS_<obj> for `obj`. */
static int dir_flags(const char *tree, GHashTable *config, const char *dir, bool own, const char *obj,
		     GPtrArray *out, bool only_includes)
{
	int own_found = 0;
	struct mk m = { tree, config, g_hash_table_new_full(g_str_hash, g_str_equal, free, free),
			g_ptr_array_new_with_free_func(assign_free) };
	char *kb = xasprintf("%s/Kbuild", dir), *mf = xasprintf("%s/Makefile", dir);
	struct stat st;
	read_makefile(&m, stat(kb, &st) == 0 ? kb : mf, dir, 0);
	free(kb);
	free(mf);
	char *cflags_obj = obj ? xasprintf("CFLAGS_%s", obj) : NULL;
	for (guint i = 0; i < m.assigns->len; i++) {
		struct assign *a = g_ptr_array_index(m.assigns, i);
		bool is_own = name_is(a->name, "ccflags-") || !strcmp(a->name, "EXTRA_CFLAGS");
		own_found += is_own;
		bool take = only_includes ? is_own
			    : name_is(a->name, "subdir-ccflags-") ||
			      (own && (is_own || (cflags_obj && !strcmp(a->name, cflags_obj))));
		if (!take)
			continue;
		/* expanded now, with every assignment of the file known (make's
		 * recursive variables see the whole Makefile) */
		char *v = expand(&m, a->value, a->dir, 0);
		if (v) {
			keep_flags(tree, v, out, only_includes);
			free(v);
		} else {
			/* expand token by token: keep what can be expanded */
			char *copy = xstrdup(a->value), *save = NULL;
			for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
				char *tv = expand(&m, t, a->dir, 0);
				if (tv) {
					keep_flags(tree, tv, out, only_includes);
					free(tv);
				}
			}
			free(copy);
		}
	}
	free(cflags_obj);
	g_hash_table_destroy(m.vars);
	g_ptr_array_free(m.assigns, TRUE);
	return own_found;
}

int kbuild_flags(const char *tree, const char *path, char ***out, int *nout)
{
	*out = NULL;
	*nout = 0;
	char real[PATH_MAX], treal[PATH_MAX];
	if (!realpath(tree, treal))
		return 0;
	/* the file need not exist (unsaved buffers, the PCH's source): its
	 * directory must */
	const char *slash = strrchr(path, '/');
	char *d = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	bool ok = realpath(d, real) != NULL;
	free(d);
	size_t tl = strlen(treal);
	if (!ok || strncmp(real, treal, tl) || (real[tl] && real[tl] != '/'))
		return 0;
	const char *base = slash ? slash + 1 : path;
	char *obj = xstrdup(base);
	char *dot = strrchr(obj, '.');
	if (dot && !strcmp(dot, ".c"))
		strcpy(dot, ".o");
	GHashTable *config = read_config(treal);
	GPtrArray *flags = g_ptr_array_new();
	/* from the root down: a subdirectory's flags come after its parent's */
	GPtrArray *dirs = g_ptr_array_new_with_free_func(free);
	for (char *p = xstrdup(real);;) {
		g_ptr_array_insert(dirs, 0, p);
		if (strlen(p) <= tl)
			break;
		char *s = strrchr(p, '/');
		p = xstrndup(p, (size_t)(s - p));
	}
	/* the top-level Makefile sets no subdir flags: start below it */
	int own = 0;
	for (guint i = 1; i < dirs->len; i++)
		own = dir_flags(treal, config, g_ptr_array_index(dirs, i), i + 1 == dirs->len, obj, flags, false);
	/* A directory whose Makefile sets no ccflags is often built by the
	 * Makefile of a directory above (nouveau's Kbuild includes nvkm/...):
	 * the -I paths of the nearest one that sets some. */
	for (guint i = dirs->len - 1; !own && i-- > 1;)
		own = dir_flags(treal, config, g_ptr_array_index(dirs, i), false, NULL, flags, true);
	g_ptr_array_free(dirs, TRUE);
	g_hash_table_unref(config);
	free(obj);
	*nout = (int)flags->len;
	g_ptr_array_add(flags, NULL);
	*out = (char **)g_ptr_array_free(flags, FALSE);
	return 0;
}
