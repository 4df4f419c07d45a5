/* Compiler flags for libclang: the kbuild flags of a prepared x86_64 tree,
 * a compile_commands.json entry, or the kernel-model headers. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib.h>
#include <jansson.h>
#include "gfpaudit/frontend.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct argv_buf {
	char **v;
	int n;
	size_t alloc;
};

static void add(struct argv_buf *a, char *s)
{
	ALLOC_GROW(a->v, (size_t)a->n + 2, a->alloc);
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

int flags_check_tree(const char *tree)
{
	char *p = xasprintf("%s/include/linux/gfp.h", tree);
	bool ok = exists(p);
	free(p);
	if (!ok)
		return err_set(GA_ETREE, "'%s' is not a kernel tree (no include/linux/gfp.h)", tree);
	p = xasprintf("%s/include/generated/autoconf.h", tree);
	ok = exists(p);
	free(p);
	char *q = xasprintf("%s/arch/x86/include/generated/asm", tree);
	ok = ok && exists(q);
	free(q);
	if (!ok)
		return err_set(GA_ETREE, "kernel tree '%s' is not prepared (no generated headers); "
			       "run: make -C %s olddefconfig prepare", tree, tree);
	return 0;
}

void flags_free(char **argv, int n)
{
	for (int i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
}

static void add_common(struct argv_buf *a)
{
	add(a, xstrdup("-nostdinc"));
	add(a, xstrdup("-isystem"));
	add(a, xasprintf("%s/include", GFPAUDIT_CLANG_RESOURCE_DIR));
	add(a, xstrdup("-w")); /* warnings cost time and say nothing to us */
	add(a, xstrdup("-ferror-limit=0"));
}

/* kbuild's name-fix: '-' and ',' become '_'. */
static char *name_fix(const char *s, size_t n)
{
	char *r = xstrndup(s, n);
	for (char *c = r; *c; c++)
		if (*c == '-' || *c == ',')
			*c = '_';
	return r;
}

/* The per-object defines kbuild gives (scripts/Makefile.lib):
 * KBUILD_BASENAME, KBUILD_MODNAME, __KBUILD_MODNAME, and KBUILD_MODFILE for
 * built-in objects or MODULE for modules.  `pinned`: the file is parsed
 * through a PCH, which fixed the names (static inline functions of
 * linux/ethtool.h and net/ headers expand KBUILD_MODNAME in the PCH, and
 * clang refuses a command line that defines a PCH's macro differently):
 * "gfpaudit" for both names then. */
static void object_defines(struct argv_buf *a, const struct kbuild_obj *o, const char *path, bool pinned)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	const char *dot = strrchr(b, '.');
	char *base = pinned ? xstrdup("gfpaudit") : name_fix(b, dot ? (size_t)(dot - b) : strlen(b));
	char *mod = pinned ? xstrdup("gfpaudit") : o && o->modname ? name_fix(o->modname, strlen(o->modname))
			   : xstrdup(base);
	if (o && o->state == 'm')
		add(a, xstrdup("-DMODULE"));
	else if (o)
		add(a, xasprintf("-DKBUILD_MODFILE=\"%s\"", o->modfile ? o->modfile : base));
	add(a, xasprintf("-DKBUILD_BASENAME=\"%s\"", base));
	add(a, xasprintf("-DKBUILD_MODNAME=\"%s\"", mod));
	add(a, xasprintf("-D__KBUILD_MODNAME=kmod_%s", mod));
	free(base);
	free(mod);
}

static void tree_flags(struct argv_buf *a, const struct flags_ctx *c, const char *path)
{
	const char *tree = c->tree;
	static const char *const incs[] = {
		"arch/x86/include", "arch/x86/include/generated", "include",
		"arch/x86/include/uapi", "arch/x86/include/generated/uapi",
		"include/uapi", "include/generated/uapi",
	};
	static const char *const pre[] = {
		"include/linux/compiler-version.h", "include/linux/kconfig.h",
		"include/linux/compiler_types.h",
	};
	add_common(a);
	for (size_t i = 0; i < sizeof(incs) / sizeof(incs[0]); i++)
		add(a, xasprintf("-I%s/%s", tree, incs[i]));
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		char *p = xasprintf("%s/%s", tree, pre[i]);
		if (exists(p)) {
			add(a, xstrdup("-include"));
			add(a, p);
		} else {
			free(p);
		}
	}
	/* the directory's Makefiles: ccflags-y, subdir-ccflags-y, CFLAGS_f.o */
	char **kb = NULL;
	int nkb = 0;
	kbuild_flags(tree, path, &kb, &nkb);
	for (int i = 0; i < nkb; i++)
		add(a, kb[i]);
	free(kb);
	/* kbuild adds the source directory for some subsystems' local headers */
	const char *slash = strrchr(path, '/');
	if (slash) {
		char *dir = xstrndup(path, (size_t)(slash - path));
		add(a, xasprintf("-I%s", dir));
		free(dir);
	}
	/* NOTRACE: the kernel's own switch (linux/tracepoint.h) that turns
	 * tracepoints into empty stubs.  They never allocate, and expanding
	 * them was up to 2/3 of a parse (net/mac80211, fs/ext4, fs/btrfs). */
	static const char *const defs[] = {
		"-DNOTRACE", "-D__KERNEL__", "-DCC_USING_FENTRY", "-std=gnu11", "-m64", "-mcmodel=kernel",
		"-fno-strict-aliasing", "-fshort-wchar", "-funsigned-char", "-mno-sse",
		"-mno-mmx", "-mno-sse2", "-mno-red-zone", "-fno-PIE",
	};
	for (size_t i = c->tracepoints ? 1 : 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		add(a, xstrdup(defs[i]));
	/* a PCH is built without KBUILD_MODFILE (each file brings its own:
	 * clang accepts macros a PCH does not define), with -DMODULE or
	 * without: one PCH for each */
	const char *pch = c->pch;
	if (c->for_pch) {
		if (c->module)
			add(a, xstrdup("-DMODULE"));
		object_defines(a, NULL, path, true);
	} else {
		struct kbuild_obj o;
		kbuild_object(tree, path, &o);
		if (o.state == 'm')
			pch = c->pch_module;
		object_defines(a, &o, path, pch != NULL);
		kbuild_obj_release(&o);
	}
	if (pch) {
		add(a, xstrdup("-include-pch"));
		add(a, xstrdup(pch));
	}
}

static void kmodel_flags(struct argv_buf *a, const char *kmodel)
{
	add_common(a);
	add(a, xasprintf("-I%s", kmodel));
	add(a, xstrdup("-D__KERNEL__"));
	add(a, xstrdup("-std=gnu11"));
}

/* Flags from compile_commands.json we keep; gcc-only and output flags go. */
static int keep_with_arg(const char *s)
{
	return !strcmp(s, "-I") || !strcmp(s, "-isystem") || !strcmp(s, "-include") ||
	       !strcmp(s, "-D") || !strcmp(s, "-U") || !strcmp(s, "-iquote") || !strcmp(s, "-idirafter");
}

static int keep_single(const char *s)
{
	return !strncmp(s, "-I", 2) || !strncmp(s, "-D", 2) || !strncmp(s, "-U", 2) ||
	       !strncmp(s, "-std=", 5) || !strcmp(s, "-m64") || !strcmp(s, "-m32") ||
	       !strncmp(s, "-mcmodel=", 9) || !strcmp(s, "-nostdinc") ||
	       !strcmp(s, "-fshort-wchar") || !strcmp(s, "-funsigned-char") ||
	       !strncmp(s, "-isystem", 8) || !strncmp(s, "-iquote", 7);
}

static char *absolutize(const char *dir, const char *p)
{
	if (p[0] == '/' || !dir)
		return xstrdup(p);
	return xasprintf("%s/%s", dir, p);
}

static int compdb_flags(struct argv_buf *a, const struct flags_ctx *c, const char *path)
{
	char real[PATH_MAX], cand[PATH_MAX];
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	size_t i;
	json_t *e;
	json_array_foreach(c->compdb, i, e) {
		const char *dir = json_string_value(json_object_get(e, "directory"));
		const char *file = json_string_value(json_object_get(e, "file"));
		if (!file)
			continue;
		char *abs = absolutize(dir, file);
		int match = (realpath(abs, cand) && !strcmp(cand, real)) || !strcmp(abs, real);
		free(abs);
		if (!match)
			continue;
		/* arguments[] or command (split on blanks; kbuild quotes no blanks we keep) */
		char **words = NULL;
		size_t nw = 0, wa = 0;
		json_t *args = json_object_get(e, "arguments");
		char *cmd = NULL;
		if (json_is_array(args)) {
			size_t k;
			json_t *v;
			json_array_foreach(args, k, v) {
				ALLOC_GROW(words, nw + 1, wa);
				words[nw++] = xstrdup(json_string_value(v) ? json_string_value(v) : "");
			}
		} else if (json_is_string(json_object_get(e, "command"))) {
			cmd = xstrdup(json_string_value(json_object_get(e, "command")));
			char *save = NULL;
			for (char *w = strtok_r(cmd, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
				ALLOC_GROW(words, nw + 1, wa);
				size_t wl = strlen(w);
				/* strip one level of shell quoting around -D values */
				char *q = xstrdup(w);
				if (wl >= 2 && q[0] == '\'' && q[wl - 1] == '\'') {
					memmove(q, q + 1, wl - 2);
					q[wl - 2] = 0;
				}
				char *sq;
				while ((sq = strstr(q, "\\\"")))
					memmove(sq, sq + 1, strlen(sq));
				words[nw++] = q;
			}
		}
		add_common(a);
		for (size_t k = 1; k < nw; k++) {
			const char *w = words[k];
			if (keep_with_arg(w) && k + 1 < nw) {
				add(a, xstrdup(w));
				const char *v = words[++k];
				add(a, (!strcmp(w, "-D") || !strcmp(w, "-U")) ? xstrdup(v) : absolutize(dir, v));
			} else if (keep_single(w)) {
				if (!strncmp(w, "-I", 2) && w[2] && w[2] != '/')
					add(a, xasprintf("-I%s/%s", dir ? dir : ".", w + 2));
				else
					add(a, xstrdup(w));
			}
		}
		for (size_t k = 0; k < nw; k++)
			free(words[k]);
		free(words);
		free(cmd);
		if (!exists(GFPAUDIT_CLANG_RESOURCE_DIR))
			return err_set(GA_ETOOL, "clang resource directory missing");
		return 0;
	}
	return err_set(GA_ENOTFOUND, "no entry for '%s' in compile_commands.json", path);
}

int flags_for_file(const struct flags_ctx *c, const char *path, char ***out, int *nout)
{
	struct argv_buf a = { 0 };
	int rc = 0;
	if (c->compdb)
		rc = compdb_flags(&a, c, path);
	else if (c->tree)
		tree_flags(&a, c, path);
	else
		kmodel_flags(&a, c->kmodel_dir);
	if (rc) {
		flags_free(a.v, a.n);
		return rc;
	}
	if (!a.v)
		add(&a, xstrdup("-w"));
	*out = a.v;
	*nout = a.n;
	return 0;
}
