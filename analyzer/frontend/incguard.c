/* Include guard for hostile input (see frontend.h, incguard_check).
 *
 * libclang opens whatever a file's #include names: `#include "/dev/zero"`
 * grows without end, `#include "/dev/stdin"` blocks, `"../../../etc/x"`
 * reads outside the tree.  Its C API has no hook to veto a file, so the
 * directives are read here before the parse, and every place each name can
 * resolve to (the includer's directory for "", then every include directory
 * of the command line) is checked: a special file (device, FIFO, socket,
 * directory) anywhere, or a file outside the allowed roots (the tree, the
 * kernel-model headers, the compiler's resource directory, the include
 * directories of the flags, the main file's own directory and the git work
 * tree that holds it) is refused.
 * In untrusted text (the in-memory copies: mailed or staged files) a
 * computed `#include MACRO` is refused too, since its target cannot be
 * known before preprocessing.  Conservative on purpose: a directive inside
 * `#if 0` counts.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gfpaudit/frontend.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct roots {
	char **v;
	size_t n, alloc;
};

static void roots_add(struct roots *r, const char *dir)
{
	char buf[PATH_MAX];
	if (!dir || !*dir || !realpath(dir, buf))
		return;
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i], buf))
			return;
	ALLOC_GROW(r->v, r->n + 1, r->alloc);
	r->v[r->n++] = xstrdup(buf);
}

static void roots_release(struct roots *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i]);
	free(r->v);
}

static bool under(const struct roots *r, const char *real)
{
	for (size_t i = 0; i < r->n; i++) {
		size_t n = strlen(r->v[i]);
		if (!strncmp(real, r->v[i], n) && (real[n] == '/' || !real[n] || !strcmp(r->v[i], "/")))
			return true;
	}
	return false;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
}

/* The top of the git work tree holding `dir`, if any: a file's own
 * repository is trusted ground (review and check parse a mailed or staged
 * file where the repository has it, among its siblings). */
static void add_work_tree(struct roots *r, const char *dir)
{
	char buf[PATH_MAX];
	if (!realpath(dir, buf))
		return;
	for (int depth = 0; depth < 64; depth++) {
		struct stat st;
		char *git = xasprintf("%s/.git", buf);
		int found = lstat(git, &st) == 0;
		free(git);
		if (found) {
			roots_add(r, buf);
			return;
		}
		char *slash = strrchr(buf, '/');
		if (!slash || slash == buf)
			return;
		*slash = 0;
	}
}

/* The include directories of the command line, in order. */
static void include_dirs(char *const *argv, int argc, struct roots *dirs)
{
	static const char *const opts[] = { "-I", "-isystem", "-iquote", "-idirafter" };
	for (int i = 0; i < argc; i++)
		for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
			size_t n = strlen(opts[k]);
			if (strncmp(argv[i], opts[k], n))
				continue;
			if (argv[i][n])
				roots_add(dirs, argv[i] + n);
			else if (i + 1 < argc)
				roots_add(dirs, argv[++i]);
			break;
		}
}

/* One place a name may resolve to: 0, or GA_EIO with the reason. */
static int check_candidate(const char *cand, const struct roots *allowed, const char *name, unsigned line)
{
	struct stat st;
	if (stat(cand, &st) < 0)
		return 0; /* not there: clang looks further, or reports it missing */
	if (!S_ISREG(st.st_mode))
		return err_set(GA_EIO, "refused: line %u: #include \"%s\" names %s, not a source file", line, name,
			       S_ISDIR(st.st_mode) ? "a directory" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ?
			       "a device" : "a special file");
	char real[PATH_MAX];
	if (!realpath(cand, real))
		return 0;
	if (!under(allowed, real))
		return err_set(GA_EIO, "refused: line %u: #include \"%s\" leaves the tree and the include "
			       "directories (%s)", line, name, real);
	return 0;
}

static int check_name(const char *includer_dir, bool quoted, const char *name, unsigned line,
		      const struct roots *dirs, const struct roots *allowed)
{
	if (!*name)
		return 0;
	if (name[0] == '/')
		return check_candidate(name, allowed, name, line);
	int rc = 0;
	if (quoted) {
		char *c = xasprintf("%s/%s", includer_dir, name);
		rc = check_candidate(c, allowed, name, line);
		free(c);
	}
	for (size_t i = 0; !rc && i < dirs->n; i++) {
		char *c = xasprintf("%s/%s", dirs->v[i], name);
		rc = check_candidate(c, allowed, name, line);
		free(c);
	}
	return rc;
}

/* Text with comments blanked and backslash-newlines joined (newlines kept,
 * so line numbers stay right). */
static char *clean(const char *s, size_t len)
{
	char *o = xmalloc(len + 1);
	size_t j = 0;
	int st = 0; /* 0 code, 1 block comment, 2 line comment, 3 string, 4 char */
	for (size_t i = 0; i < len; i++) {
		char c = s[i], d = i + 1 < len ? s[i + 1] : 0;
		if (c == '\\' && d == '\n') {
			i++;
			continue; /* joined; the line count is off by one there, which is fine for a message */
		}
		switch (st) {
		case 0:
			if (c == '/' && d == '*') {
				st = 1;
				o[j++] = ' ';
				i++;
				continue;
			}
			if (c == '/' && d == '/') {
				st = 2;
				i++;
				continue;
			}
			if (c == '"')
				st = 3;
			else if (c == '\'')
				st = 4;
			o[j++] = c;
			break;
		case 1:
			if (c == '*' && d == '/') {
				st = 0;
				i++;
			} else if (c == '\n') {
				o[j++] = '\n';
			}
			break;
		case 2:
			if (c == '\n') {
				st = 0;
				o[j++] = '\n';
			}
			break;
		default:
			if (c == '\\' && d) {
				o[j++] = c;
				o[j++] = d;
				i++;
				continue;
			}
			if ((st == 3 && c == '"') || (st == 4 && c == '\'') || c == '\n')
				st = 0;
			o[j++] = c;
			break;
		}
	}
	o[j] = 0;
	return o;
}

int incguard_check(const char *path, const char *text, size_t len, bool untrusted,
		   char *const *argv, int argc, const char *const *roots, size_t nroots)
{
	struct roots dirs = { 0 }, allowed = { 0 };
	include_dirs(argv, argc, &dirs);
	for (size_t i = 0; i < dirs.n; i++)
		roots_add(&allowed, dirs.v[i]);
	for (size_t i = 0; i < nroots; i++)
		roots_add(&allowed, roots[i]);
	char *includer = dir_of(path);
	roots_add(&allowed, includer);
	add_work_tree(&allowed, includer);
	char *c = clean(text, len);
	int rc = 0;
	unsigned line = 0;
	for (char *p = c; p && !rc; ) {
		line++;
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		char *q = p + strspn(p, " \t\f\v\r");
		if (*q == '#') {
			q += 1 + strspn(q + 1, " \t\f\v\r");
			size_t kw = strspn(q, "abcdefghijklmnopqrstuvwxyz_");
			if ((kw == 7 && !strncmp(q, "include", 7)) || (kw == 12 && !strncmp(q, "include_next", 12)) ||
			    (kw == 6 && !strncmp(q, "import", 6))) {
				q += kw;
				q += strspn(q, " \t\f\v\r");
				char close = *q == '"' ? '"' : *q == '<' ? '>' : 0;
				char *end = close ? strchr(q + 1, close) : NULL;
				if (end) {
					*end = 0;
					rc = check_name(includer, close == '"', q + 1, line, &dirs, &allowed);
				} else if (untrusted && *q) {
					rc = err_set(GA_EIO, "refused: line %u: a computed #include (%.60s) in "
						     "untrusted input is not followed", line, q);
				}
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	free(c);
	free(includer);
	roots_release(&dirs);
	roots_release(&allowed);
	return rc;
}
