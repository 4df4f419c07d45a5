/* What kbuild builds and with which flags (see frontend.h).
 *
 * The object map: the Makefiles (Kbuild, else Makefile) read with the make
 * subset of kmake.c from the top-level Kbuild down, through obj-y/obj-m/
 * lib-y/subdir-y and the arch Makefile's core-y/libs-y/drivers-y, with the
 * tree's include/config/auto.conf deciding $(CONFIG_X) and the conditionals.
 * Each object listed is known with its state (built in, module, or listed
 * under a configuration that is off), the composite object it is linked into
 * (foo-y := a.o b.o, foo-objs: KBUILD_MODNAME "foo"), and the directory whose
 * Makefile builds it (amdgpu's Makefile lists ../display/... objects: those
 * take amdgpu's flags).  Directories listed under an option that is off are
 * read too, their objects marked as not built, so every file gets the flags
 * of the Makefile that would build it.
 *
 * The flags of an object built by the Makefile of directory B:
 *   subdir-ccflags-y / subdir-ccflags-$(CONFIG_X) of every directory above B,
 *   subdir-ccflags-y, ccflags-y, EXTRA_CFLAGS of B,
 *   CFLAGS_<object as B names it>.o of B,
 * each from the Makefile and the files it `include`s; -I, -D, -U and -include
 * are kept, a flag that expands to something unknown ($(call cc-option..),
 * $(shell ...)) is left out.
 *
 * A file no Makefile lists is taken as built by its own directory; when that
 * directory's Makefile sets no ccflags, it gets the -I paths of the nearest
 * directory above that sets some (nouveau's Kbuild includes nvkm/.../Kbuild
 * files whose objects use paths this reader may not resolve).
 *
 * A file outside the tree is an external module (M=): its own directory's
 * Makefile or Kbuild gives its flags and its composite name, and it is built
 * as a module. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <glib.h>
#include "gfpaudit/frontend.h"
#include "gfpaudit/kmake.h"
#include "gfpaudit/kmapcache.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

/* The words of a value as the shell that runs kbuild's command lines
 * splits them: blanks separate, '...' and "..." quote, a backslash escapes
 * the next character (-DNAME='"text"' gives -DNAME="text"). */
GPtrArray *kbuild_shell_words(const char *s)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(free);
	struct strbuf w = STRBUF_INIT;
	bool have = false;
	for (const char *p = s; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			if (have)
				g_ptr_array_add(out, strbuf_detach(&w));
			have = false;
			continue;
		}
		have = true;
		if (*p == '\'' ) {
			const char *e = strchr(p + 1, '\'');
			size_t n = e ? (size_t)(e - p - 1) : strlen(p + 1);
			strbuf_add(&w, p + 1, n);
			p += n + (e ? 1 : 0);
		} else if (*p == '"') {
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
					p++;
				strbuf_addc(&w, *p);
			}
			if (!*p)
				break;
		} else if (*p == '\\' && p[1]) {
			strbuf_addc(&w, *++p);
		} else {
			strbuf_addc(&w, *p);
		}
	}
	if (have)
		g_ptr_array_add(out, strbuf_detach(&w));
	strbuf_release(&w);
	return out;
}

/* Keep the preprocessor flags of one expanded value. */
static void keep_flags(const char *tree, const char *value, GPtrArray *out, bool only_includes)
{
	GPtrArray *ws = kbuild_shell_words(value);
	for (guint i = 0; i < ws->len; i++) {
		const char *t = g_ptr_array_index(ws, i);
		const char *arg = NULL;
		char kind = 0;
		if (!strcmp(t, "-I") || !strcmp(t, "-include")) {
			kind = t[2] == 0 ? 'I' : 'i';
			arg = i + 1 < ws->len ? g_ptr_array_index(ws, ++i) : NULL;
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
	g_ptr_array_free(ws, TRUE);
}

static bool name_is(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	return !strncmp(name, prefix, n) && (!strcmp(name + n, "y") || !strcmp(name + n, "m"));
}


static char *kbuild_file(const char *dir)
{
	char *kb = xasprintf("%s/Kbuild", dir);
	struct stat st;
	if (stat(kb, &st) == 0)
		return kb;
	free(kb);
	return xasprintf("%s/Makefile", dir);
}

/* A directory read through its Makefile: a Kbuild file created there
 * later takes its place, so the absent Kbuild is an input too (the cache
 * keeps it as a missing file, and re-analyzes when it appears). */
static void absent_kbuild(GPtrArray *inputs, const char *dir)
{
	char *kb = xasprintf("%s/Kbuild", dir);
	struct stat st;
	if (stat(kb, &st) == 0)
		free(kb);
	else
		g_ptr_array_add(inputs, kb);
}

/* The arch the tree is configured for (SRCARCH). */
static const char *config_arch(GHashTable *config)
{
	static const char *const arches[][2] = {
		{ "CONFIG_X86", "x86" }, { "CONFIG_ARM64", "arm64" }, { "CONFIG_ARM", "arm" },
		{ "CONFIG_PPC", "powerpc" }, { "CONFIG_S390", "s390" }, { "CONFIG_RISCV", "riscv" },
		{ "CONFIG_MIPS", "mips" }, { "CONFIG_LOONGARCH", "loongarch" }, { "CONFIG_SPARC", "sparc" },
		{ "CONFIG_UML", "um" },
	};
	if (g_hash_table_lookup(config, "CONFIG_UML"))
		return "um";
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (g_hash_table_lookup(config, arches[i][0]))
			return arches[i][1];
	return "x86";
}

static void kmake_predefine(struct kmake *m, GHashTable *config)
{
	const char *arch = config_arch(config);
	kmake_set(m, "SRCARCH", arch);
	kmake_set(m, "ARCH", arch);
	kmake_set(m, "BITS", g_hash_table_lookup(config, "CONFIG_64BIT") ? "64" : "32");
}

/* $(src) of the Makefile in directory `dir` (absolute): kbuild runs make in
 * the tree with $(src) relative to it ("drivers/net", "." at the top; 6.1's
 * Makefiles write $(srctree)/$(src)); outside the tree (M=) the path. */
static char *src_of(const char *tree, const char *dir)
{
	size_t tl = strlen(tree);
	if (!strncmp(dir, tree, tl) && (dir[tl] == '/' || !dir[tl]))
		return xstrdup(dir[tl] ? dir + tl + 1 : ".");
	return xstrdup(dir);
}

/* Flags of the Makefile of `dir`: subdir flags always, own flags when
 * `own` (the directory that builds the object), CFLAGS_<obj> for `obj`.
 * Returns how many ccflags assignments of its own it has. */
static void add_inputs(GPtrArray *inputs, const struct kmake *m);
static char **detach_words(GPtrArray *a, int *n);

static int dir_flags(const char *tree, GHashTable *config, const char *dir, bool own, const char *obj,
		     GPtrArray *out, bool only_includes, GPtrArray *inputs)
{
	int own_found = 0;
	struct kmake m;
	kmake_init(&m, tree, config);
	kmake_predefine(&m, config);
	char *file = kbuild_file(dir);
	char *src = src_of(tree, dir);
	kmake_read(&m, file, src);
	free(file);
	char *cflags_obj = obj ? xasprintf("CFLAGS_%s", obj) : NULL;
	for (guint i = 0; i < m.assigns->len; i++) {
		struct kmake_assign *a = g_ptr_array_index(m.assigns, i);
		bool is_own = name_is(a->name, "ccflags-") || !strcmp(a->name, "EXTRA_CFLAGS");
		own_found += is_own;
		bool take = only_includes ? is_own
			    : name_is(a->name, "subdir-ccflags-") ||
			      (own && (is_own || (cflags_obj && !strcmp(a->name, cflags_obj))));
		if (!take)
			continue;
		/* expanded now, with every assignment of the file known (make's
		 * recursive variables see the whole Makefile) */
		char *v = kmake_expand(&m, a->value, a->dir, true);
		if (v) {
			keep_flags(tree, v, out, only_includes);
			free(v);
		} else {
			/* expand token by token: keep what can be expanded */
			char *copy = xstrdup(a->value), *save = NULL;
			for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
				char *tv = kmake_expand(&m, t, a->dir, true);
				if (tv) {
					keep_flags(tree, tv, out, only_includes);
					free(tv);
				}
			}
			free(copy);
		}
	}
	free(cflags_obj);
	free(src);
	if (inputs) {
		add_inputs(inputs, &m);
		absent_kbuild(inputs, dir);
	}
	kmake_release(&m);
	return own_found;
}

/* ---- the object map ---- */

struct kobj_ent {
	char state;
	char *modname, *modfile, *builder, *objrel;
};

struct kmap {
	char *tree;
	GHashTable *config;
	GHashTable *objs; /* tree-relative object path -> struct kobj_ent */
	GHashTable *dirs; /* tree-relative directory -> state visited with */
	GPtrArray *files, *globs; /* what it was read from (kmapcache.h); NULL: not kept */
	char *disk;       /* the map on disk, looked up object by object (kmapcache.h) */
	int disk_finds;   /* objects looked up in it so far */
};

static void ent_free(gpointer p)
{
	struct kobj_ent *e = p;
	free(e->modname);
	free(e->modfile);
	free(e->builder);
	free(e->objrel);
	free(e);
}

static int rank(char s)
{
	return s == 'y' ? 3 : s == 'm' ? 2 : s == 'n' ? 1 : 0;
}

static char weaker(char a, char b)
{
	return rank(a) < rank(b) ? a : b;
}

/* dir/word with "." and ".." resolved lexically; NULL when it leaves the tree. */
static char *rel_join(const char *dir, const char *word)
{
	char *all = *dir ? xasprintf("%s/%s", dir, word) : xstrdup(word);
	GPtrArray *parts = g_ptr_array_new();
	bool out = false;
	for (char *save = NULL, *t = strtok_r(all, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (!strcmp(t, "."))
			continue;
		if (!strcmp(t, "..")) {
			if (!parts->len)
				out = true;
			else
				g_ptr_array_remove_index(parts, parts->len - 1);
			continue;
		}
		g_ptr_array_add(parts, t);
	}
	struct strbuf sb = STRBUF_INIT;
	for (guint i = 0; i < parts->len; i++) {
		if (i)
			strbuf_addc(&sb, '/');
		strbuf_adds(&sb, g_ptr_array_index(parts, i));
	}
	g_ptr_array_free(parts, TRUE);
	free(all);
	if (out) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* A word of an object list as a path relative to the directory: $(obj)/x.o
 * and absolute paths inside the tree are taken back to relative form. */
static const char *list_word(const struct kmap *k, const char *absdir, const char *src, const char *w)
{
	size_t dl = strlen(absdir), tl = strlen(k->tree), sl = strlen(src);
	if (!strncmp(w, absdir, dl) && w[dl] == '/')
		return w + dl + 1;
	if (strcmp(src, ".") && !strncmp(w, src, sl) && w[sl] == '/')
		return w + sl + 1;
	if (!strncmp(w, k->tree, tl) && w[tl] == '/')
		return NULL; /* elsewhere in the tree: not handled */
	return w;
}

static void add_obj(struct kmap *k, const char *dir, const char *word, char state, const char *modname,
		    const char *modfile)
{
	char *path = rel_join(dir, word);
	if (!path)
		return;
	struct kobj_ent *old = g_hash_table_lookup(k->objs, path);
	if (old && rank(old->state) >= rank(state)) {
		free(path);
		return;
	}
	struct kobj_ent *e = xcalloc(1, sizeof(*e));
	e->state = state;
	e->modname = xstrdup(modname);
	e->modfile = xstrdup(modfile);
	e->builder = xstrdup(dir);
	e->objrel = xstrdup(word);
	g_hash_table_insert(k->objs, path, e);
}

static void visit(struct kmap *k, const char *dir, char state, int depth);

/* One word of obj-y/obj-m/lib-y/obj- in `dir`'s Makefile. */
static void list_entry(struct kmap *k, struct kmake *m, const char *dir, const char *absdir, const char *src,
		       const char *w, char state, int depth)
{
	size_t n = strlen(w);
	if (n > 1 && w[n - 1] == '/') {
		char *sub = xstrndup(w, n - 1);
		char *d = rel_join(dir, sub);
		if (d)
			visit(k, d, state, depth + 1);
		free(d);
		free(sub);
		return;
	}
	if (n < 3 || strcmp(w + n - 2, ".o"))
		return;
	char *stem = xstrndup(w, n - 2);
	/* a composite object: foo-objs, foo-y, foo-m (modules), foo- (off) */
	static const char *const sfx[] = { "-objs", "-y", "-m", "-" };
	char *members[4];
	bool composite = false;
	for (int i = 0; i < 4; i++) {
		char *name = xasprintf("%s%s", stem, sfx[i]);
		members[i] = kmake_value(m, name, src);
		free(name);
		for (const char *c = members[i]; *c; c++)
			composite |= !(*c == ' ' || *c == '\t');
	}
	const char *slash = strrchr(stem, '/');
	const char *base = slash ? slash + 1 : stem;
	char *modfile = rel_join(dir, base);
	if (!composite) {
		if (modfile)
			add_obj(k, dir, w, state, base, modfile);
	} else {
		char *cmodfile = rel_join(dir, stem);
		for (int i = 0; i < 4 && cmodfile; i++) {
			/* -m members count for modules only; foo- lists what is off */
			char s = i == 3 ? 'n' : (i == 2 && state == 'y') ? 'n' : state;
			char **ws = g_strsplit_set(members[i], " \t", -1);
			for (char **p = ws; *p; p++) {
				const char *mw = list_word(k, absdir, src, *p);
				size_t ml = mw ? strlen(mw) : 0;
				if (ml > 2 && !strcmp(mw + ml - 2, ".o"))
					add_obj(k, dir, mw, s, stem, cmodfile);
			}
			g_strfreev(ws);
		}
		free(cmodfile);
	}
	for (int i = 0; i < 4; i++)
		free(members[i]);
	free(modfile);
	free(stem);
}

static void visit_lists(struct kmap *k, struct kmake *m, const char *dir, const char *absdir, const char *src,
			char state, int depth)
{
	static const struct { const char *var; char state; } lists[] = {
		{ "obj-y", 'y' }, { "lib-y", 'y' }, { "lib-m", 'y' }, { "subdir-y", 'y' }, { "obj-m", 'm' },
		{ "subdir-m", 'y' }, { "obj-", 'n' }, { "lib-", 'n' }, { "obj-n", 'n' },
	};
	char *objy = kmake_value(m, "obj-y", src);
	GHashTable *in_y = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	char **yw = g_strsplit_set(objy, " \t", -1);
	for (char **p = yw; *p; p++)
		if (**p)
			g_hash_table_add(in_y, xstrdup(*p));
	g_strfreev(yw);
	free(objy);
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		char *v = kmake_value(m, lists[i].var, src);
		char **ws = g_strsplit_set(v, " \t", -1);
		for (char **p = ws; *p; p++) {
			const char *w = list_word(k, absdir, src, *p);
			if (!w || !*w)
				continue;
			/* built in wins over module (Makefile.lib's filter-out) */
			if (i > 0 && g_hash_table_contains(in_y, *p))
				continue;
			list_entry(k, m, dir, absdir, src, w, weaker(lists[i].state, state), depth);
		}
		g_strfreev(ws);
		free(v);
	}
	g_hash_table_destroy(in_y);
}

static void kmap_inputs(struct kmap *k, const struct kmake *m, const char *absdir);

/* The top-level Kbuild lists $(ARCH_CORE) $(ARCH_LIB) $(ARCH_DRIVERS),
 * which the top Makefile takes from the arch Makefile. */
static void arch_lists(struct kmap *k, struct kmake *top)
{
	struct kmake m;
	kmake_init(&m, k->tree, k->config);
	kmake_predefine(&m, k->config);
	kmake_set(&m, "libs-y", "lib/");
	char *arch = kmake_value(&m, "SRCARCH", ".");
	char *f = xasprintf("%s/arch/%s/Makefile", k->tree, arch);
	kmake_read(&m, f, ".");
	char *core = kmake_value(&m, "core-y", "."), *libs = kmake_value(&m, "libs-y", ".");
	char *dy = kmake_value(&m, "drivers-y", "."), *dm = kmake_value(&m, "drivers-m", ".");
	char *libdirs = kmake_expand(&m, "$(filter %/,$(libs-y))", ".", false);
	char *drv = xasprintf("%s %s", dy, dm);
	kmake_set(top, "ARCH_CORE", core);
	kmake_set(top, "ARCH_LIB", libdirs ? libdirs : libs);
	kmake_set(top, "ARCH_DRIVERS", drv);
	kmap_inputs(k, &m, NULL);
	free(core);
	free(libs);
	free(libdirs);
	free(dy);
	free(dm);
	free(drv);
	free(f);
	free(arch);
	kmake_release(&m);
}

/* What a Makefile's reading depended on, for the map's cache: the files
 * it read, the absent Kbuild of `absdir` (NULL: none looked for), its
 * $(wildcard)s. */
static void kmap_inputs(struct kmap *k, const struct kmake *m, const char *absdir)
{
	if (!k->files)
		return;
	for (guint i = 0; i < m->files->len; i++)
		g_ptr_array_add(k->files, xstrdup(g_ptr_array_index(m->files, i)));
	if (absdir) {
		char *kb = xasprintf("%s/Kbuild", absdir);
		struct stat st;
		if (stat(kb, &st) != 0)
			g_ptr_array_add(k->files, xasprintf("-%s", kb));
		free(kb);
	}
	for (guint i = 0; i < m->globs->len; i++)
		g_ptr_array_add(k->globs, xstrdup(g_ptr_array_index(m->globs, i)));
}

static void visit(struct kmap *k, const char *dir, char state, int depth)
{
	if (depth > 64)
		return;
	gpointer prev = g_hash_table_lookup(k->dirs, dir);
	if (prev && rank((char)GPOINTER_TO_INT(prev)) >= rank(state))
		return;
	g_hash_table_insert(k->dirs, xstrdup(dir), GINT_TO_POINTER((int)state));
	char *absdir = *dir ? xasprintf("%s/%s", k->tree, dir) : xstrdup(k->tree);
	char *file = *dir ? kbuild_file(absdir) : xasprintf("%s/Kbuild", absdir);
	struct kmake m;
	kmake_init(&m, k->tree, k->config);
	kmake_predefine(&m, k->config);
	if (!*dir)
		arch_lists(k, &m);
	kmake_read(&m, file, *dir ? dir : ".");
	visit_lists(k, &m, dir, absdir, *dir ? dir : ".", state, depth);
	kmap_inputs(k, &m, *dir ? absdir : NULL);
	kmake_release(&m);
	free(file);
	free(absdir);
}

static void kmap_free(struct kmap *k)
{
	if (!k)
		return;
	free(k->tree);
	g_hash_table_unref(k->config);
	g_hash_table_destroy(k->objs);
	g_hash_table_destroy(k->dirs);
	free(k->disk);
	free(k);
}

static struct kobj_ent *ent_of_row(const struct kmap_row *r)
{
	struct kobj_ent *e = xcalloc(1, sizeof(*e));
	e->state = r->state;
	e->modname = xstrdup(r->modname);
	e->modfile = xstrdup(r->modfile);
	e->builder = xstrdup(r->builder);
	e->objrel = xstrdup(r->objrel);
	return e;
}

static void load_row(const struct kmap_row *r, void *data)
{
	struct kmap *k = data;
	if (!g_hash_table_contains(k->objs, r->path))
		g_hash_table_insert(k->objs, xstrdup(r->path), ent_of_row(r));
}

/* A check asks for one or two objects: each is looked up in the map's
 * text; past this many, the whole map is loaded into the table (an audit
 * asks for every file of the tree, and a search of the text each time
 * would cost more than reading the Makefiles). */
#define KMAP_DISK_FINDS 16

/* The entry of object `rel`: read from the Makefiles, or from the map on
 * disk. */
static struct kobj_ent *kmap_lookup(struct kmap *k, const char *rel)
{
	struct kobj_ent *e = g_hash_table_lookup(k->objs, rel);
	struct kmap_row r;
	char *buf;
	if (e || !k->disk)
		return e;
	if (++k->disk_finds > KMAP_DISK_FINDS) {
		kmap_cache_each(k->disk, load_row, k);
		free(k->disk);
		k->disk = NULL;
		return g_hash_table_lookup(k->objs, rel);
	}
	if (kmap_cache_find(k->disk, rel, &r, &buf))
		return NULL;
	e = ent_of_row(&r);
	g_hash_table_insert(k->objs, xstrdup(rel), e);
	free(buf);
	return e;
}

/* The map just read from the Makefiles, onto disk (kmapcache.h). */
static void kmap_store(struct kmap *k)
{
	GPtrArray *rows = g_ptr_array_new_with_free_func(free);
	GHashTableIter it;
	gpointer key, val;
	g_hash_table_iter_init(&it, k->objs);
	while (g_hash_table_iter_next(&it, &key, &val)) {
		const struct kobj_ent *e = val;
		struct kmap_row *r = xcalloc(1, sizeof(*r));
		*r = (struct kmap_row){ key, e->state, e->modname, e->modfile, e->builder, e->objrel };
		g_ptr_array_add(rows, r);
	}
	kmap_cache_save(k->tree, rows, k->files, k->globs);
	g_ptr_array_free(rows, TRUE);
}

/* The map of `tree` (a real path): built once per process and kept while
 * the configuration's stamp holds (kmake_config); from the disk cache
 * when what it was read from still holds (kmapcache.h). */
static struct kmap *kmap_get(const char *tree)
{
	static struct kmap *memo;
	GHashTable *config = kmake_config(tree);
	if (memo && !strcmp(memo->tree, tree) && memo->config == config) {
		g_hash_table_unref(config);
		return memo;
	}
	kmap_free(memo);
	struct kmap *k = xcalloc(1, sizeof(*k));
	k->tree = xstrdup(tree);
	k->config = config;
	k->objs = g_hash_table_new_full(g_str_hash, g_str_equal, free, ent_free);
	k->dirs = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	if (!(k->disk = kmap_cache_open(tree))) {
		k->files = g_ptr_array_new_with_free_func(free);
		k->globs = g_ptr_array_new_with_free_func(free);
		char *conf = xasprintf("%s/include/config/auto.conf", tree);
		g_ptr_array_add(k->files, conf); /* the configuration: absent is "-" */
		visit(k, "", 'y', 0);
		kmap_store(k);
		g_ptr_array_free(k->files, TRUE);
		g_ptr_array_free(k->globs, TRUE);
		k->files = k->globs = NULL;
	}
	memo = k;
	return k;
}

void kbuild_obj_release(struct kbuild_obj *o)
{
	free(o->modname);
	free(o->modfile);
	free(o->builder);
	free(o->objrel);
	free(o->arch);
	memset(o, 0, sizeof(*o));
}

/* `path`'s directory and tree as real paths; false when outside the tree
 * (*rel is then NULL). */
static bool locate(const char *tree, const char *path, char *treal, char **reldir, char **absdir)
{
	char real[PATH_MAX];
	*reldir = NULL;
	*absdir = NULL;
	if (!realpath(tree, treal))
		return false;
	/* the file need not exist (unsaved buffers, the PCH's source): its
	 * directory must */
	const char *slash = strrchr(path, '/');
	char *d = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	bool ok = realpath(d, real) != NULL;
	free(d);
	if (!ok)
		return false;
	*absdir = xstrdup(real);
	size_t tl = strlen(treal);
	if (strncmp(real, treal, tl) || (real[tl] && real[tl] != '/'))
		return false;
	*reldir = xstrdup(real[tl] ? real + tl + 1 : "");
	return true;
}

/* An external module's object (a file outside the tree): its directory's
 * Makefile names the composite it belongs to. */
static void external_object(const char *tree, const char *absdir, const char *obj, struct kbuild_obj *out)
{
	GHashTable *config = kmake_config(tree);
	struct kmap k = { .tree = (char *)tree, .config = config,
			  .objs = g_hash_table_new_full(g_str_hash, g_str_equal, free, ent_free),
			  .dirs = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL) };
	struct kmake m;
	kmake_init(&m, tree, config);
	kmake_predefine(&m, config);
	char *file = kbuild_file(absdir);
	kmake_read(&m, file, absdir);
	free(file);
	/* as a module whatever the list says: M= builds modules */
	char *all = kmake_expand(&m, "$(obj-y) $(obj-m)", absdir, false);
	char **ws = g_strsplit_set(all ? all : "", " \t", -1);
	for (char **p = ws; *p; p++)
		if (**p)
			list_entry(&k, &m, "", absdir, absdir, *p, 'm', 0);
	g_strfreev(ws);
	free(all);
	struct kobj_ent *e = g_hash_table_lookup(k.objs, obj);
	const char *base = strrchr(obj, '/') ? strrchr(obj, '/') + 1 : obj;
	out->state = 'm';
	out->out_of_tree = true;
	out->modname = e ? xstrdup(e->modname) : xstrndup(base, strlen(base) - 2);
	out->modfile = e ? xstrdup(e->modfile) : xstrndup(obj, strlen(obj) - 2);
	out->builder = xstrdup(absdir);
	out->objrel = xstrdup(obj);
	kmake_release(&m);
	g_hash_table_destroy(k.objs);
	g_hash_table_destroy(k.dirs);
	g_hash_table_unref(config);
}

static char *object_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *obj = xstrdup(slash ? slash + 1 : path);
	char *dot = strrchr(obj, '.');
	if (dot && !strcmp(dot, ".c"))
		strcpy(dot, ".o");
	else {
		char *o = xasprintf("%s.o", obj);
		free(obj);
		obj = o;
	}
	return obj;
}

int kbuild_object(const char *tree, const char *path, struct kbuild_obj *out)
{
	memset(out, 0, sizeof(*out));
	char treal[PATH_MAX];
	char *reldir = NULL, *absdir = NULL;
	bool inside = locate(tree, path, treal, &reldir, &absdir);
	char *obj = object_name(path);
	if (!inside) {
		if (absdir && *treal)
			external_object(treal, absdir, obj, out);
		free(absdir);
		free(obj);
		return out->state ? 0 : GA_ENOTFOUND;
	}
	struct kmap *k = kmap_get(treal);
	char *rel = *reldir ? xasprintf("%s/%s", reldir, obj) : xstrdup(obj);
	out->arch = xstrdup(config_arch(k->config));
	struct kobj_ent *e = kmap_lookup(k, rel);
	if (e) {
		out->state = e->state;
		out->modname = xstrdup(e->modname);
		out->modfile = xstrdup(e->modfile);
		out->builder = xstrdup(e->builder);
		out->objrel = xstrdup(e->objrel);
	} else {
		/* listed nowhere: its own directory's, as a built-in object */
		out->modname = xstrndup(obj, strlen(obj) - 2);
		out->modfile = xstrndup(rel, strlen(rel) - 2);
		out->builder = xstrdup(reldir);
		out->objrel = xstrdup(obj);
	}
	free(rel);
	free(reldir);
	free(absdir);
	free(obj);
	return 0;
}

bool kbuild_other_arch(const char *tree_arch, const char *relpath)
{
	if (strncmp(relpath, "arch/", 5))
		return false;
	size_t n = strcspn(relpath + 5, "/");
	return relpath[5 + n] == '/' && (strlen(tree_arch) != n || strncmp(relpath + 5, tree_arch, n));
}

/* The flags of `path` (flags, may be NULL) and the files that decide
 * them (inputs, may be NULL): the Makefiles from the top down to the one
 * that builds it and what they include, the configuration. */
static void flags_walk(const char *tree, const char *path, GPtrArray *flags, GPtrArray *inputs)
{
	struct kbuild_obj o;
	if (kbuild_object(tree, path, &o)) {
		kbuild_obj_release(&o);
		return;
	}
	char treal[PATH_MAX];
	if (!realpath(tree, treal)) {
		kbuild_obj_release(&o);
		return;
	}
	GPtrArray *sink = flags ? flags : g_ptr_array_new_with_free_func(free);
	GHashTable *config = kmake_config(treal);
	int own = 0;
	if (inputs) {
		static const char *const conf[] = { "include/config/auto.conf", ".config", "Kbuild" };
		for (size_t i = 0; i < sizeof(conf) / sizeof(conf[0]); i++) {
			char *c = xasprintf("%s/%s", treal, conf[i]);
			struct stat st;
			if (stat(c, &st) == 0)
				g_ptr_array_add(inputs, c);
			else
				free(c);
		}
	}
	if (o.out_of_tree) {
		dir_flags(treal, config, o.builder, true, o.objrel, sink, false, inputs);
		own = 1;
	} else {
		/* from the root down: a subdirectory's flags come after its
		 * parent's; the top-level Makefile sets no subdir flags */
		GPtrArray *dirs = g_ptr_array_new_with_free_func(free);
		char *b = xstrdup(o.builder);
		for (;;) {
			if (*b)
				g_ptr_array_insert(dirs, 0, xasprintf("%s/%s", treal, b));
			char *s = strrchr(b, '/');
			if (!s)
				break;
			*s = 0;
		}
		free(b);
		for (guint i = 0; i < dirs->len; i++)
			own = dir_flags(treal, config, g_ptr_array_index(dirs, i), i + 1 == dirs->len, o.objrel, sink,
					false, inputs);
		/* listed nowhere (o.state 0): a directory without ccflags of its
		 * own is often built by a Makefile above (nouveau's Kbuild
		 * includes nvkm/.../Kbuild): the -I paths of the nearest one
		 * that sets some */
		for (guint i = dirs->len - 1; !o.state && !own && dirs->len && i-- > 0;)
			own = dir_flags(treal, config, g_ptr_array_index(dirs, i), false, NULL, sink, true, NULL);
		g_ptr_array_free(dirs, TRUE);
		/* a file built by a sibling directory's Makefile: its own
		 * directory's Makefile still decides whether it lists it */
		const char *slash = strrchr(path, '/');
		char *pd = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
		char preal[PATH_MAX];
		if (inputs && realpath(pd, preal)) {
			char *f = kbuild_file(preal);
			struct stat st;
			if (stat(f, &st) == 0)
				g_ptr_array_add(inputs, f);
			else
				free(f);
			absent_kbuild(inputs, preal);
		}
		free(pd);
	}
	g_hash_table_unref(config);
	kbuild_obj_release(&o);
	if (!flags)
		g_ptr_array_free(sink, TRUE);
}

int kbuild_flags(const char *tree, const char *path, char ***out, int *nout)
{
	GPtrArray *flags = g_ptr_array_new_with_free_func(free);
	flags_walk(tree, path, flags, NULL);
	*out = detach_words(flags, nout);
	return 0;
}

int kbuild_inputs(const char *tree, const char *path, char ***out, int *nout)
{
	GPtrArray *in = g_ptr_array_new_with_free_func(free);
	flags_walk(tree, path, NULL, in);
	/* one entry a file */
	GPtrArray *uniq = g_ptr_array_new_with_free_func(free);
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < in->len; i++) {
		char *f = g_ptr_array_index(in, i);
		if (g_hash_table_contains(seen, f))
			continue;
		g_hash_table_add(seen, f);
		g_ptr_array_add(uniq, xstrdup(f));
	}
	g_hash_table_destroy(seen);
	g_ptr_array_free(in, TRUE);
	*out = detach_words(uniq, nout);
	return 0;
}

/* ---- the architecture ---- */

char *kbuild_tree_arch(const char *tree)
{
	GHashTable *config = kmake_config(tree);
	char *a = xstrdup(config_arch(config));
	g_hash_table_unref(config);
	return a;
}

/* clang's target for SRCARCH when the tree has no scripts/Makefile.clang
 * (before 5.15): the table that file holds in 6.12. */
static const char *fallback_triple(const char *srcarch)
{
	static const char *const t[][2] = {
		{ "x86", "x86_64-linux-gnu" }, { "arm64", "aarch64-linux-gnu" }, { "arm", "arm-linux-gnueabi" },
		{ "powerpc", "powerpc64le-linux-gnu" }, { "s390", "s390x-linux-gnu" },
		{ "riscv", "riscv64-linux-gnu" }, { "mips", "mipsel-linux-gnu" },
		{ "loongarch", "loongarch64-linux-gnusf" }, { "sparc", "sparc64-linux-gnu" },
		{ "m68k", "m68k-linux-gnu" }, { "hexagon", "hexagon-linux-musl" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(srcarch, t[i][0]))
			return t[i][1];
	return NULL;
}

static void add_inputs(GPtrArray *inputs, const struct kmake *m)
{
	for (guint i = 0; i < m->files->len; i++) {
		const char *f = g_ptr_array_index(m->files, i);
		bool dup = false;
		for (guint j = 0; j < inputs->len && !dup; j++)
			dup = !strcmp(g_ptr_array_index(inputs, j), f);
		if (!dup)
			g_ptr_array_add(inputs, xstrdup(f));
	}
}

static char **detach_words(GPtrArray *a, int *n)
{
	*n = (int)a->len;
	g_ptr_array_set_free_func(a, NULL);
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

int kbuild_arch(const char *tree, struct kbuild_arch *out)
{
	memset(out, 0, sizeof(*out));
	char treal[PATH_MAX];
	if (!realpath(tree, treal))
		return err_set(GA_ETREE, "'%s': no such kernel tree", tree);
	GHashTable *config = kmake_config(treal);
	out->srcarch = xstrdup(config_arch(config));
	GPtrArray *inputs = g_ptr_array_new_with_free_func(free);
	/* the target: scripts/Makefile.clang, CLANG_TARGET_FLAGS_$(SRCARCH) */
	struct kmake m;
	kmake_init(&m, treal, config);
	kmake_predefine(&m, config);
	char *mc = xasprintf("%s/scripts/Makefile.clang", treal);
	kmake_read(&m, mc, ".");
	free(mc);
	char *var = xasprintf("CLANG_TARGET_FLAGS_%s", out->srcarch);
	char *triple = kmake_value(&m, var, ".");
	free(var);
	add_inputs(inputs, &m);
	kmake_release(&m);
	if (!*triple && fallback_triple(out->srcarch)) {
		free(triple);
		triple = xstrdup(fallback_triple(out->srcarch));
	}
	out->triple = *triple ? triple : NULL;
	if (!*triple)
		free(triple);
	/* the flags: KBUILD_CPPFLAGS and KBUILD_CFLAGS of arch/$(SRCARCH)/Makefile,
	 * as the top Makefile sees them after including it (clang, LLVM=1) */
	kmake_init(&m, treal, config);
	kmake_predefine(&m, config);
	kmake_set(&m, "CC", "clang");
	kmake_set(&m, "LLVM", "1");
	char *am = xasprintf("%s/arch/%s/Makefile", treal, out->srcarch);
	kmake_read(&m, am, ".");
	free(am);
	GPtrArray *flags = g_ptr_array_new_with_free_func(free);
	static const char *const vars[] = { "KBUILD_CPPFLAGS", "KBUILD_CFLAGS" };
	for (size_t i = 0; i < 2; i++) {
		char *v = kmake_value(&m, vars[i], ".");
		GPtrArray *ws = kbuild_shell_words(v);
		for (guint k = 0; k < ws->len; k++)
			g_ptr_array_add(flags, xstrdup(g_ptr_array_index(ws, k)));
		g_ptr_array_free(ws, TRUE);
		free(v);
	}
	add_inputs(inputs, &m);
	kmake_release(&m);
	g_hash_table_unref(config);
	out->flags = detach_words(flags, &out->nflags);
	out->inputs = detach_words(inputs, &out->ninputs);
	return 0;
}

void kbuild_arch_release(struct kbuild_arch *a)
{
	free(a->srcarch);
	free(a->triple);
	for (int i = 0; i < a->nflags; i++)
		free(a->flags[i]);
	free(a->flags);
	for (int i = 0; i < a->ninputs; i++)
		free(a->inputs[i]);
	free(a->inputs);
	memset(a, 0, sizeof(*a));
}
