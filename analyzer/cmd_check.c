/* gfpaudit check: new findings in the staged changes, a commit or a range. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <jansson.h>
#include "cmd.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/diag.h"
#include "gfpaudit/report.h"
#include "gfpaudit/change.h"
#include "gfpaudit/engine.h"
#include "gfpaudit/vcs.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct check_args {
	struct cli_common c;
	const char *repo_dir, *spec, *color;
	int staged, warn_only, no_cache, no_pch, no_skip_bodies, jobs;
	struct isolate_limits iso;
};

static void usage(FILE *f, const struct cli_option *opts)
{
	fprintf(f,
"usage: gfpaudit check [--staged | REV | REV..REV] [options]\n"
"\n"
"Analyze the C files a change touches, before and after, and report the findings\n"
"the change introduces in the functions it touches.  The default, --staged, reads\n"
"what will be committed (the index, not the work tree); REV is one commit against\n"
"its parent; A..B the tree A against the tree B (A...B: from their merge base).\n"
"\n");
	cli_print_options(f, opts);
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

/* Parse the command line into *a: -1 to go on, else the exit code. */
static int check_parse(int argc, char **argv, struct check_args *a)
{
	const struct cli_option opts[] = {
		CLI_STRING(0, "repo", &a->repo_dir, "DIR",
			"the repository (default: the one containing the current directory)"),
		CLI_STRING(0, "tree", &a->c.tree, "KDIR",
			"parse with this prepared kernel tree's kbuild flags (default:\n"
			"'git config gfpaudit.tree', else the repository itself when it\n"
			"is a prepared tree, else the kernel-model headers)"),
		CLI_CALLBACK(0, "severity", &a->c.severity, "LEVEL", cli_opt_severity,
			"show (in text) and exit 1 for new findings at or above\n"
			"note|warning|error (default warning; notes are \"possible\" costly orders)"),
		CLI_SET(0, "warn-only", &a->warn_only, 1,
			"report, but always exit 0 (except for usage errors)"),
		CLI_CHOICE(0, "format", &a->c.format, "FMT", "text|json",
			"text (default, GCC style) or json: {\"new\": [...], \"fixed\": [...], ...}"),
		CLI_STRING(0, "enable", &a->c.enable, "RULE,..", "run only these rules"),
		CLI_STRING(0, "disable", &a->c.disable, "RULE,..", "do not run these rules"),
		CLI_INT('j', NULL, &a->jobs, "N", 1, 256,
			"with N > 1, parse the version before the change in parallel\n"
			"when it will likely be needed (default: 2 when a CPU is idle)"),
		CLI_SET(0, "no-cache", &a->no_cache, 1,
			"analyze every file (also: GFPAUDIT_NO_CACHE=1); the cache of\n"
			"--staged results is <git common dir>/gfpaudit-cache"),
		CLI_ISOLATE_OPTIONS(&a->iso),
		CLI_SET(0, "no-pch", &a->no_pch, 1,
			"with a tree, parse without the precompiled kernel headers\n"
			"(used when the change touches no header; built once per tree\n"
			"under ~/.cache/gfpaudit/pch, or $XDG_CACHE_HOME/gfpaudit/pch)"),
		CLI_SET(0, "no-skip-bodies", &a->no_skip_bodies, 1,
			"parse every function body of a changed file (default: the\n"
			"bodies the change cannot affect are blanked before the parse;\n"
			"-v parses them all)"),
		{ CLI_OPT_(CLI_OPT_SET, 0, "staged", &a->staged, NULL, "the staged changes (the default)"),
		  .set = 1, .alias = "cached" },
		CLI_CALLBACK(0, "color", &a->color, "WHEN", cli_opt_color,
			"colour the text output: auto (default: on a terminal, unless\n"
			"NO_COLOR is set or TERM is dumb), always, never"),
		CLI_COUNT('v', "verbose", &a->c.verbose,
			"also findings the change fixes, and new ones outside the\n"
			"changed functions (as notes)"),
		CLI_HELP(),
		CLI_END(),
	};
	int rc, i = cli_parse_options("check", opts, argc, argv, usage, &rc);
	if (i < 0)
		return rc;
	if (i < argc)
		a->spec = argv[i++];
	if (i < argc || (a->spec && a->staged)) {
		fprintf(stderr, "gfpaudit check: give one of --staged, REV or REV..REV\n");
		return EXIT_USAGE;
	}
	if (!a->jobs) {
		/* a second parse in parallel only pays when a CPU is idle for it;
		 * on a loaded machine it slows the first one down */
		double load;
		a->jobs = cli_default_jobs() > 1 && getloadavg(&load, 1) == 1 &&
			  load + 1.0 <= cli_default_jobs() ? 2 : 1;
	}
	return -1;
}

/* One run: what check_release() frees.  The steps return -1 to go on,
 * else the exit code. */
struct check_run {
	struct check_args *a;
	bool json;
	int tool_exit;
	struct vcs *v;
	struct vcs_diff d, u;
	struct change_set cs;
	struct change_opts co;
	struct engine *e;
	/* the engine keeps pointers to c.tree: these live until the end */
	char *tree, *cfg_tree, *workdir, *root, *cache;
};

static void check_release(struct check_run *r)
{
	change_set_release(&r->cs);
	vcs_diff_release(&r->d);
	vcs_diff_release(&r->u);
	engine_free(r->e);
	vcs_free(r->v);
	free(r->tree);
	free(r->cfg_tree);
	free(r->workdir);
	free(r->root);
	free(r->cache);
}

/* The repository and the change: the C files it touches, and for --staged
 * the headers the work tree changes against the index. */
static int check_read_change(struct check_run *r)
{
	const char *spec = r->a->spec, *repo_dir = r->a->repo_dir;
	int rc;
	/* the hook runs us bare: take the repository and index git hands over */
	if ((rc = vcs_open(repo_dir, repo_dir ? 0 : VCS_OPEN_ENV, &r->v))) {
		fprintf(stderr, "gfpaudit check: %s\n", err_last());
		return rc == GA_ENOTFOUND ? EXIT_USAGE : r->tool_exit;
	}
	if (!vcs_workdir(r->v)) {
		fprintf(stderr, "gfpaudit check: a bare repository has no work tree to take kbuild context from\n");
		return EXIT_USAGE;
	}
	r->workdir = xstrdup(vcs_workdir(r->v));
	static const char *const suffixes[] = { ".c", ".h", NULL };
	struct vcs_diff_opts dopts = { .suffixes = suffixes };
	if ((rc = vcs_diff(r->v, spec, &dopts, &r->d))) {
		fprintf(stderr, "gfpaudit check: %s\n", err_last());
		return rc == GA_EINVAL ? EXIT_USAGE : r->tool_exit;
	}
	if (!change_has_c_files(&r->d)) {
		if (r->a->c.verbose)
			fprintf(stderr, "gfpaudit: no C file changed (%s against %s)\n", r->d.new_desc, r->d.old_desc);
		if (r->json)
			print_json(&r->cs);
		return EXIT_CLEAN;
	}
	/* headers only: a parse reads other headers, never other .c files */
	static const char *const headers[] = { ".h", NULL };
	struct vcs_diff_opts hopts = { .suffixes = headers };
	if (!spec && (rc = vcs_diff_unstaged(r->v, &hopts, &r->u))) {
		fprintf(stderr, "gfpaudit check: %s\n", err_last());
		return r->tool_exit;
	}
	return -1;
}

/* kbuild context: --tree, gfpaudit.tree, the repository itself, kmodel */
static int check_find_tree(struct check_run *r)
{
	struct cli_common *c = &r->a->c;
	if (!c->tree && vcs_config_path(r->v, "gfpaudit.tree", &r->cfg_tree) == 0)
		c->tree = r->cfg_tree;
	r->root = strip_slash(r->workdir);
	if (!c->tree && is_prepared_tree(r->root))
		c->tree = r->root;
	if (!c->tree)
		fprintf(stderr, "gfpaudit: %s is not a prepared kernel tree (no include/generated/autoconf.h): "
			"parsing against the kernel-model headers; use --tree KDIR or "
			"'git config gfpaudit.tree KDIR'\n", r->root);
	if (c->tree) {
		char real[PATH_MAX], realroot[PATH_MAX];
		if (!realpath(c->tree, real)) {
			fprintf(stderr, "gfpaudit check: --tree %s: no such directory\n", c->tree);
			return EXIT_USAGE;
		}
		/* a tree that is not the repository: files are analyzed in its layout */
		if (!realpath(r->root, realroot) || strcmp(real, realroot))
			r->tree = xstrdup(real);
	}
	return -1;
}

/* The engine, and the change analyzed before and after into r->cs. */
static int check_analyze(struct check_run *r)
{
	struct check_args *a = r->a;
	struct engine_opts eo;
	int rc;
	a->c.config_from = r->root;
	if (cli_engine_opts(&a->c, &eo)) {
		fprintf(stderr, "gfpaudit check: %s\n", err_last());
		return EXIT_USAGE;
	}
	/* The precompiled kernel headers are built from the tree's headers on
	 * disk: only when the change (and, for --staged, the work tree against
	 * the index) leaves every header alone do they hold what is analyzed. */
	if (a->c.tree && !a->no_pch && !change_touches_header(&r->d) && !change_touches_header(&r->u)) {
		eo.pch = true;
		eo.pch_optional = true;
	}
	eo.defer_prepare = true; /* a cached answer needs no Makefile and no PCH */
	if ((rc = engine_new(&eo, &r->e))) {
		fprintf(stderr, "gfpaudit check: %s\n", err_last());
		return rc == GA_ETREE || rc == GA_EINVAL ? EXIT_USAGE : r->tool_exit;
	}
	/* Cached results pay off when a blocked commit is retried (the HEAD
	 * side is the same) and when 'check' ran before 'git commit'.  Only for
	 * --staged: its headers are HEAD's plus the staged ones, which the key
	 * covers; a REV's headers are the work tree's, which it does not. */
	const char *nc = getenv("GFPAUDIT_NO_CACHE");
	if (!a->spec && !a->no_cache && !(nc && *nc && strcmp(nc, "0"))) {
		const char *cd = vcs_commondir(r->v);
		r->cache = xasprintf("%s%sgfpaudit-cache", cd, cd[strlen(cd) - 1] == '/' ? "" : "/");
	}
	r->co = (struct change_opts){ .workdir = r->workdir, .tree = r->tree,
				      .want_old = r->json || a->c.verbose, .cache_dir = r->cache,
				      .vcs = r->v, .jobs = a->jobs, .limits = a->iso,
				      /* -v lists findings outside the changed functions: all bodies */
				      .skip_bodies = !a->no_skip_bodies && !a->c.verbose };
	if ((rc = change_run(r->e, &r->d, a->spec ? NULL : &r->u, &r->co, &r->cs))) {
		fprintf(stderr, "gfpaudit check: %s\n", err_last());
		return r->tool_exit;
	}
	if (r->cache)
		change_cache_prune(r->cache, 256);
	return -1;
}

/* Print what the change does, say why it blocks, return the exit code. */
static int check_report(struct check_run *r)
{
	const struct check_args *a = r->a;
	const struct change_set *cs = &r->cs;
	const struct change_opts *co = &r->co;
	int sev = severity_lookup(a->c.severity), exit_code = EXIT_CLEAN;
	if (r->json) {
		print_json(cs);
	} else {
		struct diag_style ds;
		diag_style_init(&ds, a->color, stdout, r->root); /* paths are relative to the repository's top */
		print_text(cs, a->c.verbose, sev, &ds);
		diag_style_release(&ds);
	}
	for (size_t i = 0; i < cs->nproblems; i++) {
		char *file = xprintable(cs->problems[i].file), *why = xprintable(cs->problems[i].reason);
		fprintf(stderr, "gfpaudit: %s: %s: %s\n", file, cs->problems[i].failed ? "failed" : "warning", why);
		free(file);
		free(why);
	}
	size_t blocking = 0;
	for (size_t i = 0; i < cs->nnew; i++)
		if ((int)cs->new_[i].severity >= sev)
			blocking++;
	if (a->c.verbose)
		fprintf(stderr, "gfpaudit: %s against %s: %zu C files checked (%zu analyzed, %zu skipped, "
			"%zu failed); %zu new, %zu fixed, %zu outside the changed functions, %zu unchanged\n",
			r->d.new_desc, r->d.old_desc, cs->analyzed + cs->skipped + cs->failed, cs->analyzed,
			cs->skipped, cs->failed, cs->nnew, cs->nfixed, cs->nindirect, cs->nold);
	if (a->c.verbose && r->cache)
		fprintf(stderr, "gfpaudit: cache %s: %zu reused, %zu analyzed\n", r->cache, co->cache_hits,
			co->cache_misses);
	if (a->c.verbose && (co->spec_used || co->spec_wasted))
		fprintf(stderr, "gfpaudit: old versions parsed in parallel: %zu used, %zu not needed\n",
			co->spec_used, co->spec_wasted);
	if (blocking) {
		exit_code = a->warn_only ? EXIT_CLEAN : EXIT_FINDINGS;
		if (a->spec)
			fprintf(stderr, "gfpaudit: %zu new finding%s at or above %s in %s..%s\n", blocking,
				blocking == 1 ? "" : "s", a->c.severity, r->d.old_desc, r->d.new_desc);
		else
			fprintf(stderr, "gfpaudit: %zu new finding%s at or above %s in the staged changes%s\n",
				blocking, blocking == 1 ? "" : "s", a->c.severity,
				a->warn_only ? "" : "; to commit anyway: git commit --no-verify");
	} else if (cs->failed) {
		exit_code = r->tool_exit;
		if (!a->spec && !a->warn_only)
			fprintf(stderr, "gfpaudit: could not check every staged C file; "
				"to commit anyway: git commit --no-verify\n");
	}
	return exit_code;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a = { .c = { .format = "text", .severity = "warning" }, .color = "auto",
				.iso = { ISOLATE_TIMEOUT_SEC, ISOLATE_MEM_LIMIT_MB } };
	int rc = check_parse(argc, argv, &a);
	if (rc >= 0)
		return rc;
	/* under --warn-only nothing but a usage error may stop a commit */
	struct check_run r = { .a = &a, .json = !strcmp(a.c.format, "json"),
			       .tool_exit = a.warn_only ? EXIT_CLEAN : EXIT_TOOL };
	vcs_diff_init(&r.d);
	vcs_diff_init(&r.u);
	change_set_init(&r.cs);
	if ((rc = check_read_change(&r)) < 0 && (rc = check_find_tree(&r)) < 0 &&
	    (rc = check_analyze(&r)) < 0)
		rc = check_report(&r);
	check_release(&r);
	return rc;
}
