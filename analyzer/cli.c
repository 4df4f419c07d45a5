#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gfpaudit/datadir.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/config.h"
#include "gfpaudit/isolate.h"
#include "gfpaudit/check.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/finding.h"

static int apply(const char *list, uint64_t *mask, int on)
{
	if (!list)
		return 0;
	char *dup = xstrdup(list), *save = NULL;
	int rc = 0;
	for (char *w = strtok_r(dup, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!strcmp(w, "all")) {
			*mask = on ? check_default_mask() : 0;
			continue;
		}
		int i = check_lookup(w);
		if (i < 0) {
			rc = err_set(GA_EINVAL, "unknown rule '%s' (see 'gfpaudit audit --help')", w);
			break;
		}
		if (on)
			*mask |= (uint64_t)1 << i;
		else
			*mask &= ~((uint64_t)1 << i);
	}
	free(dup);
	return rc;
}

int cli_rule_mask_from(uint64_t base, const char *enable, const char *disable, uint64_t *out)
{
	uint64_t m = base;
	int rc;
	/* --enable alone means "only these"; with --disable it adds back */
	if (enable && !disable)
		m = 0;
	if ((rc = apply(enable, &m, 1)) || (rc = apply(disable, &m, 0)))
		return rc;
	*out = m;
	return 0;
}

/* The split copy of $GFPAUDIT_ALLOCATORS lives as long as the process (the
 * engine options point into it); freed at exit so leak checkers stay quiet. */
static char *env_allocators;

static void free_env_allocators(void)
{
	free(env_allocators);
	env_allocators = NULL;
}

void cli_add_allocator(struct cli_common *c, const char *file)
{
	if (c->nallocators < CLI_MAX_ALLOCATORS)
		c->allocators[c->nallocators] = file;
	c->nallocators++;
}

/* The .gfpaudit of this run, read once (commands call cli_engine_opts once
 * or twice), kept until exit: the engine options point into it. */
static struct config run_config;
static bool run_config_read;

static void free_run_config(void)
{
	config_release(&run_config);
}

int cli_load_config(struct cli_common *c)
{
	if (run_config_read) {
		c->config = &run_config;
		return 0;
	}
	int rc = config_find(c->config_from, &run_config);
	if (rc)
		return rc;
	run_config_read = true;
	atexit(free_run_config);
	c->config = &run_config;
	if (c->verbose) {
		char *d = config_describe(&run_config);
		fprintf(stderr, "gfpaudit: %s\n", d);
		free(d);
	}
	return 0;
}

int cli_engine_opts(struct cli_common *c, struct engine_opts *o)
{
	memset(o, 0, sizeof(*o));
	int rc = cli_load_config(c);
	if (rc)
		return rc;
	uint64_t base = check_default_mask();
	if ((rc = apply(c->config->enable, &base, 1)) || (rc = apply(c->config->disable, &base, 0)) ||
	    (rc = cli_rule_mask_from(base, c->enable, c->disable, &o->rules)))
		return rc;
	o->severities = c->config->sev;
	o->nseverities = c->config->nsev;
	o->skip = (const char *const *)c->config->skip;
	o->nskip = c->config->nskip;
	o->skip_base = c->config->dir;
	/* a binary without its data would parse nothing and report a clean run */
	const char *data;
	if ((rc = datadir_find(&data)))
		return rc;
	o->kmodel_dir = datadir_kmodel();
	const char *env = getenv("GFPAUDIT_ALLOCATORS");
	if (env && *env && !env_allocators) {
		char *dup = env_allocators = xstrdup(env), *save = NULL;
		atexit(free_env_allocators);
		for (char *w = strtok_r(dup, ":", &save); w; w = strtok_r(NULL, ":", &save))
			cli_add_allocator(c, w);
	}
	if (c->nallocators > CLI_MAX_ALLOCATORS)
		return err_set(GA_EINVAL, "too many allocator tables (%d; at most %d, --allocators and "
			       "$GFPAUDIT_ALLOCATORS together)", c->nallocators, CLI_MAX_ALLOCATORS);
	c->allocators[c->nallocators] = NULL;
	o->allocator_files = c->allocators;
	o->tree = c->tree;
	o->compdb = c->compdb;
	o->verbose = c->verbose;
	o->allocator_model = c->allocator_model;
	return 0;
}

void cli_print_setup(FILE *f, const char *env)
{
	fprintf(f, "\nconfiguration: the nearest .gfpaudit in the starting directory or above it\n"
		"([rules] enable/disable, [severity] RULE = LEVEL, [skip] path; -v names it).\n"
		"A comment /* gfpaudit: ignore RULE: reason */ on a finding's line or the line\n"
		"before suppresses it (listed as suppressed, never counted).\n"
		"environment: GFPAUDIT_DATADIR (the data directory: include/kmodel, rules),\n"
		"GFPAUDIT_ALLOCATORS (extra allocator tables, colon-separated), XDG_CACHE_HOME,\n"
		"HOME, GFPAUDIT_DEBUG (model trace), GFPAUDIT_PROFILE (per-file times)%s%s; see gfpaudit(1)\n",
		env ? ",\n" : "", env ? env : "");
}

void cli_print_rules(FILE *f)
{
	for (size_t i = 0; check_table[i]; i++)
		fprintf(f, "  %-24s %-8s %s\n", check_table[i]->id, severity_name(check_table[i]->severity),
			check_table[i]->summary);
}

int cli_parse_long(const char *s, long lo, long hi, long *out)
{
	/* digits only: no sign, no blanks, no suffix ("3x"), no empty string */
	if (!s || !*s)
		return GA_EINVAL;
	long v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return GA_EINVAL;
		if (v > (hi - (*p - '0')) / 10)
			return GA_EINVAL; /* above hi (and never overflows) */
		v = v * 10 + (*p - '0');
	}
	if (v < lo)
		return GA_EINVAL;
	*out = v;
	return 0;
}

int cli_parse_int(const char *cmd, const char *opt, const char *s, int lo, int hi, int *out)
{
	long v;
	if (cli_parse_long(s, lo, hi, &v))
		return err_set(GA_EINVAL, "gfpaudit %s: %s takes a whole number from %d to %d, not '%s'",
			       cmd, opt, lo, hi, s ? s : "");
	*out = (int)v;
	return 0;
}

bool cli_color_mode_ok(const char *mode)
{
	return !strcmp(mode, "auto") || !strcmp(mode, "always") || !strcmp(mode, "never");
}

int cli_progress_default(void)
{
	const char *ci = getenv("CI");
	return ci && !strcmp(ci, "true");
}

int cli_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (int)n;
}

int cli_parse_limit(const char *cmd, bool timeout, const char *s, struct isolate_limits *lim)
{
	int v = 0;
	int rc = timeout ? cli_parse_int(cmd, "--timeout", s, 1, CLI_TIMEOUT_MAX, &v)
			 : cli_parse_int(cmd, "--memory-limit", s, 64, 1 << 24, &v);
	if (rc)
		return rc;
	if (timeout)
		lim->timeout_sec = v;
	else
		lim->mem_limit_mb = v;
	return 0;
}

/* ---- the option tables (cli.h) ---- */

#define CLI_HELP_COLUMN 23

static const char *opt_name(const struct cli_option *o, char *buf)
{
	if (o->long_name) {
		snprintf(buf, 64, "--%s", o->long_name);
	} else {
		buf[0] = '-';
		buf[1] = (char)o->short_name;
		buf[2] = 0;
	}
	return buf;
}

static bool choice_ok(const char *choices, const char *arg)
{
	size_t n = strlen(arg);
	for (const char *p = choices; *p; ) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == n && !strncmp(p, arg, n))
			return true;
		p += len + (bar ? 1 : 0);
	}
	return false;
}

/* Take the argument of one option; 0, or GA_EINVAL with the message set. */
static int take_option(const char *cmd, const struct cli_option *o, const char *arg)
{
	char name[64];
	switch (o->type) {
	case CLI_OPT_SET:
		*(int *)o->value = o->set;
		return 0;
	case CLI_OPT_COUNT:
		++*(int *)o->value;
		return 0;
	case CLI_OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case CLI_OPT_CHOICE:
		if (!choice_ok(o->choices, arg)) {
			char *list = xstrdup(o->choices);
			struct strbuf sb = STRBUF_INIT;
			for (char *p = list; *p; p++)
				*p == '|' ? strbuf_adds(&sb, ", ") : strbuf_addc(&sb, *p);
			int rc = err_set(GA_EINVAL, "gfpaudit %s: unknown %s '%s' (%s)", cmd,
					 o->long_name ? o->long_name : opt_name(o, name), arg, sb.buf);
			strbuf_release(&sb);
			free(list);
			return rc;
		}
		*(const char **)o->value = arg;
		return 0;
	case CLI_OPT_INT:
		return cli_parse_int(cmd, opt_name(o, name), arg, o->lo, o->hi, o->value);
	case CLI_OPT_CALLBACK:
		return o->cb(cmd, o, arg);
	case CLI_OPT_HELP:
	case CLI_OPT_END:
		break;
	}
	return 0;
}

int cli_parse_options(const char *cmd, const struct cli_option *opts, int argc, char **argv,
		      void (*usage)(FILE *, const struct cli_option *), int *exit_code)
{
	size_t n = 0, nlong = 0;
	for (; opts[n].type != CLI_OPT_END; n++)
		nlong += !!opts[n].long_name + !!opts[n].alias;
	struct option *lo = xcalloc(nlong + 1, sizeof(*lo));
	char *shorts = xcalloc(2 * n + 1, 1);
	size_t nl = 0, ns = 0;
	for (size_t i = 0; i < n; i++) {
		const struct cli_option *o = &opts[i];
		int has_arg = o->argh ? required_argument : no_argument;
		/* long-only rows answer with 0x100 + their index */
		int val = o->short_name ? o->short_name : 0x100 + (int)i;
		if (o->long_name)
			lo[nl++] = (struct option){ o->long_name, has_arg, NULL, val };
		if (o->alias)
			lo[nl++] = (struct option){ o->alias, has_arg, NULL, val };
		if (o->short_name) {
			shorts[ns++] = (char)o->short_name;
			if (o->argh)
				shorts[ns++] = ':';
		}
	}
	int opt, ret = -1;
	*exit_code = EXIT_CLEAN;
	optind = 1;
	while ((opt = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct cli_option *o = NULL;
		for (size_t i = 0; i < n && !o; i++)
			if (opt == (opts[i].short_name ? opts[i].short_name : 0x100 + (int)i))
				o = &opts[i];
		if (!o) {
			usage(stderr, opts);
			*exit_code = EXIT_USAGE;
			goto out;
		}
		if (o->type == CLI_OPT_HELP) {
			usage(stdout, opts);
			goto out;
		}
		if (take_option(cmd, o, optarg)) {
			fprintf(stderr, "%s\n", err_last());
			*exit_code = EXIT_USAGE;
			goto out;
		}
	}
	ret = optind;
out:
	free(lo);
	free(shorts);
	return ret;
}

void cli_print_options(FILE *f, const struct cli_option *opts)
{
	for (const struct cli_option *o = opts; o->type != CLI_OPT_END; o++) {
		if (!o->help)
			continue;
		struct strbuf sb = STRBUF_INIT;
		strbuf_adds(&sb, "  ");
		if (o->short_name)
			strbuf_addf(&sb, "-%c%s", o->short_name, o->long_name ? ", " : "");
		if (o->long_name)
			strbuf_addf(&sb, "--%s", o->long_name);
		if (o->alias)
			strbuf_addf(&sb, ", --%s", o->alias);
		if (o->argh)
			strbuf_addf(&sb, " %s", o->argh);
		if (sb.len + 2 > CLI_HELP_COLUMN)
			fprintf(f, "%s\n%*s", sb.buf, CLI_HELP_COLUMN, "");
		else
			fprintf(f, "%-*s", CLI_HELP_COLUMN, sb.buf);
		for (const char *p = o->help; *p; ) {
			const char *nl = strchr(p, '\n');
			int len = nl ? (int)(nl - p) : (int)strlen(p);
			fprintf(f, "%.*s\n", len, p);
			if (!nl)
				break;
			p = nl + 1;
			fprintf(f, "%*s", CLI_HELP_COLUMN, "");
		}
		strbuf_release(&sb);
	}
}

int cli_opt_color(const char *cmd, const struct cli_option *opt, const char *arg)
{
	if (!cli_color_mode_ok(arg))
		return err_set(GA_EINVAL, "gfpaudit %s: --color takes auto, always or never, not '%s'", cmd, arg);
	*(const char **)opt->value = arg;
	return 0;
}

int cli_opt_limit(const char *cmd, const struct cli_option *opt, const char *arg)
{
	return cli_parse_limit(cmd, !strcmp(opt->long_name, "timeout"), arg, opt->value);
}

int cli_opt_severity(const char *cmd, const struct cli_option *opt, const char *arg)
{
	if (severity_lookup(arg) < 0)
		return err_set(GA_EINVAL, "gfpaudit %s: unknown severity '%s' (note, warning, error)", cmd, arg);
	*(const char **)opt->value = arg;
	return 0;
}

int cli_opt_allocator(const char *cmd, const struct cli_option *opt, const char *arg)
{
	cli_add_allocator(opt->value, arg);
	return 0;
}
