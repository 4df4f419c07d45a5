/* Compiler flags for libclang: the kbuild flags of a prepared tree (any
 * architecture kbuild builds with clang), a compile_commands.json entry, or
 * the kernel-model headers.
 *
 * A tree's flags, as the top Makefile composes them for `make LLVM=1`:
 *   -nostdinc, LINUXINCLUDE and USERINCLUDE of arch/$(SRCARCH),
 *   -include compiler-version.h kconfig.h compiler_types.h,
 *   -D__KERNEL__, --target= from scripts/Makefile.clang,
 *   KBUILD_CPPFLAGS and KBUILD_CFLAGS of arch/$(SRCARCH)/Makefile (read by
 *   kmake: the -D/-U/-I/-include, and the -m and -f flags that change what
 *   the compiler predefines or accepts: -m64, -mcmodel=, -mno-sse,
 *   -mgeneral-regs-only, -mbig-endian, -mabi=, -march=, ...; code
 *   generation flags are left out, and so is a flag libclang refuses for
 *   the target: asked once per process, without a word),
 *   the top Makefile's language flags (-std=gnu11, -fshort-wchar, ...),
 *   -DCC_USING_FENTRY when the configuration traces functions with fentry,
 *   then the Makefiles' ccflags and the per-object defines (kbuild.c). */
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
#include "gfpaudit/kmake.h"
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

/* ---- the architecture's part, once per tree and process ---- */

struct arch_flags {
	char *tree;          /* real path */
	GHashTable *config;  /* the configuration it was read with (a ref) */
	char *srcarch;
	char *triple;
	char **argv;         /* --target=, the arch Makefile's kept flags */
	int argc;
	char **lang;         /* the top Makefile's language flags */
	int nlang;
	char **inputs;       /* the files read */
	int ninputs;
	char *problem;       /* the target itself is refused: the tree cannot be parsed */
};

static bool starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* The -m and -f flags of an arch Makefile that matter to a parse: what the
 * compiler predefines (__aarch64__ variants, __SSE__, endianness, the ABI,
 * the ISA), type sizes and layout, char signedness.  Code generation flags
 * (stack protector, branch protection, patchable entries, ...) are not. */
static bool arch_flag_kept(const char *w)
{
	static const char *const exact[] = {
		"-m16", "-m31", "-m32", "-m64", "-mx32", "-mno-red-zone", "-mno-mmx", "-mno-3dnow",
		"-mno-80387", "-msoft-float", "-mhard-float", "-mgeneral-regs-only", "-mlittle-endian",
		"-mbig-endian", "-mbackchain", "-mpacked-stack", "-mzarch", "-mno-altivec", "-mno-vsx",
		"-mno-spe", "-mno-prefixed", "-mno-pcrel", "-mno-mma", "-mstrict-align",
		"-mno-unaligned-access", "-mthumb", "-marm", "-mno-implicit-float", "-mlong-double-64",
		"-mlong-double-128", "-funsigned-char", "-fsigned-char", "-fshort-wchar", "-ffreestanding",
		"-fno-common", "-fno-PIE", "-fno-pie", "-fno-pic", "-fno-PIC", "-fno-strict-aliasing",
	};
	static const char *const prefix[] = {
		"-mcmodel=", "-mno-sse", "-mno-avx", "-mabi=", "-march=", "-mcpu=", "-mfloat-abi=", "-std=",
	};
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (!strcmp(w, exact[i]))
			return true;
	for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (starts(w, prefix[i]))
			return true;
	return false;
}

/* Errors libclang reports for `flags` on an empty file (-1: no TU at all). */
static int clang_refuses(char *const *flags, int n)
{
	const char **args = xcalloc((size_t)n + 2, sizeof(*args));
	args[0] = "-nostdinc";
	for (int i = 0; i < n; i++)
		args[i + 1] = flags[i];
	static const char src[] = "int gfpaudit_probe;\n";
	struct CXUnsavedFile uf = { "/gfpaudit-target-probe.c", src, sizeof(src) - 1 };
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	enum CXErrorCode ec = clang_parseTranslationUnit2(idx, uf.Filename, args, n + 1, &uf, 1, 0, &tu);
	int errors = 0;
	if (ec != CXError_Success || !tu) {
		errors = -1;
	} else {
		unsigned nd = clang_getNumDiagnostics(tu);
		for (unsigned i = 0; i < nd; i++) {
			CXDiagnostic d = clang_getDiagnostic(tu, i);
			errors += clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error;
			clang_disposeDiagnostic(d);
		}
		clang_disposeTranslationUnit(tu);
	}
	clang_disposeIndex(idx);
	free(args);
	return errors;
}

/* The top Makefile's language flags: the words of its KBUILD_CFLAGS and
 * KBUILD_CPPFLAGS lines that are in the kept set (6.1 has no
 * -funsigned-char, 6.12 has), read as text: that Makefile is more shell
 * than kmake reads.  The 6.12 set when the file says nothing. */
static void top_language_flags(const char *tree, struct argv_buf *out)
{
	static const char *const dflt[] = { "-std=gnu11", "-fshort-wchar", "-funsigned-char", "-fno-common",
					    "-fno-PIE", "-fno-strict-aliasing" };
	char *p = xasprintf("%s/Makefile", tree);
	struct strbuf sb = STRBUF_INIT;
	int rc = strbuf_read_file(&sb, p, 0);
	free(p);
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	for (char *l = rc ? NULL : sb.buf; l && *l;) {
		char *nl = strchr(l, '\n');
		if (nl)
			*nl = 0;
		char *t = l;
		while (*t == ' ' || *t == '\t')
			t++;
		if (starts(t, "KBUILD_CFLAGS") || starts(t, "KBUILD_CPPFLAGS")) {
			char *save = NULL;
			for (char *w = strtok_r(t, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
				if (arch_flag_kept(w) && (w[1] == 'f' || starts(w, "-std=")) &&
				    !g_hash_table_contains(seen, w)) {
					g_hash_table_add(seen, xstrdup(w));
					add(out, xstrdup(w));
				}
		}
		l = nl ? nl + 1 : NULL;
	}
	if (!out->n)
		for (size_t i = 0; i < sizeof(dflt) / sizeof(dflt[0]); i++)
			add(out, xstrdup(dflt[i]));
	g_hash_table_destroy(seen);
	strbuf_release(&sb);
}

/* When the arch Makefile gives nothing (a tree this reader cannot follow):
 * what kbuild gave x86_64 in 6.12. */
static const char *const x86_fallback[] = {
	"-m64", "-mcmodel=kernel", "-mno-sse", "-mno-mmx", "-mno-sse2", "-mno-red-zone", NULL,
};

static struct arch_flags *arch_flags_read(const char *treal, GHashTable *config)
{
	struct arch_flags *af = xcalloc(1, sizeof(*af));
	af->tree = xstrdup(treal);
	af->config = g_hash_table_ref(config);
	struct kbuild_arch ka;
	kbuild_arch(treal, &ka);
	af->srcarch = xstrdup(ka.srcarch ? ka.srcarch : "x86");
	af->triple = ka.triple ? xstrdup(ka.triple) : NULL;
	struct argv_buf a = { 0 }, lang = { 0 };
	if (af->triple)
		add(&a, xasprintf("--target=%s", af->triple));
	for (int i = 0; i < ka.nflags; i++) {
		const char *w = ka.flags[i];
		if ((!strcmp(w, "-I") || !strcmp(w, "-include") || !strcmp(w, "-isystem")) && i + 1 < ka.nflags) {
			const char *v = ka.flags[++i];
			add(&a, xstrdup(w));
			add(&a, v[0] == '/' ? xstrdup(v) : xasprintf("%s/%s", treal, v));
		} else if (starts(w, "-I") && w[2]) {
			add(&a, w[2] == '/' ? xstrdup(w) : xasprintf("-I%s/%s", treal, w + 2));
		} else if ((starts(w, "-D") || starts(w, "-U")) && w[2]) {
			add(&a, xstrdup(w));
		} else if (arch_flag_kept(w)) {
			add(&a, xstrdup(w));
		}
	}
	bool any_m = false;
	for (int i = 0; i < a.n; i++)
		any_m |= starts(a.v[i], "-m");
	if (!any_m && !strcmp(af->srcarch, "x86"))
		for (size_t i = 0; x86_fallback[i]; i++)
			add(&a, xstrdup(x86_fallback[i]));
	top_language_flags(treal, &lang);
	/* what libclang refuses for this target goes, one flag at a time */
	if (af->triple && clang_refuses(a.v, 1)) {
		af->problem = xasprintf("libclang cannot parse for %s's target %s (ARCH=%s)", treal, af->triple,
					af->srcarch);
	} else if (a.n && clang_refuses(a.v, a.n)) {
		struct argv_buf keep = { 0 };
		int first = af->triple ? 1 : 0;
		for (int i = 0; i < first; i++)
			add(&keep, xstrdup(a.v[i]));
		for (int i = first; i < a.n; i++) {
			char *one[2] = { a.v[0], a.v[i] };
			if (!clang_refuses(first ? one : one + 1, first + 1))
				add(&keep, xstrdup(a.v[i]));
		}
		flags_free(a.v, a.n);
		a = keep;
	}
	af->argv = a.v;
	af->argc = a.n;
	af->lang = lang.v;
	af->nlang = lang.n;
	af->inputs = ka.inputs;
	af->ninputs = ka.ninputs;
	ka.inputs = NULL;
	ka.ninputs = 0;
	kbuild_arch_release(&ka);
	return af;
}

static void arch_flags_free(struct arch_flags *af)
{
	if (!af)
		return;
	free(af->tree);
	g_hash_table_unref(af->config);
	free(af->srcarch);
	free(af->triple);
	flags_free(af->argv, af->argc);
	flags_free(af->lang, af->nlang);
	flags_free(af->inputs, af->ninputs);
	free(af->problem);
	free(af);
}

/* Kept per process while the tree and its configuration's stamp hold. */
static const struct arch_flags *arch_flags_get(const char *tree)
{
	static struct arch_flags *memo;
	char treal[PATH_MAX];
	if (!realpath(tree, treal))
		snprintf(treal, sizeof(treal), "%s", tree);
	GHashTable *config = kmake_config(treal);
	if (!memo || strcmp(memo->tree, treal) || memo->config != config) {
		arch_flags_free(memo);
		memo = arch_flags_read(treal, config);
	}
	g_hash_table_unref(config);
	return memo;
}

int flags_tree_arch(const char *tree, const char **srcarch, const char **triple)
{
	const struct arch_flags *af = arch_flags_get(tree);
	if (srcarch)
		*srcarch = af->srcarch;
	if (triple)
		*triple = af->triple;
	return af->problem ? err_set(GA_ETREE, "%s", af->problem) : 0;
}

int flags_inputs(const struct flags_ctx *c, const char *path, char ***out, int *nout)
{
	*out = NULL;
	*nout = 0;
	if (!c->tree || c->compdb)
		return 0;
	const struct arch_flags *af = arch_flags_get(c->tree);
	char **kb = NULL;
	int nkb = 0;
	kbuild_inputs(c->tree, path, &kb, &nkb);
	struct argv_buf a = { 0 };
	for (int i = 0; i < nkb; i++)
		add(&a, kb[i]);
	free(kb);
	for (int i = 0; i < af->ninputs; i++) {
		bool dup = false;
		for (int k = 0; k < a.n && !dup; k++)
			dup = !strcmp(a.v[k], af->inputs[i]);
		if (!dup)
			add(&a, xstrdup(af->inputs[i]));
	}
	*out = a.v;
	*nout = a.n;
	return 0;
}

int flags_sparse(const char *tree, char ***out, int *nout)
{
	*out = NULL;
	*nout = 0;
	const struct arch_flags *af = arch_flags_get(tree);
	char *gen = xasprintf("%s/arch/%s/include/generated", tree, af->srcarch);
	bool prepared = exists(gen);
	free(gen);
	if (!prepared)
		return err_set(GA_ETREE, "%s has no arch/%s/include/generated: not prepared", tree, af->srcarch);
	struct argv_buf a = { 0 };
	static const char *const incs[] = {
		"arch/%s/include", "arch/%s/include/generated", "include", "arch/%s/include/uapi",
		"arch/%s/include/generated/uapi", "include/uapi", "include/generated/uapi",
	};
	for (size_t i = 0; i < sizeof(incs) / sizeof(incs[0]); i++) {
		char *rel = strstr(incs[i], "%s") ? g_strdup_printf(incs[i], af->srcarch) : xstrdup(incs[i]);
		add(&a, xasprintf("-I%s/%s", tree, rel));
		g_free(rel);
	}
	static const char *const pre[] = {
		"include/linux/compiler-version.h", "include/linux/kconfig.h", "include/linux/compiler_types.h",
	};
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		add(&a, xstrdup("-include"));
		add(&a, xasprintf("%s/%s", tree, pre[i]));
	}
	add(&a, xstrdup("-D__KERNEL__"));
	/* the top Makefile's CHECKFLAGS: --arch=$(ARCH), the endianness */
	add(&a, xasprintf("--arch=%s", af->srcarch));
	GHashTable *config = kmake_config(af->tree);
	add(&a, xstrdup(g_hash_table_contains(config, "CONFIG_64BIT") ? "-m64" : "-m32"));
	add(&a, xstrdup(g_hash_table_contains(config, "CONFIG_CPU_BIG_ENDIAN") ? "-mbig-endian" : "-mlittle-endian"));
	if (g_hash_table_contains(config, "CONFIG_FUNCTION_TRACER") &&
	    g_hash_table_contains(config, "CONFIG_HAVE_FENTRY"))
		add(&a, xstrdup("-DCC_USING_FENTRY"));
	g_hash_table_unref(config);
	for (int i = 0; i < af->argc; i++)
		if (starts(af->argv[i], "-D") || starts(af->argv[i], "-U"))
			add(&a, xstrdup(af->argv[i]));
	*out = a.v;
	*nout = a.n;
	return 0;
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
	char *arch = kbuild_tree_arch(tree);
	char *q = xasprintf("%s/arch/%s/include/generated/asm", tree, arch);
	ok = ok && exists(q);
	free(q);
	if (!ok) {
		int rc = !strcmp(arch, "x86")
			? err_set(GA_ETREE, "kernel tree '%s' is not prepared (no generated headers); "
				  "run: make -C %s olddefconfig prepare", tree, tree)
			: err_set(GA_ETREE, "kernel tree '%s' is not prepared for ARCH=%s (no generated headers); "
				  "run: make -C %s ARCH=%s LLVM=1 olddefconfig prepare", tree, arch, tree, arch);
		free(arch);
		return rc;
	}
	free(arch);
	/* the arch's flags, read once here before workers fork */
	const struct arch_flags *af = arch_flags_get(tree);
	if (af->problem)
		return err_set(GA_ETREE, "%s", af->problem);
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
	const struct arch_flags *af = arch_flags_get(tree);
	/* LINUXINCLUDE, USERINCLUDE */
	static const char *const incs[] = {
		"arch/%s/include", "arch/%s/include/generated", "include",
		"arch/%s/include/uapi", "arch/%s/include/generated/uapi",
		"include/uapi", "include/generated/uapi",
	};
	static const char *const pre[] = {
		"include/linux/compiler-version.h", "include/linux/kconfig.h",
		"include/linux/compiler_types.h",
	};
	add_common(a);
	for (size_t i = 0; i < sizeof(incs) / sizeof(incs[0]); i++) {
		char *rel = strstr(incs[i], "%s") ? g_strdup_printf(incs[i], af->srcarch) : xstrdup(incs[i]);
		add(a, xasprintf("-I%s/%s", tree, rel));
		g_free(rel);
	}
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		char *p = xasprintf("%s/%s", tree, pre[i]);
		if (exists(p)) {
			add(a, xstrdup("-include"));
			add(a, p);
		} else {
			free(p);
		}
	}
	add(a, xstrdup("-D__KERNEL__"));
	for (int i = 0; i < af->argc; i++)
		add(a, xstrdup(af->argv[i]));
	for (int i = 0; i < af->nlang; i++)
		add(a, xstrdup(af->lang[i]));
	/* the top Makefile: -mfentry and -DCC_USING_FENTRY for function
	 * tracing where the arch has fentry (x86, s390); without it x86's
	 * asm/ftrace.h stops the parse */
	GHashTable *config = kmake_config(af->tree);
	if (g_hash_table_contains(config, "CONFIG_FUNCTION_TRACER") &&
	    g_hash_table_contains(config, "CONFIG_HAVE_FENTRY"))
		add(a, xstrdup("-DCC_USING_FENTRY"));
	g_hash_table_unref(config);
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
	if (!c->tracepoints)
		add(a, xstrdup("-DNOTRACE"));
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
	       !strncmp(s, "-isystem", 8) || !strncmp(s, "-iquote", 7) || !strncmp(s, "--target=", 9);
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
