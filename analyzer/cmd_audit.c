/* gfpaudit audit: analyze files, directories or whole trees. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/cmd.h"
#include "gfpaudit/cocci.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/engine.h"
#include "gfpaudit/pool.h"
#include "gfpaudit/report.h"
#include "gfpaudit/scan.h"
#include "gfpaudit/check.h"
#include "gfpaudit/err.h"
#include "gfpaudit/fix.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: gfpaudit audit [options] PATH...\n"
"\n"
"Analyze C files (directories: every .c file below them) and report page-allocator\n"
"calls that can request orders above PAGE_ALLOC_COSTLY_ORDER without __GFP_NORETRY\n"
"or without a fallback.  Findings go to stdout, progress and errors to stderr.\n"
"\n"
"  --tree KDIR          parse with the kbuild flags of this prepared kernel tree\n"
"                       (paths are reported relative to it)\n"
"  -p FILE              take flags from compile_commands.json\n"
"  --format FMT         text (default, GCC style) or json\n"
"  --sites              also list every allocation site with its facts\n"
"  --fix DIR            propose verified candidate fixes and write one\n"
"                       format-patch mail per fix into DIR\n"
"  -j N                 worker processes (default: number of CPUs)\n"
"  --timeout SEC        give up on one file after SEC seconds (default 300)\n"
"  --enable RULE,..     run only these rules (with --disable: add them back)\n"
"  --disable RULE,..    do not run these rules\n"
"  --severity LEVEL     exit 1 only for findings at or above note|warning|error\n"
"                       (default warning)\n"
"  --cocci              also run the Coccinelle rules (rules/*.cocci) with spatch and\n"
"                       merge their findings (source \"cocci\"; same file, line and\n"
"                       rule as a libclang finding: reported once)\n"
"  --cocci-rules DIR    the .cocci rules to run (default: rules/ next to the binary)\n"
"  --allocators FILE    extra allocator table (format: analyzer/data/allocators.tbl);\n"
"                       also $GFPAUDIT_ALLOCATORS, colon-separated\n"
"  -q, --quiet          no progress line\n"
"  -v, --verbose        evidence notes under each finding; parse errors per file\n"
"\n"
"Without --tree or -p, files parse against the kernel-model headers in include/kmodel/.\n"
"\n"
"rules:\n");
	cli_print_rules(f);
	fprintf(f, "\nexit: 0 clean, 1 findings at or above the threshold, 2 usage or unprepared tree,\n"
		"3 tool failure (including files that failed to analyze when nothing else was found)\n");
}

static char *cocci_path(void *data, const char *path)
{
	return engine_report_path(data, path);
}

struct audit_state {
	struct report rep;
	int quiet, verbose;
	size_t with_errors;
};

static void on_done(void *data, size_t index, struct file_result *r)
{
	struct audit_state *st = data;
	(void)index;
	if (r->status != FILE_ANALYZED)
		fprintf(stderr, "gfpaudit: %s: %s: %s\n", r->file,
			r->status == FILE_SKIPPED ? "skipped" : "failed", r->reason ? r->reason : "");
	else if (r->parse_errors && st->verbose)
		fprintf(stderr, "gfpaudit: %s: %s\n", r->file, r->reason ? r->reason : "parse errors");
	if (r->parse_errors)
		st->with_errors++;
	report_add(&st->rep, r);
}

int cmd_audit(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "sites", no_argument, NULL, 's' },
		{ "fix", required_argument, NULL, 'F' },
		{ "enable", required_argument, NULL, 'E' },
		{ "disable", required_argument, NULL, 'D' },
		{ "severity", required_argument, NULL, 'S' },
		{ "allocators", required_argument, NULL, 'A' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "cocci", no_argument, NULL, 'C' },
		{ "cocci-rules", required_argument, NULL, 'R' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_common c = { .format = "text", .severity = "warning" };
	int jobs = cli_default_jobs(), sites = 0, timeout = 300, cocci = 0, opt;
	const char *fix_dir = NULL, *cocci_rules = NULL;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "p:j:qvh", longopts, NULL)) != -1) {
		switch (opt) {
		case 't': c.tree = optarg; break;
		case 'p': c.compdb = optarg; break;
		case 'f': c.format = optarg; break;
		case 's': sites = 1; break;
		case 'F': fix_dir = optarg; break;
		case 'E': c.enable = optarg; break;
		case 'D': c.disable = optarg; break;
		case 'S': c.severity = optarg; break;
		case 'A':
			if (c.nallocators < 14)
				c.allocators[c.nallocators++] = optarg;
			break;
		case 'T': timeout = atoi(optarg); break;
		case 'C': cocci = 1; break;
		case 'R': cocci = 1; cocci_rules = optarg; break;
		case 'j':
			jobs = atoi(optarg);
			if (jobs < 1 || jobs > 256) {
				fprintf(stderr, "gfpaudit audit: -j takes a number from 1 to 256\n");
				return EXIT_USAGE;
			}
			break;
		case 'q': c.quiet = 1; break;
		case 'v': c.verbose++; break;
		case 'h': usage(stdout); return EXIT_CLEAN;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (strcmp(c.format, "text") && strcmp(c.format, "json")) {
		fprintf(stderr, "gfpaudit audit: unknown format '%s' (text, json)\n", c.format);
		return EXIT_USAGE;
	}
	int sev = severity_lookup(c.severity);
	if (sev < 0) {
		fprintf(stderr, "gfpaudit audit: unknown severity '%s' (note, warning, error)\n", c.severity);
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "gfpaudit audit: no PATH given\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (c.tree && c.compdb) {
		fprintf(stderr, "gfpaudit audit: --tree and -p exclude each other\n");
		return EXIT_USAGE;
	}
	struct engine_opts eo;
	if (cli_engine_opts(&c, &eo)) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		return EXIT_USAGE;
	}
	eo.fixes = fix_dir != NULL;
	struct engine *e = NULL;
	int rc = engine_new(&eo, &e);
	if (rc) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		return rc == GA_ETREE || rc == GA_EINVAL ? EXIT_USAGE : EXIT_TOOL;
	}

	struct file_list fl;
	file_list_init(&fl);
	for (int i = optind; i < argc; i++)
		file_list_add_path(&fl, argv[i]);
	for (size_t i = 0; i < fl.nproblems; i++)
		fprintf(stderr, "gfpaudit: %s\n", fl.problems[i]);

	struct audit_state st = { .quiet = c.quiet, .verbose = c.verbose };
	report_init(&st.rep);
	st.rep.with_sites = sites;
	st.rep.with_evidence = c.verbose > 0;
	st.rep.tree = c.tree;
	struct pool_opts po = { .jobs = jobs, .timeout_sec = timeout, .quiet = c.quiet,
				.done = on_done, .data = &st };
	rc = pool_run(e, fl.paths, fl.n, &po);
	int exit_code = EXIT_CLEAN;
	if (!rc && cocci) {
		struct cocci_opts co = { .rules_dir = cocci_rules, .jobs = jobs, .rules = eo.rules,
					 .report_path = cocci_path, .data = e, .verbose = c.verbose };
		if (cocci_run(&co, fl.paths, fl.n, &st.rep)) {
			fprintf(stderr, "gfpaudit audit: --cocci: %s\n", err_last());
			exit_code = EXIT_TOOL;
		}
	}
	if (rc) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		exit_code = EXIT_TOOL;
	} else {
		if (!strcmp(c.format, "json"))
			report_json(&st.rep, stdout);
		else
			report_text(&st.rep, stdout);
		if (fix_dir) {
			struct fix_mail_opts mo = { .tree = c.tree, .date = -1 };
			size_t nmail = 0;
			if (fix_mail_write_dir(fix_dir, &mo, st.rep.files, st.rep.n, &nmail)) {
				fprintf(stderr, "gfpaudit audit: %s\n", err_last());
				exit_code = EXIT_TOOL;
			} else if (!c.quiet || c.verbose) {
				fprintf(stderr, "gfpaudit: %zu fix mail%s written to %s\n", nmail,
					nmail == 1 ? "" : "s", fix_dir);
			}
		}
		size_t a, s, f;
		report_counts(&st.rep, &a, &s, &f);
		size_t nf = report_findings_at_least(&st.rep, (enum severity)sev);
		if (!c.quiet || c.verbose)
			fprintf(stderr, "gfpaudit: %zu files analyzed (%zu with parse errors%s), %zu skipped, %zu failed; "
				"%zu findings at or above %s\n", a, st.with_errors,
				st.with_errors && !c.verbose ? ", -v says which" : "", s + fl.nproblems, f, nf, c.severity);
		if (exit_code == EXIT_TOOL)
			;
		else if (nf)
			exit_code = EXIT_FINDINGS;
		else if (f || s || fl.nproblems || fl.n == 0)
			exit_code = EXIT_TOOL;
	}
	report_release(&st.rep);
	file_list_release(&fl);
	engine_free(e);
	return exit_code;
}
