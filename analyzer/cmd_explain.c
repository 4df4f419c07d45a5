/* gfpaudit explain: what the slow path can do at one allocation site. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "cmd.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/check.h"
#include "gfpaudit/engine.h"
#include "gfpaudit/explain.h"
#include "gfpaudit/result.h"
#include "gfpaudit/slowpath.h"
#include "gfpaudit/diag.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

static void usage(FILE *f, const struct cli_option *opts)
{
	fprintf(f,
"usage: gfpaudit explain [options] FILE:LINE\n"
"       gfpaudit explain --model [--tree KDIR] [--allocator-model M] [--format FMT]\n"
"\n"
"Explain the allocation site at FILE:LINE: its order range, gfp flags by name\n"
"(must / may), fallback, the alloc_flags gfp_to_alloc_flags() derives, and what\n"
"the page allocator's slow path can do for each order the site can request,\n"
"with the source lines of the allocator model used.\n"
"\n");
	cli_print_options(f, opts);
	cli_print_setup(f, "NO_COLOR, TERM (--color=auto)");
	fprintf(f, "\n"
"exit: 0 explained, 2 usage or no site at FILE:LINE, 3 tool failure\n");
}

static bool path_matches(const char *site_file, const char *want)
{
	size_t a = strlen(site_file), b = strlen(want);
	if (!strcmp(site_file, want))
		return true;
	if (a > b && site_file[a - b - 1] == '/' && !strcmp(site_file + a - b, want))
		return true;
	return b > a && want[b - a - 1] == '/' && !strcmp(want + b - a, site_file);
}

/* Collect sites of `file` from saved JSON: an audit report, a file result, or
 * an array of either. */
static int sites_from_json(const char *json_path, const char *file, struct file_result *out)
{
	json_error_t jerr;
	json_t *root = json_load_file(json_path, 0, &jerr);
	if (!root)
		return err_set(GA_EINVAL, "%s:%d: %s", json_path, jerr.line, jerr.text);
	json_t *lists[3] = { json_object_get(root, "sites"), json_object_get(root, "findings"),
			     json_is_array(root) ? root : NULL };
	for (int l = 0; l < 3; l++) {
		size_t i;
		json_t *v;
		json_array_foreach(lists[l], i, v) {
			if (json_is_object(v) && json_is_array(json_object_get(v, "sites")) &&
			    !json_object_get(v, "line")) {
				/* a file result */
				size_t k;
				json_t *sv;
				json_array_foreach(json_object_get(v, "sites"), k, sv) {
					struct site s;
					if (site_from_json(sv, &s))
						continue;
					if (s.file && path_matches(s.file, file))
						site_copy(file_result_add_site(out), &s);
					site_release(&s);
				}
				continue;
			}
			struct site s;
			if (site_from_json(v, &s))
				continue;
			if (s.file && path_matches(s.file, file))
				site_copy(file_result_add_site(out), &s);
			site_release(&s);
		}
	}
	json_decref(root);
	return 0;
}

struct explain_args {
	struct cli_common c;
	const char *model_choice, *from_json, *color;
	int model_only;
	char *file; /* FILE of FILE:LINE (to free) */
	long line;
};

/* Parse the command line into *a: -1 to go on, else the exit code. */
static int explain_parse(int argc, char **argv, struct explain_args *a)
{
	struct strbuf models = STRBUF_INIT;
	strbuf_adds(&models, "auto (default: read the tree, else a built-in),\nor force a built-in: ");
	for (const char *const *b = slowpath_builtin_names(); *b; b++)
		strbuf_addf(&models, "%s%s", *b, b[1] ? ", " : "");
	const struct cli_option opts[] = {
		CLI_STRING(0, "tree", &a->c.tree, "KDIR",
			"parse with this prepared tree's flags, and read the\n"
			"allocator model from its mm/page_alloc.c"),
		CLI_STRING('p', NULL, &a->c.compdb, "FILE", "take flags from compile_commands.json"),
		CLI_STRING(0, "allocator-model", &a->model_choice, "M", models.buf),
		CLI_STRING(0, "from-json", &a->from_json, "FILE",
			"take the site from saved JSON ('audit --format json\n"
			"--sites' output, or one file result) instead of parsing"),
		CLI_CHOICE(0, "format", &a->c.format, "FMT", "text|json", "text (default) or json"),
		CLI_CALLBACK(0, "allocators", &a->c, "FILE", cli_opt_allocator,
			"extra allocator table (see 'gfpaudit audit --help')"),
		CLI_SET(0, "model", &a->model_only, 1,
			"print the allocator model only (every fact it read,\n"
			"with file:line) and whether costly __GFP_NORETRY\n"
			"requests still enter direct compaction"),
		CLI_COUNT('v', "verbose", &a->c.verbose,
			"also print every fact of the allocator model and\n"
			"where each alloc_flags bit is set"),
		CLI_CALLBACK(0, "color", &a->color, "WHEN", cli_opt_color,
			"colour the text: auto (default: on a terminal, unless\n"
			"NO_COLOR is set or TERM=dumb), always, never"),
		CLI_HELP(),
		CLI_END(),
	};
	int rc, i = cli_parse_options("explain", opts, argc, argv, usage, &rc);
	if (i < 0)
		goto out;
	rc = EXIT_USAGE;
	if (a->model_only) {
		if (i != argc)
			fprintf(stderr, "gfpaudit explain: --model takes no FILE:LINE\n");
		else
			rc = -1;
		goto out;
	}
	if (i + 1 != argc) {
		fprintf(stderr, "gfpaudit explain: give exactly one FILE:LINE\n");
		usage(stderr, opts);
		goto out;
	}
	if (a->c.tree && a->c.compdb) {
		fprintf(stderr, "gfpaudit explain: --tree and -p exclude each other\n");
		goto out;
	}
	a->file = xstrdup(argv[i]);
	char *colon = strrchr(a->file, ':');
	if (!colon || cli_parse_long(colon + 1, 1, 100000000, &a->line)) {
		fprintf(stderr, "gfpaudit explain: '%s' is not FILE:LINE\n", argv[i]);
		goto out;
	}
	*colon = 0;
	rc = -1;
out:
	strbuf_release(&models);
	return rc;
}

/* explain --model: the allocator model alone. */
static int explain_model(const struct explain_args *a)
{
	struct slowpath_model *m = NULL;
	int rc = slowpath_model_load(a->c.tree, a->model_choice, &m);
	if (rc) {
		fprintf(stderr, "gfpaudit explain: %s\n", err_last());
		return rc == GA_EINVAL ? EXIT_USAGE : EXIT_TOOL;
	}
	if (!strcmp(a->c.format, "json")) {
		json_t *j = explain_model_to_json(m);
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(j);
	} else
		explain_print_model(m, stdout);
	slowpath_model_free(m);
	return EXIT_CLEAN;
}

/* The sites of a->file into *fr, from saved JSON or parsed by the engine
 * (*e, freed by the caller).  -1 to go on, else the exit code. */
static int explain_sites(struct explain_args *a, struct engine **e, struct file_result **fr)
{
	int rc;
	if (a->from_json) {
		*fr = xcalloc(1, sizeof(**fr));
		file_result_init(*fr, a->file);
		if (sites_from_json(a->from_json, a->file, *fr)) {
			fprintf(stderr, "gfpaudit explain: %s\n", err_last());
			return EXIT_USAGE;
		}
		return -1;
	}
	struct engine_opts eo;
	a->c.config_from = a->file;
	if (cli_engine_opts(&a->c, &eo)) {
		fprintf(stderr, "gfpaudit explain: %s\n", err_last());
		return EXIT_USAGE;
	}
	eo.nskip = 0; /* a file asked for by name is explained, [skip] or not */
	eo.rules = (uint64_t)1 << check_lookup("costly-noretry-compacts"); /* only the sites are wanted; one cheap rule */
	if ((rc = engine_new(&eo, e))) {
		fprintf(stderr, "gfpaudit explain: %s\n", err_last());
		return rc == GA_ETREE || rc == GA_EINVAL ? EXIT_USAGE : EXIT_TOOL;
	}
	if (engine_analyze_file(*e, a->file, NULL, 0, fr) || !*fr) {
		fprintf(stderr, "gfpaudit explain: %s\n", err_last());
		return EXIT_TOOL;
	}
	if ((*fr)->status != FILE_ANALYZED) {
		fprintf(stderr, "gfpaudit explain: %s: %s: %s\n", (*fr)->file,
			(*fr)->status == FILE_SKIPPED ? "skipped" : "failed", (*fr)->reason ? (*fr)->reason : "");
		return EXIT_TOOL;
	}
	return -1;
}

/* Explain the site on a->line (the first column of several). */
static int explain_line(const struct explain_args *a, const struct slowpath_model *model,
			const struct file_result *fr)
{
	const struct site *s = NULL;
	size_t same_line = 0;
	for (size_t i = 0; i < fr->nsites; i++)
		if (fr->sites[i].line == a->line) {
			if (!s || fr->sites[i].col < s->col)
				s = &fr->sites[i];
			same_line++;
		}
	if (!s) {
		fprintf(stderr, "gfpaudit explain: no allocation site at %s:%ld", a->file, a->line);
		if (fr->nsites) {
			fprintf(stderr, "; sites in this file are at lines");
			for (size_t i = 0; i < fr->nsites && i < 20; i++)
				fprintf(stderr, " %d", fr->sites[i].line);
		}
		fprintf(stderr, "\n");
		return EXIT_USAGE;
	}
	if (same_line > 1)
		fprintf(stderr, "gfpaudit explain: %zu sites on line %ld; explaining the one at column %d\n",
			same_line, a->line, s->col);
	struct explanation x;
	explain_site(model, s, &x);
	if (!strcmp(a->c.format, "json")) {
		json_t *j = explain_to_json(&x);
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(j);
	} else {
		struct diag_style ds;
		diag_style_init(&ds, a->color, stdout, a->c.tree); /* names relative to the cwd below --tree */
		explain_print_text(&x, stdout, a->c.verbose > 0, &ds);
		diag_style_release(&ds);
		if (a->c.verbose)
			explain_print_model(model, stdout);
	}
	explanation_release(&x);
	return EXIT_CLEAN;
}

int cmd_explain(int argc, char **argv)
{
	struct explain_args a = { .c = { .format = "text" }, .color = "auto" };
	int rc = explain_parse(argc, argv, &a);
	if (rc >= 0 || a.model_only) {
		free(a.file);
		return rc >= 0 ? rc : explain_model(&a);
	}
	struct slowpath_model *model = NULL;
	struct engine *e = NULL;
	struct file_result *fr = NULL;
	if ((rc = slowpath_model_load(a.c.tree, a.model_choice, &model))) {
		fprintf(stderr, "gfpaudit explain: %s\n", err_last());
		rc = rc == GA_EINVAL ? EXIT_USAGE : EXIT_TOOL;
	} else if ((rc = explain_sites(&a, &e, &fr)) < 0) {
		rc = explain_line(&a, model, fr);
	}
	file_result_free(fr);
	engine_free(e);
	slowpath_model_free(model);
	free(a.file);
	return rc;
}
