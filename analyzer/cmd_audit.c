/* gfpaudit audit: analyze files, directories or whole trees. */
#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "gfpaudit/audit.h"
#include "gfpaudit/factpass.h"
#include "gfpaudit/factstate.h"
#include "gfpaudit/treefacts.h"
#include "gfpaudit/phase.h"
#include <limits.h>
#include "gfpaudit/cocci.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/config.h"
#include "gfpaudit/diag.h"
#include "gfpaudit/engine.h"
#include "gfpaudit/pool.h"
#include "gfpaudit/facts.h"
#include "gfpaudit/report.h"
#include "gfpaudit/scan.h"
#include "gfpaudit/check.h"
#include "gfpaudit/err.h"
#include "gfpaudit/fix.h"
#include "gfpaudit/store.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/triage.h"
#include "gfpaudit/baseline.h"
#include "gfpaudit/shard.h"

static void usage(FILE *f, const struct cli_option *opts)
{
	fprintf(f,
"usage: gfpaudit audit [options] PATH...\n"
"\n"
"Analyze C files (directories: every .c file below them) and report page-allocator\n"
"calls that can request orders above PAGE_ALLOC_COSTLY_ORDER without __GFP_NORETRY\n"
"or without a fallback.  Findings go to stdout, progress and errors to stderr.\n"
"\n");
	cli_print_options(f, opts);
	fprintf(f,
"\n"
"Without --tree or -p, files parse against the kernel-model headers in include/kmodel/.\n");
	cli_print_setup(f, "SPATCH (the spatch of --cocci), NO_COLOR, TERM (--color=auto),\nCI=true (--progress)");
	fprintf(f, "\nrules:\n");
	cli_print_rules(f);
	fprintf(f, "\nexit: 0 clean, 1 findings at or above the threshold, 2 usage or unprepared tree,\n"
		"3 tool failure (including files that failed to analyze, or were only partially analyzed\n"
		"because parse errors hide a function that allocates, when nothing else was found)\n");
}

static char *cocci_path(void *data, const char *path)
{
	return engine_report_path(data, path);
}

struct audit_state {
	struct report rep;
	int quiet, verbose;
	size_t with_errors;
	struct triage *tri;
	GHashTable *not_built; /* reported paths the configuration does not build */
	/* each file the cache cannot answer, before a worker takes it */
	void (*on_miss)(struct audit_state *st);
};

static struct file_result *on_lookup(void *data, size_t index, const char *path)
{
	struct audit_state *st = data;
	struct file_result *r = triage_lookup(st->tri, index, path);
	if (!r && st->on_miss)
		st->on_miss(st);
	return r;
}

static void on_store(void *data, size_t index, const char *path, const struct file_result *r)
{
	triage_store(((struct audit_state *)data)->tri, index, path, r);
}

static void on_idle(void *data)
{
	triage_idle(((struct audit_state *)data)->tri);
}

static void on_done(void *data, size_t index, struct file_result *r)
{
	struct audit_state *st = data;
	(void)index;
	/* file names and reasons (which quote the file's text) may hold
	 * escape sequences: not for the terminal */
	char *file = xprintable(r->file), *why = xprintable(r->reason);
	if (r->status != FILE_ANALYZED)
		fprintf(stderr, "gfpaudit: %s: %s: %s\n", file, r->status == FILE_SKIPPED ? "skipped" : "failed", why);
	else if (r->partial || (r->parse_errors && st->verbose))
		fprintf(stderr, "gfpaudit: %s: %s\n", file, r->reason ? why : "parse errors");
	free(file);
	free(why);
	if (r->parse_errors)
		st->with_errors++;
	if (st->not_built && g_hash_table_contains(st->not_built, r->file))
		r->not_in_config = true;
	report_add(&st->rep, r);
}

/* Add PATH's files to fl: a file named on the command line always (marked
 * in not_built when the configuration does not build it), a directory's
 * files when the configuration builds them (with --all-files also the
 * others, marked, except those of another architecture's arch/). */
static void select_files(struct engine *e, struct file_list *fl, const char *path, int all_files,
			 GHashTable *not_built, size_t *left_out, size_t *left_other_arch,
			 const struct config *cfg, size_t *left_skipped)
{
	struct stat st;
	bool dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	struct file_list one;
	file_list_init(&one);
	file_list_add_path(&one, path);
	for (size_t i = 0; i < one.nproblems; i++) {
		ALLOC_GROW(fl->problems, fl->nproblems + 1, fl->problems_alloc);
		fl->problems[fl->nproblems++] = xstrdup(one.problems[i]);
	}
	for (size_t i = 0; i < one.n; i++) {
		if (config_skips(cfg, one.paths[i])) {
			(*left_skipped)++;
			continue;
		}
		enum config_state cs = engine_config_state(e, one.paths[i]);
		if (dir && (cs == CONFIG_OTHER_ARCH || (cs == CONFIG_NOT_BUILT && !all_files))) {
			cs == CONFIG_OTHER_ARCH ? (*left_other_arch)++ : (*left_out)++;
			continue;
		}
		if (cs == CONFIG_NOT_BUILT || cs == CONFIG_OTHER_ARCH)
			g_hash_table_add(not_built, engine_report_path(e, one.paths[i]));
		ALLOC_GROW(fl->paths, fl->n + 1, fl->alloc);
		fl->paths[fl->n++] = xstrdup(one.paths[i]);
	}
	file_list_release(&one);
}

void audit_args_init(struct audit_args *a)
{
	memset(a, 0, sizeof(*a));
	a->c.format = "text";
	a->c.severity = "warning";
	a->jobs = cli_default_jobs();
	a->timeout = 300;
	a->mem_mb = POOL_MEM_LIMIT_MB;
	a->want_pch = 1;
	a->prefilter = 1;
	a->use_facts = 1;
	a->facts_passes = FACTPASS_DEFAULT_PASSES;
	a->progress = cli_progress_default();
}

int audit_opt_shard(const char *cmd, const struct cli_option *opt, const char *arg)
{
	struct audit_args *a = opt->value;
	if (shard_parse(arg, &a->shard_k, &a->shard_n)) {
		char *why = xstrdup(err_last());
		int rc = err_set(GA_EINVAL, "gfpaudit %s: %s", cmd, why);
		free(why);
		return rc;
	}
	return 0;
}

int cmd_audit(int argc, char **argv)
{
	struct audit_args a;
	audit_args_init(&a);
	struct cli_common *c = &a.c;
	const struct cli_option opts[] = {
		CLI_STRING(0, "tree", &c->tree, "KDIR",
			"parse with the kbuild flags of this prepared kernel tree\n"
			"(paths are reported relative to it)"),
		CLI_STRING('p', NULL, &c->compdb, "FILE", "take flags from compile_commands.json"),
		CLI_CHOICE(0, "format", &c->format, "FMT", "text|json|sarif",
			"text (default, GCC style), json or sarif (SARIF 2.1.0)"),
		CLI_SET(0, "sites", &a.sites, 1, "also list every allocation site with its facts"),
		CLI_SET(0, "fixes", &a.want_fixes, 1,
			"propose verified candidate fixes: in JSON, and as diffs\n"
			"under each finding in text"),
		CLI_STRING(0, "fix", &a.fix_dir, "DIR",
			"as --fixes, and write one format-patch mail per fix into DIR"),
		CLI_INT('j', NULL, &a.jobs, "N", 1, 256, "worker processes (default: number of CPUs)"),
		CLI_INT(0, "timeout", &a.timeout, "SEC", 1, CLI_TIMEOUT_MAX,
			"give up on one file after SEC seconds (default 300; also\n"
			"the worker's CPU limit for the file)"),
		CLI_INT(0, "memory-limit", &a.mem_mb, "MIB", 64, 1 << 24,
			"address-space limit of each worker, on top of what it\n"
			"inherits from the parent (default 4096)"),
		CLI_STRING(0, "enable", &c->enable, "RULE,..",
			"run only these rules (with --disable: add them back)"),
		CLI_STRING(0, "disable", &c->disable, "RULE,..", "do not run these rules"),
		CLI_CALLBACK(0, "severity", &c->severity, "LEVEL", cli_opt_severity,
			"show (in text) and exit 1 for findings at or above\n"
			"note|warning|error (default warning).  Only a proven costly order\n"
			"(constants, \"proven\") makes a warning; one that user, network,\n"
			"device or module-parameter data can reach (\"likely\"), or only\n"
			"runtime or unknown data (\"possible\"), is a note.  JSON and SARIF\n"
			"carry every finding with its \"confidence\" and \"size_source\""),
		CLI_SET(0, "no-pch", &a.want_pch, 0,
			"with --tree: parse every file from source instead of through a\n"
			"precompiled header of the common kernel headers (the default,\n"
			"built once per tree and config under $XDG_CACHE_HOME/gfpaudit/pch;\n"
			"4-5x faster, same results; every file sees KBUILD_MODNAME\n"
			"\"gfpaudit\").  --pch: fail when the PCH cannot be built"),
		CLI_SET(0, "pch", &a.want_pch, 2, NULL),
		CLI_STRING(0, "allocator-model", &c->allocator_model, "M",
			"page allocator model for costly-noretry-compacts: auto\n"
			"(read the tree's mm/page_alloc.c) or 6.1, 6.12, later"),
		CLI_SET(0, "cocci", &a.cocci, 1,
			"also run the Coccinelle rules (rules/*.cocci) with spatch, with the\n"
			"tree's header constants (-v prints them), and merge their findings\n"
			"(source \"cocci\"; same file, line and rule as a libclang one: once)"),
		CLI_STRING(0, "cocci-rules", &a.cocci_rules, "DIR",
			"the .cocci rules to run (default: rules/ next to the binary)"),
		CLI_CALLBACK(0, "allocators", c, "FILE", cli_opt_allocator,
			"extra allocator table (format: analyzer/data/allocators.tbl);\n"
			"also $GFPAUDIT_ALLOCATORS, colon-separated"),
		CLI_STRING(0, "cache", &a.cache, "FILE",
			"result cache (default $XDG_CACHE_HOME/gfpaudit/cache.sqlite,\n"
			"else ~/.cache/gfpaudit/cache.sqlite)"),
		CLI_SET(0, "no-cache", &a.no_cache, 1, "neither read nor write the cache"),
		CLI_SET(0, "prefilter", &a.prefilter, 2,
			"skip files that name no allocator (the default from 32 files\n"
			"on: learning the tree's wrappers costs about 0.5 s)"),
		CLI_SET(0, "no-prefilter", &a.prefilter, 0,
			"parse every file, also those that name no allocator"),
		CLI_SET(0, "candidates", &a.candidates, 1,
			"print the files the prefilter would parse, one a line, and stop"),
		CLI_CALLBACK(0, "shard", &a, "K/N", audit_opt_shard,
			"audit only share K of N (by path hash; join the outputs\n"
			"with 'gfpaudit merge')"),
		CLI_STRING(0, "baseline", &a.baseline_path, "FILE",
			"a previous run (JSON or SARIF): report only new findings,\n"
			"list the ones that went away (JSON \"resolved\")"),
		CLI_SET(0, "all-files", &a.all_files, 1,
			"with --tree: also the files of directories given that the\n"
			"configuration does not build (findings there carry\n"
			"\"in_config\": false); by default a directory gives the files\n"
			"its .config builds, and files named on the command line are\n"
			"audited whatever the configuration says"),
		CLI_SET(0, "no-facts", &a.use_facts, 0,
			"judge every file on its own: no tree-wide fact base.  By default\n"
			"each file also records what it stores into struct fields and passes\n"
			"to functions, and which of those keys it reads; the joined facts of\n"
			"the files audited (and, for part of a tree, the tree's facts in the\n"
			"cache: 'gfpaudit facts') bound the fields and parameters a site\n"
			"reads.  Files with \"possible\" or unknown sizes, and files that pass\n"
			"on values a fact may bound, are judged again when the keys they read\n"
			"changed, until nothing changes; the cache keeps those judgements"),
		CLI_INT(0, "facts-passes", &a.facts_passes, "N", 1, 16,
			"judge again at most N times (1 to 16, default 3): a value stored in\n"
			"one file, copied into a call in a second and allocated in a third\n"
			"needs 2"),
		CLI_SET(0, "facts", &a.use_facts, 1,
			"the default: judge with the tree-wide fact base (undoes --no-facts)"),
		CLI_SET('q', "quiet", &c->quiet, 1, "no progress line"),
		CLI_COUNT('v', "verbose", &c->verbose, "evidence notes under each finding; parse errors per file"),
		CLI_CALLBACK(0, "color", &a.color, "WHEN", cli_opt_color,
			"colour the text output: auto (default: on a terminal, unless\n"
			"NO_COLOR is set or TERM is dumb), always, never"),
		CLI_SET(0, "progress", &a.progress, 1,
			"progress lines on stderr also when it is not a terminal, one\n"
			"every 5 s (the default when CI=true); --no-progress: not then"),
		CLI_SET(0, "no-progress", &a.progress, 0, NULL),
		CLI_HELP(),
		CLI_END(),
	};
	int rc, i = cli_parse_options("audit", opts, argc, argv, usage, &rc);
	if (i < 0)
		return rc;
	if (a.candidates)
		a.no_cache = 1;
	if (a.cocci_rules)
		a.cocci = 1;
	if (i >= argc) {
		fprintf(stderr, "gfpaudit audit: no PATH given\n");
		usage(stderr, opts);
		return EXIT_USAGE;
	}
	a.paths = argv + i;
	a.npaths = argc - i;
	return audit_main(&a);
}

/* Everything an audit run holds, released in one place. */
struct audit_run {
	struct audit_args *a;
	struct engine_opts eo;
	struct engine *e;
	struct file_list fl;
	GHashTable *not_built;
	char *cache_path;
	struct triage *tri;
	struct baseline *base;
	struct audit_state st;
	struct factbase *empty;   /* the first pass's: records the keys files consult */
	struct treefacts tf;
	size_t listed;            /* files the paths gave, before configuration and shard */
	int sev;
	char *facts_note;         /* the summary's word on the tree's facts */
	bool tf_loaded;           /* load_tree_facts ran */
	/* the last run's facts state, loaded at the first pass's first miss
	 * (spec_state): the engine judges parsed files against it, the passes
	 * resume from it; `misses` counts the parsed files */
	struct factpass_state *pre;
	bool pre_tried;
	size_t misses;
};

static void run_release(struct audit_run *r)
{
	if (r->e)
		engine_set_facts(r->e, NULL);
	factbase_free(r->empty);
	if (r->e)
		engine_set_spec_state(r->e, NULL);
	factpass_state_free(r->pre);
	treefacts_release(&r->tf);
	triage_free(r->tri); /* commits what the workers answered: the cache stays whole */
	free(r->cache_path);
	report_release(&r->st.rep);
	if (r->not_built)
		g_hash_table_destroy(r->not_built);
	file_list_release(&r->fl);
	engine_free(r->e);
	baseline_free(r->base);
	free(r->facts_note);
}

/* Engine, files, cache and baseline.  0 or an exit code. */
static int run_setup(struct audit_run *r)
{
	struct audit_args *a = r->a;
	struct cli_common *c = &a->c;
	if (c->tree && c->compdb) {
		fprintf(stderr, "gfpaudit audit: --tree and -p exclude each other\n");
		return EXIT_USAGE;
	}
	c->config_from = a->npaths ? a->paths[0] : NULL;
	if (cli_engine_opts(c, &r->eo)) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		return EXIT_USAGE;
	}
	r->eo.fixes = a->fix_dir != NULL || a->want_fixes;
	r->eo.pch = a->want_pch && c->tree && !a->candidates;
	r->eo.pch_optional = a->want_pch == 1;
	r->eo.collect_facts = a->use_facts;
	int rc = engine_new(&r->eo, &r->e);
	if (rc) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		return rc == GA_ETREE || rc == GA_EINVAL ? EXIT_USAGE : EXIT_TOOL;
	}
	if (engine_pch_problem(r->e))
		fprintf(stderr, "gfpaudit audit: warning: parsing without a PCH: %s\n", engine_pch_problem(r->e));

	size_t left_out = 0, left_other_arch = 0, left_skipped = 0;
	for (int i = 0; i < a->npaths; i++)
		select_files(r->e, &r->fl, a->paths[i], a->all_files, r->not_built, &left_out, &left_other_arch,
			     c->config, &left_skipped);
	if (left_skipped && (!c->quiet || c->verbose))
		fprintf(stderr, "gfpaudit: %zu file%s left out by the [skip] paths of %s\n", left_skipped,
			left_skipped == 1 ? "" : "s", c->config->path);
	for (size_t i = 0; i < r->fl.nproblems; i++)
		fprintf(stderr, "gfpaudit: %s\n", r->fl.problems[i]);
	if ((left_out || left_other_arch) && (!c->quiet || c->verbose))
		fprintf(stderr, "gfpaudit: %zu files of the directories given are not built by the tree's "
			"configuration (%zu of them under another architecture's arch/): left out%s\n",
			left_out + left_other_arch, left_other_arch, a->all_files ? "" : " (--all-files audits them)");
	r->listed = r->fl.n + left_out + left_other_arch;
	if (a->shard_n)
		shard_filter(&r->fl, r->e, a->shard_k, a->shard_n);

	/* the default cache is a convenience: without it the run goes on */
	r->cache_path = a->no_cache ? NULL : a->cache ? xstrdup(a->cache) : store_default_path();
	/* the prefilter pays for its wrapper learning only on bigger runs */
	int prefilter = a->prefilter;
	if (prefilter == 1 && r->fl.n < 32 && !a->candidates)
		prefilter = 0;
	struct triage_opts to = { .engine = r->e, .eo = &r->eo, .cache_path = r->cache_path,
				  .prefilter = prefilter && !c->compdb };
	rc = triage_new(&to, &r->tri);
	/* a cache the user named that is the wrong kind of file is a usage
	 * error; one the disk cannot hold (full, read-only, I/O) costs speed,
	 * not results */
	if (rc && a->cache && rc != GA_EIO) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		return EXIT_USAGE;
	} else if (rc) {
		fprintf(stderr, "gfpaudit audit: warning: %s; going on without a cache\n", err_last());
		to.cache_path = NULL;
		triage_new(&to, &r->tri);
	}
	if (a->baseline_path && baseline_load(a->baseline_path, &r->base)) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		return EXIT_USAGE;
	}
	return 0;
}

static void print_candidates(struct audit_run *r)
{
	/* the prefilter's verdict alone: feeds other tools and benchmarks */
	for (size_t i = 0; i < r->fl.n; i++) {
		struct file_result *fr = triage_lookup(r->tri, i, r->fl.paths[i]);
		if (!fr)
			printf("%s\n", r->fl.paths[i]);
		file_result_free(fr);
	}
}

static void on_parsed(void *data, int pass, const char *path)
{
	(void)data;
	char *p = xprintable(path);
	fprintf(stderr, "gfpaudit: facts pass %d: judged %s\n", pass, p);
	free(p);
}

/* Do the audited files all lie below the root the tree's facts are of? */
static bool below_root(const struct file_list *fl, const char *root)
{
	size_t len = strlen(root);
	char real[PATH_MAX];
	for (size_t i = 0; i < fl->n; i++)
		if (!realpath(fl->paths[i], real) || strncmp(real, root, len) || (real[len] && real[len] != '/'))
			return false;
	return true;
}

/* Is the audit the whole tree's (it then builds the tree's facts)? */
static bool whole_tree(const struct audit_args *a)
{
	char real[PATH_MAX], treal[PATH_MAX];
	return a->c.tree && a->npaths == 1 && !a->shard_n && realpath(a->paths[0], real) &&
	       realpath(a->c.tree, treal) && !strcmp(real, treal);
}

/* The tree's facts of the files not audited, when they are in the cache. */
static int load_tree_facts(struct audit_run *r)
{
	if (r->tf_loaded)
		return 0;
	r->tf_loaded = true;
	struct store *s = triage_cache(r->tri);
	const char *how = r->a->c.tree ? r->a->c.tree : "KDIR";
	if (!s) {
		if (r->a->c.tree)
			r->facts_note = xstrdup("tree facts: not read (no cache)");
		return 0;
	}
	char **own = xcalloc(r->fl.n + 1, sizeof(*own));
	size_t nown = 0;
	for (size_t i = 0; i < r->fl.n; i++) {
		char real[PATH_MAX];
		if (realpath(r->fl.paths[i], real))
			own[nown++] = xstrdup(real);
	}
	int rc = treefacts_load(s, triage_context(r->tri), own, nown, &r->tf);
	for (size_t i = 0; i < nown; i++)
		free(own[i]);
	free(own);
	if (rc)
		return rc;
	if (r->tf.built && !below_root(&r->fl, r->tf.root)) {
		r->facts_note = xasprintf("tree facts: built for %s, not for these files", r->tf.root);
		treefacts_release(&r->tf);
	} else if (r->tf.built) {
		r->facts_note = xasprintf("tree facts: %zu files from the cache", r->tf.n);
		if (r->tf.stale) {
			char *more = xasprintf("%s (%zu changed since they were built: left out; "
					       "'gfpaudit facts --tree %s' rebuilds them)", r->facts_note, r->tf.stale, how);
			free(r->facts_note);
			r->facts_note = more;
		}
	} else if (r->a->c.tree && !r->a->build_tree_facts && !whole_tree(r->a)) {
		r->facts_note = xasprintf("tree facts: not built; run 'gfpaudit facts --tree %s'", how);
	}
	return 0;
}

/* What the run record must find unchanged when this run saves the tree's
 * facts: how it saves them and their change count (new string; NULL when
 * the cache cannot say). */
static char *tree_stamp(struct store *s, const char *context, bool rebuild, const char *root)
{
	char ctx[STORE_HASH_HEX];
	snprintf(ctx, sizeof(ctx), "%s", context);
	long long gen;
	if (store_tree_gen(s, ctx, &gen)) {
		err_clear();
		return NULL;
	}
	/* root last: it may hold any byte but NUL and newline is the body's */
	return strchr(root ? root : "", '\n') ? NULL
					       : xasprintf("tree-gen %lld rebuild %d root %s", gen, rebuild ? 1 : 0,
							   root ? root : "");
}

/* The passes' inputs but the files and the record's (factpass.h): what
 * names the state to resume from.  Needs the tree's facts loaded. */
static void facts_inputs(struct audit_run *r, struct factpass_opts *fo)
{
	struct audit_args *a = r->a;
	fo->engine = r->e;
	fo->store = triage_cache(r->tri);
	fo->context = triage_context(r->tri);
	fo->max_passes = a->facts_passes;
	fo->extra = r->tf.files;
	fo->nextra = r->tf.n;
	/* a shard's observations are read by the other shards */
	fo->all_publishers = a->shard_n && (a->build_tree_facts || r->tf.built);
	fo->extra_digest = r->tf.digest;
}

/* The first file the first pass parses: the last run's state, when the
 * cache has one for these inputs, becomes what the workers judge each
 * parsed file against a second time (engine.h engine_set_spec_state), up
 * to the number of changed files a run resumes from (factpass.c); past
 * that the run will not resume, and the state goes. */
static void on_miss(struct audit_state *st)
{
	struct audit_run *r = (struct audit_run *)((char *)st - offsetof(struct audit_run, st));
	r->misses++;
	if (!r->pre_tried) {
		r->pre_tried = true;
		if (!triage_cache(r->tri) || getenv("GFPAUDIT_NO_RESUME"))
			return;
		if (load_tree_facts(r)) {
			err_clear();
			r->tf_loaded = false; /* run_facts tries again and says what is wrong */
			return;
		}
		struct factpass_opts fo = { 0 };
		facts_inputs(r, &fo);
		if (factpass_state_load(&fo, &r->pre)) {
			err_clear();
			return;
		}
		factstate_prepare(factpass_state_facts(r->pre));
		engine_set_spec_state(r->e, factpass_state_facts(r->pre));
		phase_mark("first pass: state loaded");
	} else if (r->pre && r->misses > r->fl.n / 10 + 16) {
		engine_set_spec_state(r->e, NULL);
		factpass_state_free(r->pre);
		r->pre = NULL;
	}
}

/* Join the observations and judge again what they change (factpass.h);
 * keep the tree's facts in the cache up to date.  Returns pool_run's code. */
static int run_facts(struct audit_run *r, const struct pool_opts *po1)
{
	struct audit_args *a = r->a;
	engine_set_spec_state(r->e, NULL);
	if (r->st.rep.n != r->fl.n)
		return 0;
	int rc = load_tree_facts(r);
	if (rc) {
		fprintf(stderr, "gfpaudit audit: warning: tree facts: %s\n", err_last());
		err_clear();
	}
	struct store *s = triage_cache(r->tri);
	/* an audit of the whole tree builds the tree's facts as `facts` would */
	char treal[PATH_MAX];
	bool whole = whole_tree(a) && realpath(a->c.tree, treal);
	/* a sharded facts build adds its files to the facts the cache holds
	 * (the first shard into a cache starts them) */
	bool rebuild = (a->build_tree_facts && !(a->shard_n && r->tf.built)) || whole;
	bool save = s && (rebuild || r->tf.built);
	const char *root = a->facts_root ? a->facts_root : whole ? treal : r->tf.root;
	/* the run record: the first pass's rows, and, when the tree's facts
	 * are saved, that nothing changed them since the record's run saved
	 * them (then they hold what this run would save) */
	const char **ident = xcalloc(r->fl.n + 1, sizeof(*ident));
	for (size_t i = 0; i < r->fl.n; i++)
		ident[i] = triage_identity(r->tri, i);
	char *stamp = save ? tree_stamp(s, triage_context(r->tri), rebuild, root) : NULL;
	struct factpass_opts fo = { .pool = *po1, .ident = s && (!save || stamp) ? ident : NULL,
				    .stamp = stamp ? stamp : "-", .preloaded = &r->pre,
				    .on_parsed = a->c.verbose > 1 ? on_parsed : NULL };
	facts_inputs(r, &fo);
	struct factpass_stats fs;
	rc = factpass_run(&fo, r->st.rep.files, r->fl.paths, r->fl.n, &fs);
	free(ident);
	if (rc) {
		free(stamp);
		factpass_stats_release(&fs);
		return rc;
	}
	bool saved = !save || fs.from_record;
	if (save && !fs.from_record) {
		/* resumed, the tree's facts as its state's run left them: only the
		 * files whose part changed are written again */
		bool inc = fs.resumed && fs.tree_intact;
		if (treefacts_save(s, triage_context(r->tri), root ? root : "", rebuild && !inc,
				   r->st.rep.files, r->fl.paths, r->fl.n, inc ? fs.touched : NULL)) {
			fprintf(stderr, "gfpaudit audit: warning: tree facts not saved: %s\n", err_last());
			err_clear();
		} else {
			saved = true;
		}
		phase_mark("tree facts saved");
	}
	if (save && a->build_tree_facts && saved) {
		free(r->facts_note);
		r->facts_note = a->shard_n ? xasprintf("tree facts: shard %d/%d of %s: %zu files %s, %zu keys",
						       a->shard_k, a->shard_n, root ? root : "?", r->fl.n,
						       rebuild ? "(the first in this cache)" : "added", fs.keys)
					   : xasprintf("tree facts: built for %s: %zu files, %zu keys",
						       root ? root : "?", r->fl.n, fs.keys);
	} else if (!s && a->build_tree_facts) {
		free(r->facts_note);
		r->facts_note = xstrdup("tree facts: not built: no cache to keep them in");
	}
	/* the record names the tree's facts as this run left them */
	free(stamp);
	stamp = save ? tree_stamp(s, triage_context(r->tri), rebuild, root) : NULL;
	if (saved && (!save || stamp) && factpass_save_record(&fo, &fs, stamp ? stamp : "-"))
		err_clear(); /* costs the next run speed, not results */
	phase_mark("run record saved");
	free(stamp);
	if (a->c.verbose && fs.from_record)
		fprintf(stderr, "gfpaudit: facts: %zu keys from %zu files%s%s; from the run record: %zu files take "
			"their judged result, no join, no pass%s\n",
			fs.keys, r->fl.n, r->facts_note ? ", " : "", r->facts_note ? r->facts_note : "",
			fs.recorded, fs.converged ? " (converged)" : " (the limit, --facts-passes)");
	else if (a->c.verbose && fs.resumed)
		fprintf(stderr, "gfpaudit: facts: %zu keys from %zu files%s%s; resumed from the last run's state "
			"(%zu files changed since): %zu passes%s, %zu files re-judged (%zu parsed, %zu from the cache, "
			"%zu from the first parse; %zu changed), worker CPU %.1f s, wall %.1f s\n",
			fs.keys, r->fl.n, r->facts_note ? ", " : "", r->facts_note ? r->facts_note : "",
			fs.resume_changed, fs.passes, fs.converged ? " (converged)" : " (the limit, --facts-passes)",
			fs.judged, fs.parsed, fs.cached, fs.reused, fs.changed, fs.worker_cpu, fs.wall);
	else if (a->c.verbose)
		fprintf(stderr, "gfpaudit: facts: %zu keys from %zu files%s%s; %zu passes%s, %zu files re-judged "
			"(%zu parsed, %zu from the cache, %zu from the first parse; %zu changed), worker CPU %.1f s, "
			"wall %.1f s\n",
			fs.keys, r->fl.n, r->facts_note ? ", " : "", r->facts_note ? r->facts_note : "",
			fs.passes, fs.converged ? " (converged)" : " (the limit, --facts-passes)", fs.judged,
			fs.parsed, fs.cached, fs.reused, fs.changed, fs.worker_cpu, fs.wall);
	/* a judgement that failed leaves the file's answer from before: say so
	 * whatever the verbosity, and which under -v */
	r->st.rep.facts_failed = fs.failed;
	if (fs.failed && (!a->c.quiet || a->c.verbose))
		fprintf(stderr, "gfpaudit: facts: %zu re-judgement%s failed: %s keep%s the answer judged with "
			"older facts%s\n", fs.failed, fs.failed == 1 ? "" : "s", fs.failed == 1 ? "that file" : "those files",
			fs.failed == 1 ? "s" : "", a->c.verbose ? "" : " (-v names them)");
	for (size_t i = 0; i < fs.nfailures && a->c.verbose; i++) {
		char *p = xprintable(fs.failures[i]);
		fprintf(stderr, "gfpaudit: facts: re-judgement failed: %s\n", p);
		free(p);
	}
	factpass_stats_release(&fs);
	return 0;
}

static void run_cocci(struct audit_run *r, int *exit_code)
{
	struct audit_args *a = r->a;
	/* the same prefilter: a file it answered names no API, so no rule
	 * can match there (results come back in input order) */
	char **cf = xcalloc(r->fl.n + 1, sizeof(*cf));
	size_t ncf = 0;
	for (size_t i = 0; i < r->fl.n; i++)
		if (r->st.rep.n != r->fl.n || !triage_is_prefiltered(r->st.rep.files[i]))
			cf[ncf++] = r->fl.paths[i];
	struct cocci_opts co = { .rules_dir = a->cocci_rules, .jobs = a->jobs, .rules = r->eo.rules,
				 .report_path = cocci_path, .data = r->e, .verbose = a->c.verbose };
	/* the rules judge with the constants the C analyzer evaluates: those
	 * of the first file's headers (the tree's; kmodel's without a tree) */
	struct tree_constants tc;
	if (ncf && engine_probe_constants(r->e, cf[0], &tc)) {
		fprintf(stderr, "gfpaudit audit: --cocci: warning: the header constants could not be evaluated (%s): "
			"the rules judge with $%s or their x86-64 defaults\n", err_last(), COCCI_CONSTANTS_ENV);
		err_clear();
	} else if (ncf) {
		co.constants = &tc;
		if (a->c.verbose) {
			char *s = cocci_constants(&tc);
			fprintf(stderr, "gfpaudit: --cocci: %s=\"%s\"\n", COCCI_CONSTANTS_ENV, s);
			free(s);
		}
	}
	if (cocci_run(&co, cf, ncf, &r->st.rep)) {
		fprintf(stderr, "gfpaudit audit: --cocci: %s\n", err_last());
		*exit_code = EXIT_TOOL;
	} else if (a->c.verbose) {
		fprintf(stderr, "gfpaudit: --cocci: spatch over %zu of %zu files\n", ncf, r->fl.n);
	}
	free(cf);
}

/* Print the report and the summary; the exit code. */
static int run_report(struct audit_run *r, int exit_code)
{
	struct audit_args *a = r->a;
	struct cli_common *c = &a->c;
	struct report *rep = &r->st.rep;
	if (r->base) {
		struct baseline_stats bs;
		baseline_apply(r->base, rep, &bs);
		if (!c->quiet || c->verbose)
			fprintf(stderr, "gfpaudit: baseline: %zu new, %zu unchanged, %zu resolved\n",
				bs.fresh, bs.unchanged, bs.resolved);
	}
	if (a->build_tree_facts)
		;
	else if (!strcmp(c->format, "json"))
		report_json(rep, stdout);
	else if (!strcmp(c->format, "sarif"))
		report_sarif(rep, stdout);
	else {
		struct diag_style ds;
		diag_style_init(&ds, a->color, stdout, c->tree); /* the mode was checked with the options */
		rep->min_show = (enum severity)r->sev;
		rep->style = &ds;
		report_text(rep, stdout);
		rep->style = NULL;
		diag_style_release(&ds);
	}
	if (a->fix_dir) {
		struct fix_mail_opts mo = { .tree = c->tree, .date = -1 };
		size_t nmail = 0;
		if (fix_mail_write_dir(a->fix_dir, &mo, rep->files, rep->n, &nmail)) {
			fprintf(stderr, "gfpaudit audit: %s\n", err_last());
			exit_code = EXIT_TOOL;
		} else if (!c->quiet || c->verbose) {
			fprintf(stderr, "gfpaudit: %zu fix mail%s written to %s\n", nmail, nmail == 1 ? "" : "s", a->fix_dir);
		}
	}
	size_t an, s, f;
	report_counts(rep, &an, &s, &f);
	size_t nf = report_findings_at_least(rep, (enum severity)r->sev);
	size_t np = report_partial(rep);
	if (a->build_tree_facts && (!c->quiet || c->verbose || np)) {
		fprintf(stderr, "gfpaudit: %zu files analyzed (%zu partially), %zu skipped, %zu failed\n", an, np,
			s + r->fl.nproblems, f);
		if (r->facts_note)
			fprintf(stderr, "gfpaudit: %s\n", r->facts_note);
	} else if (!c->quiet || c->verbose || np) {
		fprintf(stderr, "gfpaudit: %zu files analyzed (%zu with parse errors%s, %zu partially analyzed), "
			"%zu skipped, %zu failed; %zu findings at or above %s\n", an, r->st.with_errors,
			r->st.with_errors && !c->verbose ? ", -v says which" : "", np, s + r->fl.nproblems, f, nf,
			c->severity);
		size_t nall = report_findings_at_least(rep, SEV_NOTE);
		if (nall > nf && !a->build_tree_facts)
			fprintf(stderr, "gfpaudit: %zu more below %s (likely or possible costly orders: notes)%s\n",
				nall - nf, c->severity, strcmp(c->format, "text") ? "" : ": --severity note shows them");
		char *table = strcmp(c->format, "text") ? NULL : report_rule_counts(rep, (enum severity)r->sev);
		if (table)
			fprintf(stderr, "%s", table);
		free(table);
		size_t nsup = report_suppressed(rep);
		if (nsup)
			fprintf(stderr, "gfpaudit: %zu finding%s suppressed by 'gfpaudit: ignore' comments (listed with "
				"--sites, -v and in JSON)\n", nsup, nsup == 1 ? "" : "s");
		char *causes = report_error_causes(rep, 3);
		if (causes)
			fprintf(stderr, "gfpaudit: top parse errors: %s\n", causes);
		free(causes);
		if (r->facts_note)
			fprintf(stderr, "gfpaudit: %s\n", r->facts_note);
	}
	if (exit_code == EXIT_TOOL)
		return exit_code;
	if (a->build_tree_facts)
		return f || r->fl.nproblems || r->listed == 0 ? EXIT_TOOL : EXIT_CLEAN;
	if (nf)
		return EXIT_FINDINGS;
	if (f || s || np || r->fl.nproblems || r->listed == 0)
		return EXIT_TOOL;
	return EXIT_CLEAN;
}

int audit_main(struct audit_args *a)
{
	struct cli_common *c = &a->c;
	struct audit_run r = { .a = a };
	file_list_init(&r.fl);
	report_init(&r.st.rep);
	r.not_built = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	int exit_code = EXIT_CLEAN, stop = 0;
	r.sev = severity_lookup(c->severity);
	if (r.sev < 0) {
		fprintf(stderr, "gfpaudit audit: unknown severity '%s' (note, warning, error)\n", c->severity);
		exit_code = EXIT_USAGE;
		goto out;
	}
	phase_mark("start");
	if ((exit_code = run_setup(&r)))
		goto out;
	phase_mark("setup");
	if (a->candidates) {
		print_candidates(&r);
		goto out;
	}

	r.st.quiet = c->quiet;
	r.st.verbose = c->verbose;
	r.st.not_built = r.not_built;
	r.st.rep.with_sites = a->sites;
	r.st.rep.with_evidence = c->verbose > 0;
	r.st.rep.with_fixes = a->want_fixes || a->fix_dir;
	r.st.rep.tree = c->tree;
	r.st.tri = r.tri;
	if (a->use_facts) {
		/* nothing joined yet: the files record which keys they consult */
		r.empty = factbase_new();
		engine_set_facts(r.e, r.empty);
		r.st.on_miss = on_miss;
	}
	struct pool_stats ps;
	struct pool_opts po = { .jobs = a->jobs, .timeout_sec = a->timeout, .mem_limit_mb = a->mem_mb,
				.quiet = c->quiet, .progress_lines = a->progress, .done = on_done, .data = &r.st, .stats = &ps,
				.lookup = on_lookup, .store = on_store, .idle = on_idle };
	int rc = pool_run(r.e, r.fl.paths, r.fl.n, &po);
	engine_set_facts(r.e, NULL);
	phase_mark("first pass");
	struct triage_stats ts;
	triage_get_stats(r.tri, &ts);
	r.st.rep.cached = ts.cached;
	r.st.rep.prefiltered = ts.prefiltered;
	if (c->verbose)
		fprintf(stderr, "gfpaudit: %zu files: %zu from the cache, %zu prefiltered (%zu wrapper names "
			"learned in %.2f s), %zu parsed by workers (%zu crashed, %zu timed out); triage %.2f s, "
			"worker CPU %.1f s, peak worker RSS %ld MiB%s%s (%ld MiB with the parent's pages its fork shares), "
			"wall %.1f s\n",
			r.fl.n, ts.cached, ts.prefiltered, ts.learned, ts.learn_sec, ps.forked, ps.crashed,
			ps.timed_out, ts.lookup_sec, ps.worker_cpu, ps.max_rss_kb / 1024, *ps.max_rss_file ? " on " : "",
			ps.max_rss_file, ps.max_rss_shared_kb / 1024, ps.wall);
	if (ts.store_failed && !c->quiet)
		fprintf(stderr, "gfpaudit audit: warning: the cache did not take %zu result%s (%s): the "
			"results are whole, the next run parses those files again\n", ts.store_failed,
			ts.store_failed == 1 ? "" : "s", ts.store_error);
	if (!rc && a->use_facts)
		rc = run_facts(&r, &po);
	if (rc && (stop = pool_interrupted())) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		exit_code = 128 + stop;
		goto out;
	}
	if (!rc && a->cocci)
		run_cocci(&r, &exit_code);
	if (rc) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		exit_code = EXIT_TOOL;
	} else {
		exit_code = run_report(&r, exit_code);
		phase_mark("report");
	}
out:
	run_release(&r);
	phase_mark("release");
	if (stop) {
		/* die of the signal, as the shell that sent it expects */
		fflush(NULL);
		signal(stop, SIG_DFL);
		raise(stop);
	}
	return exit_code;
}
