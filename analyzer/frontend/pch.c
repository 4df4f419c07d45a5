/* Precompiled headers for `audit` with a tree (see frontend.h): the core
 * PCH of the kernel headers most files include (analyzer/data/pch-headers.txt)
 * and directory PCHs that add the headers every file of one directory
 * includes first. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <glib.h>
#include "gfpaudit/frontend.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

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

static char *pch_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	return xdg && *xdg ? xasprintf("%s/gfpaudit/pch", xdg)
			   : xasprintf("%s/.cache/gfpaudit/pch", home && *home ? home : "/tmp");
}

static void mkdir_p(char *dir)
{
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(dir, 0755);
			*p = '/';
		}
	mkdir(dir, 0755);
}

#define PCH_BUSY 1

/* The PCH of `source` read as a header in directory `src_dir`: reused when
 * its inputs kept their stamps, else built.  With `shared`, a PCH another
 * process is building right now is not waited for (PCH_BUSY), and one that
 * failed to build is not tried again (GA_ETOOL) until the PCH directory
 * is cleaned. */
static int pch_get(const char *tree, const char *src_dir, const char *source, bool shared, char **out,
		   char **identity)
{
	*out = NULL;
	*identity = NULL;
	/* key: the tree, where the source sits, the headers, this build; what
	 * the headers hold (config included) is checked against PATH.deps */
	uint64_t h = 0xcbf29ce484222325ULL;
	char *key = xasprintf("%s|%s|%s|%s|%s", tree, src_dir, GFPAUDIT_VERSION, GFPAUDIT_CLANG_RESOURCE_DIR, source);
	for (const char *p = key; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 0x100000001b3ULL;
	}
	free(key);
	char *dir = pch_dir();
	char *path = xasprintf("%s/%016llx.pch", dir, (unsigned long long)h);
	char *deps = xasprintf("%s.deps", path);
	char *failed = xasprintf("%s.failed", path);
	int rc = 0, lock = -1;
	struct stat ps;
	char *id = stat(path, &ps) == 0 && ps.st_size > 0 ? pch_check_deps(deps) : NULL;
	if (!id && shared && exists(failed)) {
		rc = err_set(GA_ETOOL, "the directory PCH did not build before (%s)", failed);
	} else if (!id) {
		mkdir_p(dir);
		if (shared) {
			char *lp = xasprintf("%s.lock", path);
			lock = open(lp, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
			free(lp);
			if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) != 0) {
				rc = PCH_BUSY;
				goto out;
			}
			/* built by someone else meanwhile? */
			id = stat(path, &ps) == 0 && ps.st_size > 0 ? pch_check_deps(deps) : NULL;
		}
		if (!id) {
			char *src = xasprintf("%s/gfpaudit-pch.h", src_dir);
			rc = pch_build(tree, src, source, path, deps);
			free(src);
			if (!rc && !(id = pch_check_deps(deps)))
				rc = err_set(GA_ETOOL, "the PCH's headers changed while it was built");
			if (rc && shared) {
				FILE *f = fopen(failed, "w");
				if (f) {
					fprintf(f, "%s\n", err_last());
					fclose(f);
				}
			}
		}
	}
out:
	if (lock >= 0)
		close(lock); /* releases the flock */
	free(dir);
	free(deps);
	free(failed);
	if (id) {
		*out = path;
		*identity = id;
		return 0;
	}
	free(path);
	return rc;
}

int pch_for_tree(const char *tree, char **out, char **identity, char **source_out)
{
	*out = NULL;
	*identity = NULL;
	if (source_out)
		*source_out = NULL;
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
		rc = pch_get(tree, tree, source, false, out, identity);
		if (!rc) {
			if (source_out)
				*source_out = source;
			else
				free(source);
			return 0;
		}
		free(source);
	}
	return rc;
}

/* ---- directory PCHs ----
 *
 * Kernel files of one directory mostly start with the same headers (the
 * subsystem's, the directory's own "foo.h").  For a directory with at least
 * DIR_MIN_FILES .c files, the headers that every one of them includes in its
 * leading block (only comments, #include lines and pr_fmt/dev_fmt defines
 * before them) go into a directory PCH after the core headers.  Every file
 * of the directory includes them anyway, before any other macro of its own;
 * what changes is only that they come before the file's other leading
 * includes (as the core headers already do).  A file whose leading block is
 * empty (it starts with #ifdef, say) is not counted and keeps the core PCH.
 * Directory PCHs are built by the worker that first needs one; the others
 * parse with the core PCH meanwhile (the results are the same).
 */
#define DIR_MIN_FILES 4
#define LEAD_BYTES 16384

struct pch_dirs {
	char *tree;
	char *core_source;
	GHashTable *extra;     /* directory -> its headers as #include lines ("" none) */
	GHashTable *core_deps; /* headers of the core PCH (set) */
};

static const char *skip_space_comments(const char *p, const char *end)
{
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f'))
			p++;
		if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			const char *e = NULL;
			for (const char *q = p + 2; q + 1 < end; q++)
				if (q[0] == '*' && q[1] == '/') {
					e = q + 2;
					break;
				}
			if (!e)
				return end;
			p = e;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else {
			return p;
		}
	}
}

/* The #include targets of the file's leading block, as written ("<x.h>" or
 * "\"x.h\""), into `out`. */
static void leading_includes(const char *text, size_t len, GPtrArray *out)
{
	const char *p = text, *end = text + len;
	for (;;) {
		p = skip_space_comments(p, end);
		if (p >= end || *p != '#')
			return;
		const char *q = p + 1;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		const char *eol = memchr(q, '\n', (size_t)(end - q));
		if (!eol)
			return; /* the block runs past what was read */
		if (end - q > 7 && !strncmp(q, "include", 7)) {
			q += 7;
			while (q < eol && (*q == ' ' || *q == '\t'))
				q++;
			char close = q < eol && *q == '<' ? '>' : q < eol && *q == '"' ? '"' : 0;
			const char *e = close ? memchr(q + 1, close, (size_t)(eol - q - 1)) : NULL;
			if (!e)
				return;
			g_ptr_array_add(out, xstrndup(q, (size_t)(e - q + 1)));
			p = eol + 1;
		} else if (end - q > 6 && !strncmp(q, "define", 6) &&
			   (!strncmp(q + 6 + strspn(q + 6, " \t"), "pr_fmt(", 7) ||
			    !strncmp(q + 6 + strspn(q + 6, " \t"), "dev_fmt(", 8))) {
			/* a message prefix: only strings change; may continue lines */
			while (eol && eol > q && eol[-1] == '\\')
				eol = memchr(eol + 1, '\n', (size_t)(end - eol - 1));
			if (!eol)
				return;
			p = eol + 1;
		} else {
			return;
		}
	}
}

static GPtrArray *file_leading_includes(const char *path)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(free);
	FILE *f = fopen(path, "r");
	if (!f)
		return a;
	char *buf = xmalloc(LEAD_BYTES);
	size_t n = fread(buf, 1, LEAD_BYTES, f);
	fclose(f);
	leading_includes(buf, n, a);
	free(buf);
	return a;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char real[PATH_MAX];
	char *d = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	char *r = xstrdup(realpath(d, real) ? real : d);
	free(d);
	return r;
}

static gint cmp_strp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_cstrp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct dir_plan {
	char *extra;          /* #include lines after the core's ("" none) */
	GHashTable *members;  /* basenames of the files that use it */
};

static void dir_plan_free(gpointer p)
{
	struct dir_plan *dp = p;
	free(dp->extra);
	if (dp->members)
		g_hash_table_destroy(dp->members);
	free(dp);
}

static gint cmp_by_count(gconstpointer a, gconstpointer b, gpointer data)
{
	GHashTable *count = data;
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	guint cx = GPOINTER_TO_UINT(g_hash_table_lookup(count, x)), cy = GPOINTER_TO_UINT(g_hash_table_lookup(count, y));
	return cx != cy ? (cx > cy ? -1 : 1) : strcmp(x, y);
}

static bool has_all(GPtrArray *inc, GPtrArray *want)
{
	for (guint k = 0; k < want->len; k++) {
		bool found = false;
		for (guint m = 0; m < inc->len && !found; m++)
			found = !strcmp(g_ptr_array_index(want, k), g_ptr_array_index(inc, m));
		if (!found)
			return false;
	}
	return true;
}

/* The directory's plan: of the headers at least half of its files include
 * in their leading block, the most common ones that the most files (at
 * least DIR_MIN_FILES) include all of; and those files. */
static struct dir_plan *plan_dir(struct pch_dirs *d, const char *dir)
{
	struct dir_plan *dp = xcalloc(1, sizeof(*dp));
	dp->extra = xstrdup("");
	GDir *gd = g_dir_open(dir, 0, NULL);
	if (!gd)
		return dp;
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const char *n;
	while ((n = g_dir_read_name(gd)))
		if (g_str_has_suffix(n, ".c"))
			g_ptr_array_add(names, g_strdup(n));
	g_dir_close(gd);
	g_ptr_array_sort(names, cmp_strp);
	GPtrArray *incs = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	GHashTable *count = g_hash_table_new(g_str_hash, g_str_equal); /* borrowed keys */
	guint with_block = 0;
	for (guint i = 0; i < names->len; i++) {
		char *p = xasprintf("%s/%s", dir, (char *)g_ptr_array_index(names, i));
		GPtrArray *inc = file_leading_includes(p);
		free(p);
		g_ptr_array_add(incs, inc);
		with_block += inc->len > 0;
		for (guint m = 0; m < inc->len; m++) {
			const char *h = g_ptr_array_index(inc, m);
			/* once per file */
			bool dup = false;
			for (guint k = 0; k < m && !dup; k++)
				dup = !strcmp(h, g_ptr_array_index(inc, k));
			if (dup)
				continue;
			char *line = xasprintf("#include %s\n", h);
			bool in_core = strstr(d->core_source, line) != NULL;
			free(line);
			if (!in_core)
				g_hash_table_insert(count, (gpointer)h,
						    GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(count, h)) + 1));
		}
	}
	/* the candidates, most common first (ties: by name, for determinism) */
	GPtrArray *want = g_ptr_array_new();
	GHashTableIter it;
	gpointer k, v;
	g_hash_table_iter_init(&it, count);
	while (g_hash_table_iter_next(&it, &k, &v))
		if (with_block >= DIR_MIN_FILES && GPOINTER_TO_UINT(v) * 2 >= with_block &&
		    GPOINTER_TO_UINT(v) >= DIR_MIN_FILES)
			g_ptr_array_add(want, k);
	/* most common first; keep the longest prefix of that order that the
	 * most files include entirely */
	g_ptr_array_sort_with_data(want, cmp_by_count, count);
	guint best_len = 0, best_members = 0;
	GPtrArray *pre = g_ptr_array_new();
	for (guint j = 0; j < want->len; j++) {
		g_ptr_array_add(pre, g_ptr_array_index(want, j));
		guint members = 0;
		for (guint i = 0; i < incs->len; i++) {
			GPtrArray *inc = g_ptr_array_index(incs, i);
			members += inc->len && has_all(inc, pre);
		}
		if (members >= DIR_MIN_FILES && members >= best_members) {
			best_members = members;
			best_len = j + 1;
		}
	}
	g_ptr_array_free(pre, TRUE);
	g_ptr_array_set_size(want, best_len);
	if (want->len) {
		/* members, and the headers in the first member's order */
		dp->members = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
		struct strbuf sb = STRBUF_INIT;
		for (guint i = 0; i < incs->len; i++) {
			GPtrArray *inc = g_ptr_array_index(incs, i);
			if (!inc->len || !has_all(inc, want))
				continue;
			if (!g_hash_table_size(dp->members))
				for (guint m = 0; m < inc->len; m++) {
					const char *h = g_ptr_array_index(inc, m);
					bool w = false;
					for (guint q = 0; q < want->len && !w; q++)
						w = !strcmp(h, g_ptr_array_index(want, q));
					char *line = xasprintf("#include %s\n", h);
					if (w && !strstr(sb.buf, line))
						strbuf_adds(&sb, line);
					free(line);
				}
			g_hash_table_add(dp->members, xstrdup(g_ptr_array_index(names, i)));
		}
		free(dp->extra);
		dp->extra = strbuf_detach(&sb);
	}
	if (debug_on())
		fprintf(stderr, "debug: dir-pch %s: %u of %u files, headers:\n%s", dir,
			dp->members ? g_hash_table_size(dp->members) : 0, names->len, dp->extra);
	g_ptr_array_free(want, TRUE);
	g_hash_table_destroy(count);
	g_ptr_array_free(incs, TRUE);
	g_ptr_array_free(names, TRUE);
	return dp;
}

static GHashTable *read_dep_paths(const char *deps_path)
{
	GHashTable *set = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	FILE *f = fopen(deps_path, "r");
	if (!f)
		return set;
	char line[PATH_MAX + 128];
	while (fgets(line, sizeof(line), f)) {
		long long sec, size;
		long nsec;
		int n = 0;
		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%lld %ld %lld %n", &sec, &nsec, &size, &n) == 3 && n > 0)
			g_hash_table_add(set, xstrdup(line + n));
	}
	fclose(f);
	return set;
}

int pch_dirs_new(const char *tree, const char *core_pch, const char *core_source, struct pch_dirs **out)
{
	struct pch_dirs *d = xcalloc(1, sizeof(*d));
	d->tree = xstrdup(tree);
	d->core_source = xstrdup(core_source);
	d->extra = g_hash_table_new_full(g_str_hash, g_str_equal, free, dir_plan_free);
	char *deps = xasprintf("%s.deps", core_pch);
	d->core_deps = read_dep_paths(deps);
	free(deps);
	*out = d;
	return 0;
}

void pch_dirs_free(struct pch_dirs *d)
{
	if (!d)
		return;
	free(d->tree);
	free(d->core_source);
	g_hash_table_destroy(d->extra);
	g_hash_table_destroy(d->core_deps);
	free(d);
}

void pch_dirs_plan(struct pch_dirs *d, char *const *paths, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *dir = dir_of(paths[i]);
		if (g_hash_table_contains(d->extra, dir)) {
			free(dir);
			continue;
		}
		g_hash_table_insert(d->extra, dir, plan_dir(d, dir));
	}
}

int pch_dirs_for_file(struct pch_dirs *d, const char *path, char **pch, char ***deps, size_t *ndeps)
{
	*pch = NULL;
	*deps = NULL;
	*ndeps = 0;
	char *dir = dir_of(path);
	const struct dir_plan *dp = g_hash_table_lookup(d->extra, dir);
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (!dp || !*dp->extra || !g_hash_table_contains(dp->members, base)) {
		free(dir);
		return GA_ENOTFOUND;
	}
	char *source = xasprintf("%s%s", d->core_source, dp->extra);
	char *id = NULL;
	int rc = pch_get(d->tree, dir, source, true, pch, &id);
	free(source);
	free(dir);
	free(id);
	if (rc)
		return rc == PCH_BUSY ? GA_ENOTFOUND : rc;
	/* the headers the file sees through this PCH and not through the core */
	char *depf = xasprintf("%s.deps", *pch);
	GHashTable *all = read_dep_paths(depf);
	free(depf);
	GHashTableIter it;
	gpointer k;
	size_t alloc = 0;
	g_hash_table_iter_init(&it, all);
	while (g_hash_table_iter_next(&it, &k, NULL))
		if (!g_hash_table_contains(d->core_deps, k)) {
			ALLOC_GROW(*deps, *ndeps + 1, alloc);
			(*deps)[(*ndeps)++] = xstrdup(k);
		}
	g_hash_table_destroy(all);
	if (*ndeps > 1)
		qsort(*deps, *ndeps, sizeof(**deps), cmp_cstrp);
	return 0;
}
