/* gfpaudit merge: join the JSON outputs of several runs (shards) into one,
 * or (--configs) the runs of one source on several configurations into one
 * report that says where each finding holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "cmd.h"
#include "gfpaudit/report.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/diag.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

static void usage(FILE *f, const struct cli_option *opts)
{
	fprintf(f,
"usage: gfpaudit merge [options] RUN.json...\n"
"\n"
"Join the JSON outputs of 'gfpaudit audit --format json' runs, typically the\n"
"shards of one audit ('audit --shard K/N'), into one report: findings, sites,\n"
"problems and resolved findings together, files in tree order, counts added.\n"
"\n");
	cli_print_options(f, opts);
	fprintf(f, "\n"
"environment: NO_COLOR, TERM (--color=auto)\n"
"\n"
"exit: 0 clean, 1 findings at or above the threshold, 2 usage or unreadable\n"
"input, 3 files that failed or were skipped and nothing else was found\n");
}

/* Text lines "FILE:LINE:COL: SEVERITY: ... [RULE]" get the configurations. */
static void label_text(const json_t *doc, const char *text, FILE *out)
{
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char *line = xstrndup(l, len);
		char file[4096], rule[128];
		long ln, col;
		int pos = 0;
		const json_t *f = NULL;
		char *lb = strrchr(line, '[');
		if (lb && len && line[len - 1] == ']' && sscanf(lb, "[%127[^]]]", rule) == 1 &&
		    sscanf(line, "%4095[^:]:%ld:%ld: %n", file, &ln, &col, &pos) == 3 && pos)
			f = report_configs_find(doc, file, ln, col, rule);
		fputs(line, out);
		if (f) {
			char *lab = report_configs_label(f);
			fprintf(out, " %s", lab);
			free(lab);
		}
		if (nl)
			fputc('\n', out);
		free(line);
		l = nl ? nl + 1 : l + len;
	}
}

/* SARIF results get properties.configurations and properties.not_in. */
static int label_sarif(const json_t *doc, const char *text, FILE *out)
{
	json_error_t jerr;
	json_t *log = json_loads(text, 0, &jerr);
	if (!log)
		return err_set(GA_ETOOL, "SARIF output did not read back: %s", jerr.text);
	size_t i, k;
	json_t *run, *res;
	json_array_foreach(json_object_get(log, "runs"), i, run) {
		json_t *props = json_object_get(run, "properties");
		if (!json_is_object(props)) {
			props = json_object();
			json_object_set_new(run, "properties", props);
		}
		json_object_set(props, "configurations", json_object_get(doc, "configurations"));
		json_array_foreach(json_object_get(run, "results"), k, res) {
			const json_t *pl = json_object_get(json_array_get(json_object_get(res, "locations"), 0),
							   "physicalLocation");
			const char *uri = json_string_value(json_object_get(json_object_get(pl, "artifactLocation"), "uri"));
			const json_t *reg = json_object_get(pl, "region");
			const char *rule = json_string_value(json_object_get(res, "ruleId"));
			if (!uri || !rule)
				continue;
			long ln = (long)json_integer_value(json_object_get(reg, "startLine"));
			long col = (long)json_integer_value(json_object_get(reg, "startColumn"));
			const char *file = !strncmp(uri, "file://", 7) ? uri + 7 : uri;
			const json_t *f = report_configs_find(doc, file, ln, col, rule);
			if (!f)
				continue;
			json_t *rp = json_object_get(res, "properties");
			if (!json_is_object(rp)) {
				rp = json_object();
				json_object_set_new(res, "properties", rp);
			}
			json_object_set(rp, "configurations", json_object_get(f, "configurations"));
			json_object_set(rp, "not_in", json_object_get(f, "not_in"));
		}
	}
	int rc = json_dumpf(log, out, JSON_INDENT(2)) || fputc('\n', out) == EOF
		 ? err_set(GA_EIO, "cannot write the output") : 0;
	json_decref(log);
	return rc;
}

static int merge_configs(int n, char **args, const char *format, const char *tree, int sev, const char *severity,
			 int quiet)
{
	const char **names = xcalloc((size_t)n, sizeof(*names)), **paths = xcalloc((size_t)n, sizeof(*paths));
	char **own = xcalloc((size_t)n, sizeof(*own));
	for (int i = 0; i < n; i++) {
		char *eq = strchr(args[i], '=');
		if (eq && eq != args[i]) {
			own[i] = xstrndup(args[i], (size_t)(eq - args[i]));
			paths[i] = eq + 1;
		} else {
			const char *b = strrchr(args[i], '/') ? strrchr(args[i], '/') + 1 : args[i];
			size_t bl = strlen(b);
			own[i] = bl > 5 && !strcmp(b + bl - 5, ".json") ? xstrndup(b, bl - 5) : xstrdup(b);
			paths[i] = args[i];
		}
		names[i] = own[i];
	}
	json_t *doc = NULL;
	int ret = EXIT_CLEAN;
	struct report rep;
	report_init(&rep);
	rep.tree = tree;
	if (report_configs_merge(names, paths, (size_t)n, &doc) ||
	    report_merge_json_object(&rep, "the merged configurations", doc)) {
		fprintf(stderr, "gfpaudit merge: %s\n", err_last());
		ret = EXIT_USAGE;
		goto out;
	}
	report_merge_finish(&rep);
	int wrc = 0;
	if (!strcmp(format, "json")) {
		wrc = json_dumpf(doc, stdout, JSON_INDENT(2)) || fputc('\n', stdout) == EOF;
	} else {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (!m) {
			fprintf(stderr, "gfpaudit merge: out of memory\n");
			ret = EXIT_TOOL;
			goto out;
		}
		if (!strcmp(format, "sarif"))
			report_sarif(&rep, m);
		else
			report_text(&rep, m);
		fclose(m);
		if (!strcmp(format, "sarif")) {
			if (label_sarif(doc, buf, stdout)) {
				fprintf(stderr, "gfpaudit merge: %s\n", err_last());
				wrc = 1;
			}
		} else {
			label_text(doc, buf, stdout);
		}
		free(buf);
	}
	if (wrc || fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "gfpaudit merge: cannot write the output\n");
		ret = EXIT_TOOL;
		goto out;
	}
	size_t a, s, f, nf = report_findings_at_least(&rep, (enum severity)sev);
	report_counts(&rep, &a, &s, &f);
	if (!quiet)
		fprintf(stderr, "gfpaudit: merged %d configurations: %zu findings at or above %s\n", n, nf, severity);
	ret = nf ? EXIT_FINDINGS : (s || f) ? EXIT_TOOL : EXIT_CLEAN;
out:
	report_release(&rep);
	json_decref(doc);
	for (int i = 0; i < n; i++)
		free(own[i]);
	free(own);
	free(names);
	free(paths);
	return ret;
}

int cmd_merge(int argc, char **argv)
{
	const char *format = "json", *tree = NULL, *severity = "warning", *color = "auto";
	int quiet = 0, configs = 0;
	const struct cli_option opts[] = {
		CLI_CHOICE(0, "format", &format, "FMT", "json|sarif|text", "json (default), sarif or text"),
		CLI_STRING(0, "tree", &tree, "KDIR", "the tree the runs audited (SARIF: originalUriBaseIds)"),
		CLI_CALLBACK(0, "severity", &severity, "LEVEL", cli_opt_severity,
			"exit 1 only for findings at or above note|warning|error\n"
			"(default warning)"),
		CLI_SET('q', "quiet", &quiet, 1, "no summary on stderr"),
		CLI_CALLBACK(0, "color", &color, "WHEN", cli_opt_color,
			"colour the text format: auto (default: on a terminal,\n"
			"unless NO_COLOR is set or TERM=dumb), always, never"),
		CLI_SET(0, "configs", &configs, 1,
			"the runs audited the same source on different\n"
			"configurations (arches, page sizes, .configs): each\n"
			"input is NAME=RUN.json (NAME defaults to the file's\n"
			"name without .json); each finding lists the\n"
			"configurations where it holds and, for the others,\n"
			"why not (the order their site has there, from runs\n"
			"with --sites)"),
		CLI_HELP(),
		CLI_END(),
	};
	int rc, first = cli_parse_options("merge", opts, argc, argv, usage, &rc);
	if (first < 0)
		return rc;
	int sev = severity_lookup(severity);
	if (first >= argc) {
		fprintf(stderr, "gfpaudit merge: no input given\n");
		usage(stderr, opts);
		return EXIT_USAGE;
	}
	if (configs)
		return merge_configs(argc - first, argv + first, format, tree, sev, severity, quiet);
	struct report rep;
	report_init(&rep);
	rep.tree = tree;
	for (int i = first; i < argc; i++)
		if (report_merge_json(&rep, argv[i])) {
			fprintf(stderr, "gfpaudit merge: %s\n", err_last());
			report_release(&rep);
			return EXIT_USAGE;
		}
	report_merge_finish(&rep);
	if (!strcmp(format, "json"))
		report_json(&rep, stdout);
	else if (!strcmp(format, "sarif"))
		report_sarif(&rep, stdout);
	else {
		struct diag_style ds;
		diag_style_init(&ds, color, stdout, tree); /* the names are relative to --tree */
		rep.style = &ds;
		report_text(&rep, stdout);
		rep.style = NULL;
		diag_style_release(&ds);
	}
	size_t a, s, f, nf = report_findings_at_least(&rep, (enum severity)sev);
	report_counts(&rep, &a, &s, &f);
	if (!quiet)
		fprintf(stderr, "gfpaudit: merged %d runs: %zu files analyzed, %zu skipped, %zu failed; "
			"%zu findings at or above %s\n", argc - first, a, s, f, nf, severity);
	report_release(&rep);
	return nf ? EXIT_FINDINGS : (s || f) ? EXIT_TOOL : EXIT_CLEAN;
}
