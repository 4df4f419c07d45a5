/* GCC-style diagnostic lines: colour and display paths (diag.h). */
#include <ctype.h>
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

/* Where the clause starting at p ends: at "; " outside '...', or the end.
 * An apostrophe inside a word ("this tree's allocator") quotes nothing: a
 * quote opens after a non-word character and closes before one. */
static const char *clause_end(const char *p)
{
	bool quoted = false;
	for (const char *b = p; *p; p++) {
		if (*p == '\'' && !quoted && (p == b || !isalnum((unsigned char)p[-1])))
			quoted = true;
		else if (*p == '\'' && quoted && !isalnum((unsigned char)p[1]) && p[1] != '_')
			quoted = false;
		else if (!quoted && p[0] == ';' && p[1] == ' ')
			return p;
	}
	return p;
}

void diag_print_finding(FILE *out, const struct diag_style *st, const char *file, int line, int col,
			const char *kind, const char *message, const char *phrase, const char *rule)
{
	const char *end = clause_end(message);
	size_t tag = rule ? strlen(rule) + 3 : 0, room = DIAG_HEADLINE_MAX - 1 - tag;
	char *head = xstrndup(message, (size_t)(end - message));
	char *full = phrase ? xasprintf("%s: %s", head, phrase) : xstrdup(head);
	bool cut = false;
	const char *why = NULL; /* the part after "WHAT: " of a long head, as a note */
	if (strlen(full) > room && phrase) {
		free(full);
		full = xstrdup(head);
	}
	char *colon = strlen(full) > room ? strstr(full, ": ") : NULL;
	if (colon && (size_t)(colon - full) <= room) {
		why = head + (colon - full) + 2;
		*colon = '\0';
	}
	if (strlen(full) > room) {
		size_t n = room - 3;
		while (n > 0 && full[n] != ' ')
			n--;
		strcpy(full + (n ? n : room - 3), "...");
		cut = true;
	}
	diag_print(out, st, file, line, col, kind, full, rule);
	if (cut)
		diag_print(out, st, file, line, col, "note", head, NULL);
	else if (why)
		diag_print(out, st, file, line, col, "note", why, NULL);
	for (const char *p = end; *p; p = end) {
		p += 2; /* "; " */
		end = clause_end(p);
		char *c = xstrndup(p, (size_t)(end - p));
		diag_print(out, st, file, line, col, "note", c, NULL);
		free(c);
	}
	free(head);
	free(full);
}
