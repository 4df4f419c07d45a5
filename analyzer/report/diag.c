/* GCC-style diagnostic lines: colour and display paths (diag.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gfpaudit/diag.h"
#include "gfpaudit/err.h"
#include "gfpaudit/strbuf.h"

/* GCC's default GCC_COLORS: error red, warning magenta, note cyan, locus bold */
static const char *kind_color(const char *kind)
{
	if (!strcmp(kind, "error"))
		return "\033[01;31m";
	if (!strcmp(kind, "warning"))
		return "\033[01;35m";
	if (!strcmp(kind, "note"))
		return "\033[01;36m";
	return "\033[01;32m"; /* site, suppressed */
}

int diag_style_init(struct diag_style *st, const char *mode, FILE *out, const char *root)
{
	memset(st, 0, sizeof(*st));
	if (!mode || !strcmp(mode, "auto")) {
		const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
		st->color = isatty(fileno(out)) && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
	} else if (!strcmp(mode, "always")) {
		st->color = true;
	} else if (strcmp(mode, "never")) {
		return err_set(GA_EINVAL, "--color takes auto, always or never, not '%s'", mode);
	}
	char rroot[PATH_MAX], cwd[PATH_MAX];
	if (root && realpath(root, rroot) && getcwd(cwd, sizeof(cwd))) {
		size_t n = strlen(rroot);
		if (!strncmp(cwd, rroot, n) && cwd[n] == '/' && strcmp(rroot, "/"))
			st->below = xasprintf("%s/", cwd + n + 1);
	}
	return 0;
}

void diag_style_release(struct diag_style *st)
{
	free(st->below);
	st->below = NULL;
}

char *diag_path(const struct diag_style *st, const char *file)
{
	if (!st->below || !file || file[0] == '/')
		return xstrdup(file ? file : "");
	size_t n = strlen(st->below);
	if (!strncmp(file, st->below, n))
		return xstrdup(file + n);
	struct strbuf sb = STRBUF_INIT;
	const char *rest = file, *b = st->below;
	/* the common leading directories, then "../" for each left in below */
	for (const char *s; (s = strchr(b, '/')) && !strncmp(b, rest, (size_t)(s - b + 1)); b = s + 1)
		rest += s - b + 1;
	for (const char *p = b; *p; p++)
		if (*p == '/')
			strbuf_adds(&sb, "../");
	strbuf_adds(&sb, rest);
	return strbuf_detach(&sb);
}

void diag_print(FILE *out, const struct diag_style *st, const char *file, int line, int col,
		const char *kind, const char *message, const char *rule)
{
	char *path = diag_path(st, file);
	if (st->color)
		fputs("\033[01m", out);
	fputs_printable(path, out); /* a file name is any bytes */
	if (col > 0)
		fprintf(out, ":%d:%d:", line, col);
	else
		fprintf(out, ":%d:", line);
	if (st->color)
		fprintf(out, "\033[m %s%s:\033[m %s", kind_color(kind), kind, message);
	else
		fprintf(out, " %s: %s", kind, message);
	if (rule)
		fprintf(out, st->color ? " [\033[01m%s\033[m]" : " [%s]", rule);
	fputc('\n', out);
	free(path);
}
