/* gfpaudit merge: join the JSON outputs of several runs (shards) into one. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/cmd.h"
#include "gfpaudit/report.h"
#include "gfpaudit/err.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: gfpaudit merge [options] RUN.json...\n"
"\n"
"Join the JSON outputs of 'gfpaudit audit --format json' runs, typically the\n"
"shards of one audit ('audit --shard K/N'), into one report: findings, sites,\n"
"problems and resolved findings together, files in tree order, counts added.\n"
"\n"
"  --format FMT         json (default), sarif or text\n"
"  --tree KDIR          the tree the runs audited (SARIF: originalUriBaseIds)\n"
"  --severity LEVEL     exit 1 only for findings at or above note|warning|error\n"
"                       (default warning)\n"
"  -q, --quiet          no summary on stderr\n"
"\n"
"exit: 0 clean, 1 findings at or above the threshold, 2 usage or unreadable\n"
"input, 3 files that failed or were skipped and nothing else was found\n");
}

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "tree", required_argument, NULL, 't' },
		{ "severity", required_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = "json", *tree = NULL, *severity = "warning";
	int quiet = 0, opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f': format = optarg; break;
		case 't': tree = optarg; break;
		case 'S': severity = optarg; break;
		case 'q': quiet = 1; break;
		case 'h': usage(stdout); return EXIT_CLEAN;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (strcmp(format, "json") && strcmp(format, "sarif") && strcmp(format, "text")) {
		fprintf(stderr, "gfpaudit merge: unknown format '%s' (json, sarif, text)\n", format);
		return EXIT_USAGE;
	}
	int sev = severity_lookup(severity);
	if (sev < 0) {
		fprintf(stderr, "gfpaudit merge: unknown severity '%s' (note, warning, error)\n", severity);
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "gfpaudit merge: no input given\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	struct report rep;
	report_init(&rep);
	rep.tree = tree;
	for (int i = optind; i < argc; i++)
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
	else
		report_text(&rep, stdout);
	size_t a, s, f, nf = report_findings_at_least(&rep, (enum severity)sev);
	report_counts(&rep, &a, &s, &f);
	if (!quiet)
		fprintf(stderr, "gfpaudit: merged %d runs: %zu files analyzed, %zu skipped, %zu failed; "
			"%zu findings at or above %s\n", argc - optind, a, s, f, nf, severity);
	report_release(&rep);
	return nf ? EXIT_FINDINGS : (s || f) ? EXIT_TOOL : EXIT_CLEAN;
}
