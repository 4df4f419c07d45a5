/* gfpaudit check: new findings in the staged changes, a commit or a range. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <jansson.h>
#include "gfpaudit/cmd.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/diag.h"
#include "gfpaudit/report.h"
#include "gfpaudit/change.h"
#include "gfpaudit/engine.h"
#include "gfpaudit/vcs.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: gfpaudit check [--staged | REV | REV..REV] [options]\n"
"\n"
"Analyze the C files a change touches, before and after, and report the findings\n"
"the change introduces in the functions it touches.  The default, --staged, reads\n"
"what will be committed (the index, not the work tree); REV is one commit against\n"
"its parent; A..B the tree A against the tree B (A...B: from their merge base).\n"
"\n"
"  --repo DIR           the repository (default: the one containing the current directory)\n"
"  --tree KDIR          parse with this prepared kernel tree's kbuild flags (default:\n"
"                       'git config gfpaudit.tree', else the repository itself when it\n"
"                       is a prepared tree, else the kernel-model headers)\n"
"  --severity LEVEL     show (in text) and exit 1 for new findings at or above\n"
"                       note|warning|error (default warning; notes are \"possible\" costly orders)\n"
"  --warn-only          report, but always exit 0 (except for usage errors)\n"
"  --format FMT         text (default, GCC style) or json: {\"new\": [...], \"fixed\": [...], ...}\n"
"  --enable RULE,..     run only these rules;  --disable RULE,..  do not run these\n"
"  -j N                 with N > 1, parse the version before the change in parallel\n"
"                       when it will likely be needed (default: 2 when a CPU is idle)\n"
"  --no-cache           analyze every file (also: GFPAUDIT_NO_CACHE=1); the cache of\n"
"                       --staged results is <git common dir>/gfpaudit-cache\n"
"  --timeout SEC        give up on one file after SEC seconds (default 300); each\n"
"                       file is analyzed in a child process, so a file that crashes,\n"
"                       hangs or exhausts the analyzer fails alone (exit 3)\n"
"  --memory-limit MIB   address-space limit of that child (default 4096)\n"
"  --no-pch             with a tree, parse without the precompiled kernel headers\n"
"                       (used when the change touches no header; built once per tree\n"
"                       under ~/.cache/gfpaudit/pch, or $XDG_CACHE_HOME/gfpaudit/pch)\n"
"  --staged, --cached   the staged changes (the default)\n"
"  --color WHEN         colour the text output: auto (default: on a terminal, unless\n"
"                       NO_COLOR is set or TERM is dumb), always, never\n"
"  -v, --verbose        also findings the change fixes, and new ones outside the\n"
"                       changed functions (as notes)\n"
"  -h, --help           this text\n");
	cli_print_setup(f, "GFPAUDIT_NO_CACHE=1 (as --no-cache), GIT_DIR, GIT_WORK_TREE,\nGIT_INDEX_FILE (as git reads them in a hook), NO_COLOR, TERM (--color=auto)");
	fprintf(f, "\n"
"exit: 0 nothing new at or above the threshold, 1 new findings, 2 usage,\n"
"3 tool failure (a changed file could not be analyzed)\n");
}

static bool is_prepared_tree(const char *dir)
{
	struct stat st;
	char *p = xasprintf("%s/include/generated/autoconf.h", dir);
	bool ok = stat(p, &st) == 0;
	free(p);
	return ok;
}

static bool change_touches_header(const struct vcs_diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const char *p[] = { d->changes[i].old_path, d->changes[i].new_path };
		for (size_t k = 0; k < 2; k++) {
			size_t n = p[k] ? strlen(p[k]) : 0;
			if (n > 2 && !strcmp(p[k] + n - 2, ".h"))
				return true;
		}
	}
	return false;
}

static char *strip_slash(const char *s)
{
	char *d = xstrdup(s);
	size_t n = strlen(d);
	while (n > 1 && d[n - 1] == '/')
		d[--n] = 0;
	return d;
}

static void print_noted(const struct diag_style *st, const struct finding *f, const char *what)
{
	char *m = xasprintf("%s: %s", what, f->message);
	diag_print(stdout, st, f->site.file, f->site.line, f->site.col, "note", m, f->rule);
	free(m);
}

static void print_text(const struct change_set *cs, int verbose, int min_sev, const struct diag_style *st)
{
	for (size_t i = 0; i < cs->nnew; i++) {
		const struct finding *f = &cs->new_[i];
		if ((int)f->severity < min_sev)
			continue; /* a "possible" costly order: --severity note shows it */
		report_print_finding(stdout, st, f);
	}
	if (!verbose)
		return;
	for (size_t i = 0; i < cs->nindirect; i++)
		print_noted(st, &cs->indirect[i], "new outside the changed functions");
	for (size_t i = 0; i < cs->nfixed; i++)
		print_noted(st, &cs->fixed[i], "fixed by this change");
}

static json_t *findings_json(const struct finding *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, finding_to_json(&v[i]));
	return a;
}

static int print_json(const struct change_set *cs)
{
	json_t *root = json_object(), *probs = json_array();
	json_object_set_new(root, "new", findings_json(cs->new_, cs->nnew));
	json_object_set_new(root, "fixed", findings_json(cs->fixed, cs->nfixed));
	json_object_set_new(root, "indirect", findings_json(cs->indirect, cs->nindirect));
	for (size_t i = 0; i < cs->nproblems; i++)
		json_array_append_new(probs, json_pack("{s:s,s:s,s:s}", "file", cs->problems[i].file,
			"status", cs->problems[i].failed ? "failed" : "warning", "reason", cs->problems[i].reason));
	json_object_set_new(root, "problems", probs);
	json_object_set_new(root, "files", json_pack("{s:I,s:I,s:I}", "analyzed", (json_int_t)cs->analyzed,
		"skipped", (json_int_t)cs->skipped, "failed", (json_int_t)cs->failed));
	int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(root);
	return rc;
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "staged", no_argument, NULL, 's' },
		{ "cached", no_argument, NULL, 's' },
		{ "repo", required_argument, NULL, 'r' },
		{ "tree", required_argument, NULL, 't' },
		{ "severity", required_argument, NULL, 'S' },
		{ "warn-only", no_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "enable", required_argument, NULL, 'E' },
		{ "disable", required_argument, NULL, 'D' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "no-pch", no_argument, NULL, 'P' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "memory-limit", required_argument, NULL, 'm' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "color", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_common c = { .format = "text", .severity = "warning" };
	const char *repo_dir = NULL, *spec = NULL;
	int staged = 0, warn_only = 0, no_cache = 0, no_pch = 0, jobs = 0, opt;
	const char *color = "auto";
	struct isolate_limits iso = { ISOLATE_TIMEOUT_SEC, ISOLATE_MEM_LIMIT_MB };
	optind = 1;
	while ((opt = getopt_long(argc, argv, "j:vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 's': staged = 1; break;
		case 'r': repo_dir = optarg; break;
		case 't': c.tree = optarg; break;
		case 'S': c.severity = optarg; break;
		case 'w': warn_only = 1; break;
		case 'f': c.format = optarg; break;
		case 'E': c.enable = optarg; break;
		case 'D': c.disable = optarg; break;
		case 'N': no_cache = 1; break;
		case 'P': no_pch = 1; break;
		case 'j':
			if (cli_parse_int("check", "-j", optarg, 1, 256, &jobs)) {
				fprintf(stderr, "%s\n", err_last());
				return EXIT_USAGE;
			}
			break;
		case 'T':
		case 'm':
			if (cli_parse_limit("check", opt == 'T', optarg, &iso)) {
				fprintf(stderr, "%s\n", err_last());
				return EXIT_USAGE;
			}
			break;
		case 'v': c.verbose++; break;
		case 'c':
			if (!cli_color_mode_ok(optarg)) {
				fprintf(stderr, "gfpaudit check: --color takes auto, always or never, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			color = optarg;
			break;
		case 'h': usage(stdout); return EXIT_CLEAN;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind < argc)
		spec = argv[optind++];
	if (optind < argc || (spec && staged)) {
		fprintf(stderr, "gfpaudit check: give one of --staged, REV or REV..REV\n");
		return EXIT_USAGE;
	}
	if (strcmp(c.format, "text") && strcmp(c.format, "json")) {
		fprintf(stderr, "gfpaudit check: unknown format '%s' (text, json)\n", c.format);
		return EXIT_USAGE;
	}
	int sev = severity_lookup(c.severity);
	if (sev < 0) {
		fprintf(stderr, "gfpaudit check: unknown severity '%s' (note, warning, error)\n", c.severity);
		return EXIT_USAGE;
	}
	if (!jobs) {
		/* a second parse in parallel only pays when a CPU is idle for it;
		 * on a loaded machine it slows the first one down */
		double load;
		jobs = cli_default_jobs() > 1 && getloadavg(&load, 1) == 1 &&
		       load + 1.0 <= cli_default_jobs() ? 2 : 1;
	}
	bool json = !strcmp(c.format, "json");
	/* under --warn-only nothing but a usage error may stop a commit */
	int tool_exit = warn_only ? EXIT_CLEAN : EXIT_TOOL;

	struct vcs *v = NULL;
	struct vcs_diff d, u;
	struct change_set cs;
	struct engine *e = NULL;
	char *tree = NULL, *cfg_tree = NULL, *workdir = NULL, *root = NULL, *cache = NULL;
	int exit_code = EXIT_CLEAN, rc;
	vcs_diff_init(&d);
	vcs_diff_init(&u);
	change_set_init(&cs);

	/* the hook runs us bare: take the repository and index git hands over */
	if ((rc = vcs_open(repo_dir, repo_dir ? 0 : VCS_OPEN_ENV, &v))) {
		fprintf(stderr, "gfpaudit check: %s\n", err_last());
		return rc == GA_ENOTFOUND ? EXIT_USAGE : tool_exit;
	}
	if (!vcs_workdir(v)) {
		fprintf(stderr, "gfpaudit check: a bare repository has no work tree to take kbuild context from\n");
		exit_code = EXIT_USAGE;
		goto out;
	}
	workdir = xstrdup(vcs_workdir(v));
	static const char *const suffixes[] = { ".c", ".h", NULL };
	struct vcs_diff_opts dopts = { .suffixes = suffixes };
	if ((rc = vcs_diff(v, spec, &dopts, &d))) {
		fprintf(stderr, "gfpaudit check: %s\n", err_last());
		exit_code = rc == GA_EINVAL ? EXIT_USAGE : tool_exit;
		goto out;
	}
	if (!change_has_c_files(&d)) {
		if (c.verbose)
			fprintf(stderr, "gfpaudit: no C file changed (%s against %s)\n", d.new_desc, d.old_desc);
		if (json)
			print_json(&cs);
		goto out;
	}
	/* headers only: a parse reads other headers, never other .c files */
	static const char *const headers[] = { ".h", NULL };
	struct vcs_diff_opts hopts = { .suffixes = headers };
	if (!spec && (rc = vcs_diff_unstaged(v, &hopts, &u))) {
		fprintf(stderr, "gfpaudit check: %s\n", err_last());
		exit_code = tool_exit;
		goto out;
	}

	/* kbuild context: --tree, gfpaudit.tree, the repository itself, kmodel */
	if (!c.tree && vcs_config_path(v, "gfpaudit.tree", &cfg_tree) == 0)
		c.tree = cfg_tree;
	/* the engine keeps pointers to these options: they live until the end */
	root = strip_slash(workdir);
	if (!c.tree && is_prepared_tree(root))
		c.tree = root;
	if (!c.tree)
		fprintf(stderr, "gfpaudit: %s is not a prepared kernel tree (no include/generated/autoconf.h): "
			"parsing against the kernel-model headers; use --tree KDIR or "
			"'git config gfpaudit.tree KDIR'\n", root);
	if (c.tree) {
		char real[PATH_MAX], realroot[PATH_MAX];
		if (!realpath(c.tree, real)) {
			fprintf(stderr, "gfpaudit check: --tree %s: no such directory\n", c.tree);
			exit_code = EXIT_USAGE;
			goto out;
		}
		/* a tree that is not the repository: files are analyzed in its layout */
		if (!realpath(root, realroot) || strcmp(real, realroot))
			tree = xstrdup(real);
	}
	struct engine_opts eo;
	c.config_from = root;
	if (cli_engine_opts(&c, &eo)) {
		fprintf(stderr, "gfpaudit check: %s\n", err_last());
		exit_code = EXIT_USAGE;
		goto out;
	}
	/* The precompiled kernel headers are built from the tree's headers on
	 * disk: only when the change (and, for --staged, the work tree against
	 * the index) leaves every header alone do they hold what is analyzed. */
	if (c.tree && !no_pch && !change_touches_header(&d) && !change_touches_header(&u)) {
		eo.pch = true;
		eo.pch_optional = true;
	}
	eo.defer_prepare = true; /* a cached answer needs no Makefile and no PCH */
	rc = engine_new(&eo, &e);
	if (rc) {
		fprintf(stderr, "gfpaudit check: %s\n", err_last());
		exit_code = rc == GA_ETREE || rc == GA_EINVAL ? EXIT_USAGE : tool_exit;
		goto out;
	}
	/* Cached results pay off when a blocked commit is retried (the HEAD
	 * side is the same) and when 'check' ran before 'git commit'.  Only for
	 * --staged: its headers are HEAD's plus the staged ones, which the key
	 * covers; a REV's headers are the work tree's, which it does not. */
	const char *nc = getenv("GFPAUDIT_NO_CACHE");
	if (!spec && !no_cache && !(nc && *nc && strcmp(nc, "0"))) {
		const char *cd = vcs_commondir(v);
		cache = xasprintf("%s%sgfpaudit-cache", cd, cd[strlen(cd) - 1] == '/' ? "" : "/");
	}
	struct change_opts co = { .workdir = workdir, .tree = tree, .want_old = json || c.verbose,
				  .cache_dir = cache, .vcs = v, .jobs = jobs,
				  .limits = iso };
	if ((rc = change_run(e, &d, spec ? NULL : &u, &co, &cs))) {
		fprintf(stderr, "gfpaudit check: %s\n", err_last());
		exit_code = tool_exit;
		goto out;
	}
	if (cache)
		change_cache_prune(cache, 256);

	if (json)
		print_json(&cs);
	else
	{
		struct diag_style ds;
		diag_style_init(&ds, color, stdout, root); /* paths are relative to the repository's top */
		print_text(&cs, c.verbose, sev, &ds);
		diag_style_release(&ds);
	}
	for (size_t i = 0; i < cs.nproblems; i++) {
		char *file = xprintable(cs.problems[i].file), *why = xprintable(cs.problems[i].reason);
		fprintf(stderr, "gfpaudit: %s: %s: %s\n", file, cs.problems[i].failed ? "failed" : "warning", why);
		free(file);
		free(why);
	}
	size_t blocking = 0;
	for (size_t i = 0; i < cs.nnew; i++)
		if ((int)cs.new_[i].severity >= sev)
			blocking++;
	if (c.verbose)
		fprintf(stderr, "gfpaudit: %s against %s: %zu C files checked (%zu analyzed, %zu skipped, "
			"%zu failed); %zu new, %zu fixed, %zu outside the changed functions, %zu unchanged\n",
			d.new_desc, d.old_desc, cs.analyzed + cs.skipped + cs.failed, cs.analyzed, cs.skipped,
			cs.failed, cs.nnew, cs.nfixed, cs.nindirect, cs.nold);
	if (c.verbose && cache)
		fprintf(stderr, "gfpaudit: cache %s: %zu reused, %zu analyzed\n", cache, co.cache_hits,
			co.cache_misses);
	if (c.verbose && (co.spec_used || co.spec_wasted))
		fprintf(stderr, "gfpaudit: old versions parsed in parallel: %zu used, %zu not needed\n",
			co.spec_used, co.spec_wasted);
	if (blocking) {
		exit_code = warn_only ? EXIT_CLEAN : EXIT_FINDINGS;
		if (spec)
			fprintf(stderr, "gfpaudit: %zu new finding%s at or above %s in %s..%s\n", blocking,
				blocking == 1 ? "" : "s", c.severity, d.old_desc, d.new_desc);
		else
			fprintf(stderr, "gfpaudit: %zu new finding%s at or above %s in the staged changes%s\n",
				blocking, blocking == 1 ? "" : "s", c.severity,
				warn_only ? "" : "; to commit anyway: git commit --no-verify");
	} else if (cs.failed) {
		exit_code = tool_exit;
		if (!spec && !warn_only)
			fprintf(stderr, "gfpaudit: could not check every staged C file; "
				"to commit anyway: git commit --no-verify\n");
	}
out:
	change_set_release(&cs);
	vcs_diff_release(&d);
	vcs_diff_release(&u);
	engine_free(e);
	vcs_free(v);
	free(tree);
	free(cfg_tree);
	free(workdir);
	free(root);
	free(cache);
	return exit_code;
}
