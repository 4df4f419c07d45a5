/* The precompiled header for `audit` with a tree (see frontend.h): the
 * kernel headers most files include (analyzer/data/pch-headers.txt), built
 * once per tree and rebuilt when one of the headers it read changed.
 *
 * Tried and dropped (2026-11-30): a second PCH per directory adding the
 * headers most of its files include first ("ieee80211_i.h", "ext4.h",
 * "amdgpu.h").  On 490 real files it saved nothing once tracepoints were
 * compiled out (-DNOTRACE, flags.c): 39.4 s against 37.2 s with this PCH
 * alone, and a third of the directory PCHs did not build. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib.h>
#include "gfpaudit/frontend.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/fs.h"
#include "gfpaudit/version.h"

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
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
	static const char *const dirs[] = { "include", "arch/%s/include", "arch/%s/include/generated",
					    "include/uapi", "arch/%s/include/uapi" };
	const char *arch = "x86";
	if (flags_tree_arch(tree, &arch, NULL))
		err_clear();
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *d = g_strdup_printf(dirs[i], arch);
		char *p = xasprintf("%s/%s/%s", tree, d, h);
		g_free(d);
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
static int pch_build(const char *tree, bool module, const char *src, const char *source, const char *path,
		     const char *deps_path)
{
	struct flags_ctx fc = { .tree = tree, .for_pch = true, .module = module };
	char **argv = NULL;
	int argc = 0, rc = flags_for_file(&fc, src, &argv, &argc);
	if (rc)
		return rc;
	const char **args = xcalloc((size_t)argc + 3, sizeof(*args));
	args[0] = "-x";
	args[1] = "c-header";
	for (int i = 0; i < argc; i++)
		args[i + 2] = argv[i];
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

static char *pch_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	return xdg && *xdg ? xasprintf("%s/gfpaudit/pch", xdg)
			   : xasprintf("%s/.cache/gfpaudit/pch", home && *home ? home : "/tmp");
}

/* The PCH of `source` read as a header in directory `src_dir`: reused when
 * its inputs kept their stamps, else built. */
static int pch_get(const char *tree, bool module, const char *src_dir, const char *source, char **out,
		   char **identity)
{
	*out = NULL;
	*identity = NULL;
	/* key: the tree, where the source sits, the headers, this build, the
	 * flags (the arch Makefile's); what the headers hold (config
	 * included) is checked against PATH.deps */
	uint64_t h = 0xcbf29ce484222325ULL;
	struct flags_ctx fc = { .tree = tree, .for_pch = true, .module = module };
	char **argv = NULL;
	int argc = 0;
	struct strbuf fl = STRBUF_INIT;
	if (!flags_for_file(&fc, src_dir, &argv, &argc))
		for (int i = 0; i < argc; i++)
			strbuf_addf(&fl, "%s ", argv[i]);
	flags_free(argv, argc);
	char *key = xasprintf("%s|%s|%s|%s|%s|%s|%s", tree, src_dir, gfpaudit_version, GFPAUDIT_CLANG_RESOURCE_DIR,
			      module ? "module-3" : "builtin-3", source, fl.buf);
	strbuf_release(&fl);
	for (const char *p = key; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 0x100000001b3ULL;
	}
	free(key);
	char *dir = pch_dir();
	char *path = xasprintf("%s/%016llx.pch", dir, (unsigned long long)h);
	char *deps = xasprintf("%s.deps", path);
	int rc = 0;
	struct stat ps;
	char *id = stat(path, &ps) == 0 && ps.st_size > 0 ? pch_check_deps(deps) : NULL;
	if (!id) {
		fs_mkdir_p(dir, 0755); /* best effort: the build says what fails */
		char *src = xasprintf("%s/gfpaudit-pch.h", src_dir);
		rc = pch_build(tree, module, src, source, path, deps);
		free(src);
		if (!rc && !(id = pch_check_deps(deps)))
			rc = err_set(GA_ETOOL, "the PCH's headers changed while it was built");
	}
	free(dir);
	free(deps);
	if (id) {
		*out = path;
		*identity = id;
		return 0;
	}
	free(path);
	return rc;
}

int pch_for_tree(const char *tree, bool module, char **out, char **identity)
{
	*out = NULL;
	*identity = NULL;
	char *conf = xasprintf("%s/include/generated/autoconf.h", tree);
	bool have = exists(conf);
	free(conf);
	if (!have)
		return err_set(GA_ETREE, "kernel tree '%s' is not prepared", tree);
	/* the whole list first; the first few headers alone if it fails */
	size_t tries[2] = { SIZE_MAX, PCH_BASE_HEADERS };
	int rc = 0;
	for (int t = 0; t < 2; t++) {
		char *source = pch_source(tree, tries[t]);
		rc = pch_get(tree, module, tree, source, out, identity);
		free(source);
		if (!rc)
			return 0;
	}
	return rc;
}

int pch_base_for_tree(const char *tree, bool module, char **out)
{
	char *source = pch_source(tree, PCH_BASE_HEADERS), *identity = NULL;
	int rc = pch_get(tree, module, tree, source, out, &identity);
	free(identity);
	free(source);
	return rc;
}
