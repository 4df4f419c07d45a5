/* gfpaudit explain: what the slow path can do at one allocation site. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "gfpaudit/cmd.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/check.h"
#include "gfpaudit/engine.h"
#include "gfpaudit/explain.h"
#include "gfpaudit/result.h"
#include "gfpaudit/slowpath.h"
#include "gfpaudit/diag.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: gfpaudit explain [options] FILE:LINE\n"
"       gfpaudit explain --model [--tree KDIR] [--allocator-model M] [--format FMT]\n"
"\n"
"Explain the allocation site at FILE:LINE: its order range, gfp flags by name\n"
"(must / may), fallback, the alloc_flags gfp_to_alloc_flags() derives, and what\n"
"the page allocator's slow path can do for each order the site can request,\n"
"with the source lines of the allocator model used.\n"
"\n"
"  --tree KDIR             parse with this prepared tree's flags, and read the\n"
"                          allocator model from its mm/page_alloc.c\n"
"  -p FILE                 take flags from compile_commands.json\n"
"  --allocator-model M     auto (default: read the tree, else a built-in),\n"
"                          or force a built-in: ");
	for (const char *const *b = slowpath_builtin_names(); *b; b++)
		fprintf(f, "%s%s", *b, b[1] ? ", " : "\n");
	fprintf(f,
"  --from-json FILE        take the site from saved JSON ('audit --format json\n"
"                          --sites' output, or one file result) instead of parsing\n"
"  --format FMT            text (default) or json\n"
"  --allocators FILE       extra allocator table (see 'gfpaudit audit --help')\n"
"  --model                 print the allocator model only (every fact it read,\n"
"                          with file:line) and whether costly __GFP_NORETRY\n"
"                          requests still enter direct compaction\n"
"  -v, --verbose           also print every fact of the allocator model and\n"
"                          where each alloc_flags bit is set\n"
"  --color WHEN            colour the text: auto (default: on a terminal, unless\n"
"                          NO_COLOR is set or TERM=dumb), always, never\n"
"  -h, --help              this text\n");
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

int cmd_explain(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "allocator-model", required_argument, NULL, 'M' },
		{ "from-json", required_argument, NULL, 'J' },
		{ "allocators", required_argument, NULL, 'A' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "model", no_argument, NULL, 'm' },
		{ "color", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_common c = { .format = "text" };
	const char *model_choice = NULL, *from_json = NULL, *color = "auto";
	int opt, model_only = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "p:vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 't': c.tree = optarg; break;
		case 'p': c.compdb = optarg; break;
		case 'f': c.format = optarg; break;
		case 'M': model_choice = optarg; break;
		case 'J': from_json = optarg; break;
		case 'A': cli_add_allocator(&c, optarg); break;
		case 'v': c.verbose++; break;
		case 'm': model_only = 1; break;
		case 'c':
			if (!cli_color_mode_ok(optarg)) {
				fprintf(stderr, "gfpaudit explain: --color takes auto, always or never, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			color = optarg;
			break;
		case 'h': usage(stdout); return EXIT_CLEAN;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (strcmp(c.format, "text") && strcmp(c.format, "json")) {
		fprintf(stderr, "gfpaudit explain: unknown format '%s' (text, json)\n", c.format);
		return EXIT_USAGE;
	}
	if (model_only) {
		if (optind != argc) {
			fprintf(stderr, "gfpaudit explain: --model takes no FILE:LINE\n");
			return EXIT_USAGE;
		}
		struct slowpath_model *m = NULL;
		int rc = slowpath_model_load(c.tree, model_choice, &m);
		if (rc) {
			fprintf(stderr, "gfpaudit explain: %s\n", err_last());
			return rc == GA_EINVAL ? EXIT_USAGE : EXIT_TOOL;
		}
		if (!strcmp(c.format, "json")) {
			json_t *j = explain_model_to_json(m);
			json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			fputc('\n', stdout);
			json_decref(j);
		} else
			explain_print_model(m, stdout);
		slowpath_model_free(m);
		return EXIT_CLEAN;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "gfpaudit explain: give exactly one FILE:LINE\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (c.tree && c.compdb) {
		fprintf(stderr, "gfpaudit explain: --tree and -p exclude each other\n");
		return EXIT_USAGE;
	}
	char *arg = xstrdup(argv[optind]), *colon = strrchr(arg, ':');
	long line = 0;
	if (!colon || cli_parse_long(colon + 1, 1, 100000000, &line)) {
		fprintf(stderr, "gfpaudit explain: '%s' is not FILE:LINE\n", argv[optind]);
		free(arg);
		return EXIT_USAGE;
	}
	*colon = 0;
	const char *file = arg;

	int exit_code = EXIT_CLEAN;
	struct slowpath_model *model = NULL;
	struct engine *e = NULL;
	struct file_result *fr = NULL;
	int rc = slowpath_model_load(c.tree, model_choice, &model);
	if (rc) {
		fprintf(stderr, "gfpaudit explain: %s\n", err_last());
		exit_code = rc == GA_EINVAL ? EXIT_USAGE : EXIT_TOOL;
		goto cleanup;
	}
	if (from_json) {
		fr = xcalloc(1, sizeof(*fr));
		file_result_init(fr, file);
		if (sites_from_json(from_json, file, fr)) {
			fprintf(stderr, "gfpaudit explain: %s\n", err_last());
			exit_code = EXIT_USAGE;
			goto cleanup;
		}
	} else {
		struct engine_opts eo;
		c.config_from = file;
		if (cli_engine_opts(&c, &eo)) {
			fprintf(stderr, "gfpaudit explain: %s\n", err_last());
			exit_code = EXIT_USAGE;
			goto cleanup;
		}
		eo.nskip = 0; /* a file asked for by name is explained, [skip] or not */
		eo.rules = (uint64_t)1 << check_lookup("costly-noretry-compacts"); /* only the sites are wanted; one cheap rule */
		if ((rc = engine_new(&eo, &e))) {
			fprintf(stderr, "gfpaudit explain: %s\n", err_last());
			exit_code = rc == GA_ETREE || rc == GA_EINVAL ? EXIT_USAGE : EXIT_TOOL;
			goto cleanup;
		}
		if (engine_analyze_file(e, file, NULL, 0, &fr) || !fr) {
			fprintf(stderr, "gfpaudit explain: %s\n", err_last());
			exit_code = EXIT_TOOL;
			goto cleanup;
		}
		if (fr->status != FILE_ANALYZED) {
			fprintf(stderr, "gfpaudit explain: %s: %s: %s\n", fr->file,
				fr->status == FILE_SKIPPED ? "skipped" : "failed", fr->reason ? fr->reason : "");
			exit_code = EXIT_TOOL;
			goto cleanup;
		}
	}
	const struct site *s = NULL;
	size_t same_line = 0;
	for (size_t i = 0; i < fr->nsites; i++)
		if (fr->sites[i].line == line) {
			if (!s || fr->sites[i].col < s->col)
				s = &fr->sites[i];
			same_line++;
		}
	if (!s) {
		fprintf(stderr, "gfpaudit explain: no allocation site at %s:%ld", file, line);
		if (fr->nsites) {
			fprintf(stderr, "; sites in this file are at lines");
			for (size_t i = 0; i < fr->nsites && i < 20; i++)
				fprintf(stderr, " %d", fr->sites[i].line);
		}
		fprintf(stderr, "\n");
		exit_code = EXIT_USAGE;
		goto cleanup;
	}
	if (same_line > 1)
		fprintf(stderr, "gfpaudit explain: %zu sites on line %ld; explaining the one at column %d\n",
			same_line, line, s->col);
	struct explanation x;
	explain_site(model, s, &x);
	if (!strcmp(c.format, "json")) {
		json_t *j = explain_to_json(&x);
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(j);
	} else {
		struct diag_style ds;
		diag_style_init(&ds, color, stdout, c.tree); /* names relative to the cwd below --tree */
		explain_print_text(&x, stdout, c.verbose > 0, &ds);
		diag_style_release(&ds);
		if (c.verbose)
			explain_print_model(model, stdout);
	}
	explanation_release(&x);
cleanup:
	file_result_free(fr);
	engine_free(e);
	slowpath_model_free(model);
	free(arg);
	return exit_code;
}
