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

static char *basename_noext(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	char *r = xstrdup(b);
	char *dot = strrchr(r, '.');
	if (dot)
		*dot = 0;
	for (char *c = r; *c; c++)
		if (*c == '-')
			*c = '_';
	return r;
}

static void tree_flags(struct argv_buf *a, const char *tree, const char *path, const char *pch)
{
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
	/* kbuild adds the source directory for some subsystems' local headers */
	const char *slash = strrchr(path, '/');
	if (slash) {
		char *dir = xstrndup(path, (size_t)(slash - path));
		add(a, xasprintf("-I%s", dir));
		free(dir);
	}
	static const char *const defs[] = {
		"-D__KERNEL__", "-DCC_USING_FENTRY", "-std=gnu11", "-m64", "-mcmodel=kernel",
		"-fno-strict-aliasing", "-fshort-wchar", "-funsigned-char", "-mno-sse",
		"-mno-mmx", "-mno-sse2", "-mno-red-zone", "-fno-PIE",
	};
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		add(a, xstrdup(defs[i]));
	/* a PCH pins the macros it was built with: one module name for all */
	char *mod = pch ? xstrdup("gfpaudit") : basename_noext(path);
	add(a, xasprintf("-DKBUILD_MODNAME=\"%s\"", mod));
	add(a, xasprintf("-DKBUILD_BASENAME=\"%s\"", mod));
	add(a, xasprintf("-D__KBUILD_MODNAME=kmod_%s", mod));
	free(mod);
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
		tree_flags(&a, c->tree, path, c->pch);
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

/* ---- precompiled header of the common kernel headers ---- */

/* analyzer/data/pch-headers.txt, embedded at build time */
static const char pch_list[] =
#include "pch-headers.inc"
	;

/* How many of the list's first headers make the fallback PCH (the eight the
 * first PCH had), used when the whole list does not parse on a tree. */
#define PCH_BASE_HEADERS 8

static bool header_in_tree(const char *tree, const char *h)
{
	static const char *const dirs[] = { "include", "arch/x86/include", "arch/x86/include/generated",
					    "include/uapi", "arch/x86/include/uapi" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *p = xasprintf("%s/%s/%s", tree, dirs[i], h);
		bool ok = exists(p);
		free(p);
		if (ok)
			return true;
	}
	return false;
}

/* The PCH's source: #include lines for those of the first `max` listed
 * headers the tree has. */
static char *pch_source(const char *tree, size_t max)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	for (const char *l = pch_list; *l && n < max;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		while (len && (l[len - 1] == ' ' || l[len - 1] == '\t' || l[len - 1] == '\r'))
			len--;
		if (len && l[0] != '#') {
			char *h = xstrndup(l, len);
			if (header_in_tree(tree, h))
				strbuf_addf(&sb, "#include <%s>\n", h);
			free(h);
			n++;
		}
		l = e ? e + 1 : l + len;
	}
	return strbuf_detach(&sb);
}

static bool tu_has_errors(CXTranslationUnit tu)
{
	unsigned n = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		clang_disposeDiagnostic(d);
		if (sev >= CXDiagnostic_Error)
			return true;
	}
	return false;
}

/* ---- the PCH's inputs ----
 *
 * clang refuses a PCH when a header it was built from changed (mtime or
 * size), so every header the PCH read is listed next to it in PATH.deps
 * with its stamp, and the PCH is rebuilt when one differs.  The list also
 * carries the identity of what the PCH holds (a hash of the headers'
 * contents): the result cache keys on it, since the files' own include
 * lists do not name the headers that came from the PCH.
 *
 *   gfpaudit-pch-deps 1
 *   identity HEX
 *   MTIME_SEC MTIME_NSEC SIZE PATH      (one line per header)
 */
struct pch_deps {
	GPtrArray *paths;
	GChecksum *sum;
};

static void pch_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	struct pch_deps *d = data;
	(void)stack;
	if (!depth)
		return; /* the PCH's own (unsaved) source */
	CXString n = clang_getFileName(f);
	const char *p = clang_getCString(n);
	if (p && *p)
		g_ptr_array_add(d->paths, xstrdup(p));
	clang_disposeString(n);
}

/* Write PATH.deps for the headers in d->paths; 0 or GA_ETOOL. */
static int pch_write_deps(const char *deps_path, struct pch_deps *d)
{
	struct strbuf body = STRBUF_INIT;
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA1);
	int rc = 0;
	for (guint i = 0; i < d->paths->len && !rc; i++) {
		const char *p = g_ptr_array_index(d->paths, i);
		struct stat st;
		struct strbuf c = STRBUF_INIT;
		if (stat(p, &st) || strbuf_read_file(&c, p, 0)) {
			rc = err_set(GA_ETOOL, "PCH input '%s' vanished while building the PCH", p);
		} else {
			g_checksum_update(sum, (const guchar *)p, (gssize)strlen(p) + 1);
			g_checksum_update(sum, (const guchar *)c.buf, (gssize)c.len);
			strbuf_addf(&body, "%lld %ld %lld %s\n", (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec,
				    (long long)st.st_size, p);
		}
		strbuf_release(&c);
	}
	if (!rc) {
		char *tmp = xasprintf("%s.tmp.%d", deps_path, (int)getpid());
		FILE *f = fopen(tmp, "w");
		bool written = f && fprintf(f, "gfpaudit-pch-deps 1\nidentity %s\n%s", g_checksum_get_string(sum),
					    body.buf) >= 0;
		if (f && fclose(f) != 0)
			written = false;
		if (!written || rename(tmp, deps_path) != 0) {
			unlink(tmp);
			rc = err_set(GA_ETOOL, "could not write '%s'", deps_path);
		}
		free(tmp);
	}
	g_checksum_free(sum);
	strbuf_release(&body);
	return rc;
}

/* The identity recorded in PATH.deps when every listed header still has its
 * stamp; NULL when the PCH must be rebuilt. */
static char *pch_check_deps(const char *deps_path)
{
	FILE *f = fopen(deps_path, "r");
	if (!f)
		return NULL;
	char line[PATH_MAX + 128], id[128] = "";
	bool ok = fgets(line, sizeof(line), f) && !strcmp(line, "gfpaudit-pch-deps 1\n") &&
		  fgets(line, sizeof(line), f) && sscanf(line, "identity %127s", id) == 1;
	while (ok && fgets(line, sizeof(line), f)) {
		long long sec, size;
		long nsec;
		int n = 0;
		struct stat st;
		line[strcspn(line, "\n")] = 0;
		ok = sscanf(line, "%lld %ld %lld %n", &sec, &nsec, &size, &n) == 3 && n > 0 &&
		     stat(line + n, &st) == 0 && st.st_mtim.tv_sec == sec && st.st_mtim.tv_nsec == nsec &&
		     st.st_size == size;
	}
	fclose(f);
	return ok && *id ? xstrdup(id) : NULL;
}

/* Parse `source` as the header `src` and save it as `path` (its inputs in
 * `deps_path`); GA_ETOOL when clang reports an error (a PCH with errors is
 * refused by every file). */
static int pch_build(const char *tree, const char *src, const char *source, const char *path,
		     const char *deps_path)
{
	struct flags_ctx fc = { .tree = tree };
	char **argv = NULL;
	int argc = 0, rc = flags_for_file(&fc, src, &argv, &argc);
	if (rc)
		return rc;
	const char **args = xcalloc((size_t)argc + 3, sizeof(*args));
	args[0] = "-x";
	args[1] = "c-header";
	for (int i = 0; i < argc; i++)
		args[i + 2] = argv[i];
	/* the PCH is built with the module name the files will use */
	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], "-DKBUILD_MODNAME=", 17) || !strncmp(argv[i], "-DKBUILD_BASENAME=", 18) ||
		    !strncmp(argv[i], "-D__KBUILD_MODNAME=", 19)) {
			char *fixed = !strncmp(argv[i], "-D__KBUILD", 10) ? xstrdup("-D__KBUILD_MODNAME=kmod_gfpaudit")
				: xasprintf("%.*s\"gfpaudit\"", (int)(strchr(argv[i], '=') - argv[i] + 1), argv[i]);
			free(argv[i]);
			argv[i] = fixed;
			args[i + 2] = fixed;
		}
	struct CXUnsavedFile uf = { src, source, (unsigned long)strlen(source) };
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	enum CXErrorCode ec = clang_parseTranslationUnit2(idx, src, args, argc + 2, &uf, 1,
		CXTranslationUnit_ForSerialization | CXTranslationUnit_Incomplete, &tu);
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	if (ec != CXError_Success || !tu) {
		rc = err_set(GA_ETOOL, "could not parse the common kernel headers for a PCH (error %d)", (int)ec);
	} else if (tu_has_errors(tu)) {
		rc = err_set(GA_ETOOL, "the common kernel headers do not parse together on '%s'", tree);
	} else if (clang_saveTranslationUnit(tu, tmp, clang_defaultSaveOptions(tu)) != CXSaveError_None ||
		   rename(tmp, path) != 0) {
		unlink(tmp);
		rc = err_set(GA_ETOOL, "could not write the PCH '%s'", path);
	} else {
		struct pch_deps d = { g_ptr_array_new_with_free_func(free), NULL };
		clang_getInclusions(tu, pch_inclusion, &d);
		rc = pch_write_deps(deps_path, &d);
		g_ptr_array_free(d.paths, TRUE);
		if (rc)
			unlink(path);
	}
	if (tu)
		clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);
	free(tmp);
	free(args);
	flags_free(argv, argc);
	return rc;
}

int pch_for_tree(const char *tree, char **out, char **identity)
{
	*out = NULL;
	*identity = NULL;
	char *conf = xasprintf("%s/include/generated/autoconf.h", tree);
	struct stat st;
	int have = stat(conf, &st) == 0;
	free(conf);
	if (!have)
		return err_set(GA_ETREE, "kernel tree '%s' is not prepared", tree);
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *dir = xdg && *xdg ? xasprintf("%s/gfpaudit/pch", xdg)
				: xasprintf("%s/.cache/gfpaudit/pch", home && *home ? home : "/tmp");
	/* the whole list first; the first few headers alone if it fails */
	size_t tries[2] = { SIZE_MAX, PCH_BASE_HEADERS };
	int rc = 0;
	for (int t = 0; t < 2; t++) {
		char *source = pch_source(tree, tries[t]);
		/* key: the tree, the headers, this build; what the headers hold
		 * (config included) is checked against PATH.deps */
		uint64_t h = 0xcbf29ce484222325ULL;
		char *key = xasprintf("%s|%s|%s|%s", tree, GFPAUDIT_VERSION, GFPAUDIT_CLANG_RESOURCE_DIR, source);
		for (const char *p = key; *p; p++) {
			h ^= (unsigned char)*p;
			h *= 0x100000001b3ULL;
		}
		free(key);
		char *path = xasprintf("%s/%016llx.pch", dir, (unsigned long long)h);
		char *deps = xasprintf("%s.deps", path);
		struct stat ps;
		char *id = stat(path, &ps) == 0 && ps.st_size > 0 ? pch_check_deps(deps) : NULL;
		if (!id) {
			/* mkdir -p */
			for (char *p = dir + 1; *p; p++)
				if (*p == '/') {
					*p = 0;
					mkdir(dir, 0755);
					*p = '/';
				}
			mkdir(dir, 0755);
			char *src = xasprintf("%s/gfpaudit-pch.h", tree);
			rc = pch_build(tree, src, source, path, deps);
			free(src);
			if (!rc && !(id = pch_check_deps(deps)))
				rc = err_set(GA_ETOOL, "the PCH's headers changed while it was built");
		}
		free(source);
		free(deps);
		if (id) {
			free(dir);
			*out = path;
			*identity = id;
			return 0;
		}
		free(path);
	}
	free(dir);
	return rc;
}
