/* .gfpaudit: find, parse and apply the per-tree configuration (config.h). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gfpaudit/config.h"
#include "gfpaudit/check.h"
#include "gfpaudit/err.h"
#include "gfpaudit/fs.h"
#include "gfpaudit/strbuf.h"

enum section { SEC_NONE, SEC_RULES, SEC_SEVERITY, SEC_SKIP };

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Append a comma list to *list without the blanks around its names,
 * once every name is a rule (or "all"). */
static int add_rules(char **list, const char *file, int line, const char *val)
{
	char *dup = xstrdup(val), *save = NULL;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	if (*list)
		strbuf_adds(&sb, *list);
	for (char *w = strtok_r(dup, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
		w = trim(w);
		if (strcmp(w, "all") && check_lookup(w) < 0)
			rc = err_set(GA_EINVAL, "%s:%d: unknown rule '%s'", file, line, w);
		strbuf_addf(&sb, "%s%s", sb.len ? "," : "", w);
	}
	free(dup);
	if (rc) {
		strbuf_release(&sb);
		return rc;
	}
	free(*list);
	*list = strbuf_detach(&sb);
	return 0;
}

static int set_key(struct config *c, enum section sec, const char *file, int line, const char *key, const char *val)
{
	switch (sec) {
	case SEC_RULES:
		if (strcmp(key, "enable") && strcmp(key, "disable"))
			return err_set(GA_EINVAL, "%s:%d: [rules] takes enable or disable, not '%s'", file, line, key);
		return add_rules(!strcmp(key, "enable") ? &c->enable : &c->disable, file, line, val);
	case SEC_SEVERITY: {
		int r = check_lookup(key), s = severity_lookup(val);
		if (r < 0)
			return err_set(GA_EINVAL, "%s:%d: unknown rule '%s'", file, line, key);
		if (s < 0)
			return err_set(GA_EINVAL, "%s:%d: severity is note, warning or error, not '%s'", file, line, val);
		c->sev = xrealloc(c->sev, (c->nsev + 1) * sizeof(*c->sev));
		c->sev[c->nsev++] = (struct rule_severity){ r, s };
		return 0;
	}
	case SEC_SKIP:
		if (strcmp(key, "path"))
			return err_set(GA_EINVAL, "%s:%d: [skip] takes path, not '%s'", file, line, key);
		c->skip = xrealloc(c->skip, (c->nskip + 1) * sizeof(*c->skip));
		c->skip[c->nskip++] = xstrdup(val);
		return 0;
	case SEC_NONE:
		break;
	}
	return err_set(GA_EINVAL, "%s:%d: '%s' outside a section ([rules], [severity] or [skip])", file, line, key);
}

static int parse_line(struct config *c, enum section *sec, const char *file, int lineno, char *l)
{
	l = trim(l);
	if (!*l || *l == '#' || *l == ';')
		return 0;
	if (*l == '[') {
		char *end = strchr(l, ']');
		if (!end || *trim(end + 1))
			return err_set(GA_EINVAL, "%s:%d: a section line is [NAME]", file, lineno);
		*end = '\0';
		const char *name = trim(l + 1);
		*sec = !strcmp(name, "rules") ? SEC_RULES : !strcmp(name, "severity") ? SEC_SEVERITY
			: !strcmp(name, "skip") ? SEC_SKIP : SEC_NONE;
		if (*sec == SEC_NONE)
			return err_set(GA_EINVAL, "%s:%d: unknown section [%s] (rules, severity, skip)", file, lineno, name);
		return 0;
	}
	char *eq = strchr(l, '=');
	if (!eq)
		return err_set(GA_EINVAL, "%s:%d: expected KEY = VALUE", file, lineno);
	*eq = '\0';
	const char *key = trim(l), *val = trim(eq + 1);
	if (!*key || !*val)
		return err_set(GA_EINVAL, "%s:%d: expected KEY = VALUE", file, lineno);
	return set_key(c, *sec, file, lineno, key, val);
}

int config_load(const char *file, struct config *out)
{
	memset(out, 0, sizeof(*out));
	FILE *f = fopen(file, "r");
	if (!f)
		return err_set(GA_EIO, "cannot read '%s': %s", file, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	int rc = 0, lineno = 0;
	enum section sec = SEC_NONE;
	while (!rc && getline(&line, &cap, f) >= 0)
		rc = parse_line(out, &sec, file, ++lineno, line);
	if (!rc && ferror(f))
		rc = err_set(GA_EIO, "cannot read '%s'", file);
	free(line);
	fclose(f);
	if (rc) {
		config_release(out);
		return rc;
	}
	char real[PATH_MAX];
	out->path = xstrdup(realpath(file, real) ? real : file);
	char *slash = strrchr(out->path, '/');
	out->dir = slash ? xstrndup(out->path, (size_t)(slash - out->path)) : xstrdup(".");
	return 0;
}

int config_find(const char *start, struct config *out)
{
	memset(out, 0, sizeof(*out));
	char real[PATH_MAX];
	struct stat st;
	if (!realpath(start && *start ? start : ".", real))
		return 0; /* a path that does not exist: the command says so */
	if (stat(real, &st) == 0 && !S_ISDIR(st.st_mode)) {
		char *slash = strrchr(real, '/');
		if (slash)
			*(slash == real ? slash + 1 : slash) = '\0';
	}
	for (;;) {
		char *f = xasprintf("%s/%s", strcmp(real, "/") ? real : "", CONFIG_NAME);
		int found = access(f, F_OK) == 0;
		int rc = found ? config_load(f, out) : 0;
		free(f);
		if (found || !strcmp(real, "/"))
			return rc;
		char *slash = strrchr(real, '/');
		*(slash == real ? slash + 1 : slash) = '\0';
	}
}

void config_release(struct config *c)
{
	free(c->path);
	free(c->dir);
	free(c->enable);
	free(c->disable);
	free(c->sev);
	for (size_t i = 0; i < c->nskip; i++)
		free(c->skip[i]);
	free(c->skip);
	memset(c, 0, sizeof(*c));
}

bool config_skips(const struct config *c, const char *path)
{
	return c->nskip && fs_path_matches(c->dir, (const char *const *)c->skip, c->nskip, path);
}

char *config_describe(const struct config *c)
{
	struct strbuf sb = STRBUF_INIT;
	if (!c->path) {
		strbuf_addf(&sb, "configuration: no %s file", CONFIG_NAME);
		return strbuf_detach(&sb);
	}
	strbuf_addf(&sb, "configuration: %s", c->path);
	if (c->enable)
		strbuf_addf(&sb, "; enable %s", c->enable);
	if (c->disable)
		strbuf_addf(&sb, "; disable %s", c->disable);
	for (size_t i = 0; i < c->nsev; i++)
		strbuf_addf(&sb, "%s%s=%s", i ? ", " : "; severity ", check_table[c->sev[i].rule]->id,
			    severity_name(c->sev[i].severity));
	for (size_t i = 0; i < c->nskip; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "; skip ", c->skip[i]);
	return strbuf_detach(&sb);
}
