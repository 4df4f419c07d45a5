/* gfpaudit audit: analyze files, directories or whole trees. */
#include <getopt.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/cmd.h"
#include "gfpaudit/cocci.h"
#include "gfpaudit/cli.h"
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
"  --format FMT         text (default, GCC style), json or sarif (SARIF 2.1.0)\n"
"  --sites              also list every allocation site with its facts\n"
"  --fixes              propose verified candidate fixes: in JSON, and as diffs\n"
"                       under each finding in text\n"
"  --fix DIR            as --fixes, and write one format-patch mail per fix into DIR\n"
"  -j N                 worker processes (default: number of CPUs)\n"
"  --timeout SEC        give up on one file after SEC seconds (default 300; also\n"
"                       the worker's CPU limit for the file)\n"
"  --memory-limit MIB   address-space limit of each worker (default 4096)\n"
"  --enable RULE,..     run only these rules (with --disable: add them back)\n"
"  --disable RULE,..    do not run these rules\n"
"  --severity LEVEL     show (in text) and exit 1 for findings at or above\n"
"                       note|warning|error (default warning).  A costly order that only\n"
"                       runtime or unknown data would reach (confidence \"possible\") is a\n"
"                       note; constants (\"proven\") or user, network, device or module-\n"
"                       parameter data (\"likely\") make a warning.  JSON and SARIF carry\n"
"                       every finding with its \"confidence\" and \"size_source\"\n"
"  --no-pch             with --tree: parse every file from source instead of through a\n"
"                       precompiled header of the common kernel headers (the default,\n"
"                       built once per tree and config under $XDG_CACHE_HOME/gfpaudit/pch;\n"
"                       4-5x faster, same results; every file sees KBUILD_MODNAME\n"
"                       \"gfpaudit\").  --pch: fail when the PCH cannot be built\n"
"  --allocator-model M  page allocator model for costly-noretry-compacts: auto\n"
"                       (read the tree's mm/page_alloc.c) or 6.1, 6.12, later\n"
"  --cocci              also run the Coccinelle rules (rules/*.cocci) with spatch and\n"
"                       merge their findings (source \"cocci\"; same file, line and\n"
"                       rule as a libclang finding: reported once)\n"
"  --cocci-rules DIR    the .cocci rules to run (default: rules/ next to the binary)\n"
"  --allocators FILE    extra allocator table (format: analyzer/data/allocators.tbl);\n"
"                       also $GFPAUDIT_ALLOCATORS, colon-separated\n"
"  --cache FILE         result cache (default $XDG_CACHE_HOME/gfpaudit/cache.sqlite,\n"
"                       else ~/.cache/gfpaudit/cache.sqlite)\n"
"  --no-cache           neither read nor write the cache\n"
"  --prefilter          skip files that name no allocator (the default from 32 files\n"
"                       on: learning the tree's wrappers costs about 0.5 s)\n"
"  --no-prefilter       parse every file, also those that name no allocator\n"
"  --candidates         print the files the prefilter would parse, one a line, and stop\n"
"  --shard K/N          audit only share K of N (by path hash; join the outputs\n"
"                       with 'gfpaudit merge')\n"
"  --baseline FILE      a previous run (JSON or SARIF): report only new findings,\n"
"                       list the ones that went away (JSON \"resolved\")\n"
"  --all-files          with --tree: also the files of directories given that the\n"
"                       configuration does not build (findings there carry\n"
"                       \"in_config\": false); by default a directory gives the files\n"
"                       its .config builds, and files named on the command line are\n"
"                       audited whatever the configuration says\n"
"  --no-facts           judge every file on its own: no tree-wide fact base.  By default\n"
"                       each file also records what it stores into struct fields and passes\n"
"                       to functions; the joined facts of the files audited bound the\n"
"                       fields and parameters a site reads, and the files with \"possible\"\n"
"                       or unknown sizes are judged again with them (a second pass)\n"
"  -q, --quiet          no progress line\n"
"  -v, --verbose        evidence notes under each finding; parse errors per file\n"
"\n"
"Without --tree or -p, files parse against the kernel-model headers in include/kmodel/.\n"
"\n"
"rules:\n");
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
};

static struct file_result *on_lookup(void *data, size_t index, const char *path)
{
	return triage_lookup(((struct audit_state *)data)->tri, index, path);
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

/* ---- the second pass: files re-judged with the tree's facts ---- */

struct rejudge {
	struct audit_state *st;
	size_t *index;   /* position in st->rep.files of each re-judged file */
	size_t changed;  /* files whose findings changed */
};

static void on_rejudged(void *data, size_t i, struct file_result *r)
{
	struct rejudge *rj = data;
	struct file_result **slot = &rj->st->rep.files[rj->index[i]];
	if (r->status != FILE_ANALYZED || strcmp(r->file, (*slot)->file)) {
		file_result_free(r); /* keep the first pass's answer */
		return;
	}
	r->not_in_config = (*slot)->not_in_config;
	if (r->nfindings != (*slot)->nfindings)
		rj->changed++;
	file_result_free(*slot);
	*slot = r;
}

/* A file the facts can change: a site whose order is unknown or only
 * "possible" (made of fields and parameters the file does not bound). */
static bool wants_facts(const struct file_result *r)
{
	for (size_t i = 0; r->status == FILE_ANALYZED && i < r->nsites; i++)
		if (r->sites[i].conf == CONF_POSSIBLE || !r->sites[i].order.known)
			return true;
	return false;
}

/* Join the observations of every analyzed file into the fact base and run
 * the files it can change again with it.  Returns pool_run's code. */
static int facts_pass(struct engine *e, struct file_list *fl, struct audit_state *st,
		      const struct pool_opts *po1, size_t *nkeys, size_t *nrejudged, size_t *nchanged)
{
	*nkeys = *nrejudged = *nchanged = 0;
	if (st->rep.n != fl->n)
		return 0;
	struct factbase *fb = factbase_new();
	for (size_t i = 0; i < st->rep.n; i++)
		factbase_add_result(fb, st->rep.files[i]);
	*nkeys = factbase_size(fb);
	char **paths = xcalloc(fl->n + 1, sizeof(*paths));
	struct rejudge rj = { .st = st, .index = xcalloc(fl->n + 1, sizeof(size_t)) };
	size_t n = 0;
	for (size_t i = 0; i < fl->n; i++)
		if (wants_facts(st->rep.files[i])) {
			rj.index[n] = i;
			paths[n++] = fl->paths[i];
		}
	int rc = 0;
	if (n && *nkeys) {
		struct pool_opts po = *po1;
		po.done = on_rejudged;
		po.data = &rj;
		po.lookup = NULL; /* the answers depend on the facts: not the cache's */
		po.store = NULL;
		po.idle = NULL;
		engine_set_facts(e, fb);
		rc = pool_run(e, paths, n, &po);
		engine_set_facts(e, NULL);
	}
	*nrejudged = n;
	*nchanged = rj.changed;
	free(rj.index);
	free(paths);
	factbase_free(fb);
	return rc;
}

/* Add PATH's files to fl: a file named on the command line always (marked
 * in not_built when the configuration does not build it), a directory's
 * files when the configuration builds them (with --all-files also the
 * others, marked, except those of another architecture's arch/). */
static void select_files(struct engine *e, struct file_list *fl, const char *path, int all_files,
			 GHashTable *not_built, size_t *left_out, size_t *left_other_arch)
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

int cmd_audit(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "sites", no_argument, NULL, 's' },
		{ "fix", required_argument, NULL, 'F' },
		{ "fixes", no_argument, NULL, 'X' },
		{ "enable", required_argument, NULL, 'E' },
		{ "disable", required_argument, NULL, 'D' },
		{ "severity", required_argument, NULL, 'S' },
		{ "allocators", required_argument, NULL, 'A' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "memory-limit", required_argument, NULL, 'm' },
		{ "allocator-model", required_argument, NULL, 'M' },
		{ "pch", no_argument, NULL, 'W' },
		{ "no-pch", no_argument, NULL, 'w' },
		{ "cache", required_argument, NULL, 'C' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "no-prefilter", no_argument, NULL, 'P' },
		{ "prefilter", no_argument, NULL, 'Q' },
		{ "candidates", no_argument, NULL, 'L' },
		{ "baseline", required_argument, NULL, 'B' },
		{ "shard", required_argument, NULL, 'H' },
		{ "cocci", no_argument, NULL, 'K' },
		{ "cocci-rules", required_argument, NULL, 'R' },
		{ "all-files", no_argument, NULL, 'a' },
		{ "facts", no_argument, NULL, 'G' },
		{ "no-facts", no_argument, NULL, 'g' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_common c = { .format = "text", .severity = "warning" };
	int jobs = cli_default_jobs(), sites = 0, timeout = 300, mem_mb = POOL_MEM_LIMIT_MB, opt;
	const char *fix_dir = NULL;
	int want_fixes = 0, want_pch = 1; /* 0 off, 1 if it can be built, 2 required */
	const char *cache = NULL, *baseline_path = NULL;
	int no_cache = 0, prefilter = 1, shard_k = 0, shard_n = 0, candidates = 0;
	int cocci = 0, all_files = 0, use_facts = 1;
	const char *cocci_rules = NULL;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "p:j:qvh", longopts, NULL)) != -1) {
		switch (opt) {
		case 't': c.tree = optarg; break;
		case 'p': c.compdb = optarg; break;
		case 'f': c.format = optarg; break;
		case 's': sites = 1; break;
		case 'F': fix_dir = optarg; break;
		case 'X': want_fixes = 1; break;
		case 'E': c.enable = optarg; break;
		case 'D': c.disable = optarg; break;
		case 'S': c.severity = optarg; break;
		case 'A': cli_add_allocator(&c, optarg); break;
		case 'T':
			if (cli_parse_int("audit", "--timeout", optarg, 1, CLI_TIMEOUT_MAX, &timeout)) {
				fprintf(stderr, "%s\n", err_last());
				return EXIT_USAGE;
			}
			break;
		case 'm':
			if (cli_parse_int("audit", "--memory-limit", optarg, 64, 1 << 24, &mem_mb)) {
				fprintf(stderr, "%s\n", err_last());
				return EXIT_USAGE;
			}
			break;
		case 'M': c.allocator_model = optarg; break;
		case 'W': want_pch = 2; break;
		case 'w': want_pch = 0; break;
		case 'C': cache = optarg; break;
		case 'N': no_cache = 1; break;
		case 'P': prefilter = 0; break;
		case 'Q': prefilter = 2; break;
		case 'L': candidates = 1; no_cache = 1; break;
		case 'B': baseline_path = optarg; break;
		case 'H':
			if (shard_parse(optarg, &shard_k, &shard_n)) {
				fprintf(stderr, "gfpaudit audit: %s\n", err_last());
				return EXIT_USAGE;
			}
			break;
		case 'G': use_facts = 1; break;
		case 'g': use_facts = 0; break;
		case 'K': cocci = 1; break;
		case 'R': cocci = 1; cocci_rules = optarg; break;
		case 'j':
			if (cli_parse_int("audit", "-j", optarg, 1, 256, &jobs)) {
				fprintf(stderr, "%s\n", err_last());
				return EXIT_USAGE;
			}
			break;
		case 'a': all_files = 1; break;
		case 'q': c.quiet = 1; break;
		case 'v': c.verbose++; break;
		case 'h': usage(stdout); return EXIT_CLEAN;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (strcmp(c.format, "text") && strcmp(c.format, "json") && strcmp(c.format, "sarif")) {
		fprintf(stderr, "gfpaudit audit: unknown format '%s' (text, json, sarif)\n", c.format);
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
	eo.fixes = fix_dir != NULL || want_fixes;
	eo.pch = want_pch && c.tree && !candidates;
	eo.pch_optional = want_pch == 1;
	eo.collect_facts = use_facts;
	struct engine *e = NULL;
	int rc = engine_new(&eo, &e);
	if (rc) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		return rc == GA_ETREE || rc == GA_EINVAL ? EXIT_USAGE : EXIT_TOOL;
	}
	if (engine_pch_problem(e))
		fprintf(stderr, "gfpaudit audit: warning: parsing without a PCH: %s\n", engine_pch_problem(e));

	struct file_list fl;
	file_list_init(&fl);
	GHashTable *not_built = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	size_t left_out = 0, left_other_arch = 0;
	for (int i = optind; i < argc; i++)
		select_files(e, &fl, argv[i], all_files, not_built, &left_out, &left_other_arch);
	for (size_t i = 0; i < fl.nproblems; i++)
		fprintf(stderr, "gfpaudit: %s\n", fl.problems[i]);
	if ((left_out || left_other_arch) && (!c.quiet || c.verbose))
		fprintf(stderr, "gfpaudit: %zu files of the directories given are not built by the tree's "
			"configuration (%zu of them under another architecture's arch/): left out%s\n",
			left_out + left_other_arch, left_other_arch, all_files ? "" : " (--all-files audits them)");
	size_t listed = fl.n + left_out + left_other_arch;
	if (shard_n)
		shard_filter(&fl, e, shard_k, shard_n);

	/* the default cache is a convenience: without it the run goes on */
	char *cache_path = no_cache ? NULL : cache ? xstrdup(cache) : store_default_path();
	/* the prefilter pays for its wrapper learning only on bigger runs */
	if (prefilter == 1 && fl.n < 32 && !candidates)
		prefilter = 0;
	struct triage_opts to = { .engine = e, .eo = &eo, .cache_path = cache_path,
				  .prefilter = prefilter && !c.compdb };
	struct triage *tri = NULL;
	rc = triage_new(&to, &tri);
	/* a cache the user named that is the wrong kind of file is a usage
	 * error; one the disk cannot hold (full, read-only, I/O) costs speed,
	 * not results */
	if (rc && cache && rc != GA_EIO) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		free(cache_path);
		file_list_release(&fl);
		engine_free(e);
		return EXIT_USAGE;
	} else if (rc) {
		fprintf(stderr, "gfpaudit audit: warning: %s; going on without a cache\n", err_last());
		to.cache_path = NULL;
		triage_new(&to, &tri);
	}

	if (candidates) {
		/* the prefilter's verdict alone: feeds other tools and benchmarks */
		for (size_t i = 0; i < fl.n; i++) {
			struct file_result *r = triage_lookup(tri, i, fl.paths[i]);
			if (!r)
				printf("%s\n", fl.paths[i]);
			file_result_free(r);
		}
		triage_free(tri);
		file_list_release(&fl);
		engine_free(e);
		return EXIT_CLEAN;
	}

	struct baseline *base = NULL;
	if (baseline_path && baseline_load(baseline_path, &base)) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		triage_free(tri);
		free(cache_path);
		file_list_release(&fl);
		engine_free(e);
		return EXIT_USAGE;
	}

	struct audit_state st = { .quiet = c.quiet, .verbose = c.verbose, .not_built = not_built };
	report_init(&st.rep);
	st.rep.with_sites = sites;
	st.rep.with_evidence = c.verbose > 0;
	st.rep.with_fixes = want_fixes || fix_dir;
	st.rep.tree = c.tree;
	st.tri = tri;
	struct pool_stats ps;
	struct pool_opts po = { .jobs = jobs, .timeout_sec = timeout, .mem_limit_mb = mem_mb, .quiet = c.quiet,
				.done = on_done, .data = &st, .stats = &ps,
				.lookup = on_lookup, .store = on_store, .idle = on_idle };
	rc = pool_run(e, fl.paths, fl.n, &po);
	struct triage_stats ts;
	triage_get_stats(tri, &ts);
	st.rep.cached = ts.cached;
	st.rep.prefiltered = ts.prefiltered;
	if (c.verbose)
		fprintf(stderr, "gfpaudit: %zu files: %zu from the cache, %zu prefiltered (%zu wrapper names "
			"learned in %.2f s), %zu parsed by workers (%zu crashed, %zu timed out); triage %.2f s, "
			"worker CPU %.1f s, peak worker RSS %ld MiB, wall %.1f s\n",
			fl.n, ts.cached, ts.prefiltered, ts.learned, ts.learn_sec, ps.forked, ps.crashed,
			ps.timed_out, ts.lookup_sec, ps.worker_cpu, ps.max_rss_kb / 1024, ps.wall);
	if (ts.store_failed && !c.quiet)
		fprintf(stderr, "gfpaudit audit: warning: the cache did not take %zu result%s (%s): the "
			"results are whole, the next run parses those files again\n", ts.store_failed,
			ts.store_failed == 1 ? "" : "s", ts.store_error);
	triage_free(tri); /* commits what the workers answered: the cache stays whole */
	free(cache_path);
	int stop = pool_interrupted();
	if (rc && stop) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		report_release(&st.rep);
		file_list_release(&fl);
		engine_free(e);
		baseline_free(base);
		fflush(NULL);
		/* die of the signal, as the shell that sent it expects */
		signal(stop, SIG_DFL);
		raise(stop);
		return 128 + stop;
	}
	if (!rc && use_facts) {
		size_t nkeys, nrej, nchg;
		struct pool_stats ps2;
		po.stats = &ps2;
		rc = facts_pass(e, &fl, &st, &po, &nkeys, &nrej, &nchg);
		if (rc && pool_interrupted()) {
			int sig = pool_interrupted();
			fprintf(stderr, "gfpaudit audit: %s\n", err_last());
			report_release(&st.rep);
			file_list_release(&fl);
			engine_free(e);
			baseline_free(base);
			fflush(NULL);
			signal(sig, SIG_DFL);
			raise(sig);
			return 128 + sig;
		}
		if (c.verbose)
			fprintf(stderr, "gfpaudit: facts: %zu keys from %zu files; %zu files re-judged with them "
				"(%zu changed), wall %.1f s\n", nkeys, fl.n, nrej, nchg, nrej ? ps2.wall : 0.0);
	}
	int exit_code = EXIT_CLEAN;
	if (!rc && cocci) {
		/* the same prefilter: a file it answered names no API, so no rule
		 * can match there (results come back in input order) */
		char **cf = xcalloc(fl.n + 1, sizeof(*cf));
		size_t ncf = 0;
		for (size_t i = 0; i < fl.n; i++)
			if (st.rep.n != fl.n || !triage_is_prefiltered(st.rep.files[i]))
				cf[ncf++] = fl.paths[i];
		struct cocci_opts co = { .rules_dir = cocci_rules, .jobs = jobs, .rules = eo.rules,
					 .report_path = cocci_path, .data = e, .verbose = c.verbose };
		if (cocci_run(&co, cf, ncf, &st.rep)) {
			fprintf(stderr, "gfpaudit audit: --cocci: %s\n", err_last());
			exit_code = EXIT_TOOL;
		} else if (c.verbose) {
			fprintf(stderr, "gfpaudit: --cocci: spatch over %zu of %zu files\n", ncf, fl.n);
		}
		free(cf);
	}
	if (rc) {
		fprintf(stderr, "gfpaudit audit: %s\n", err_last());
		exit_code = EXIT_TOOL;
	} else {
		if (base) {
			struct baseline_stats bs;
			baseline_apply(base, &st.rep, &bs);
			if (!c.quiet || c.verbose)
				fprintf(stderr, "gfpaudit: baseline: %zu new, %zu unchanged, %zu resolved\n",
					bs.fresh, bs.unchanged, bs.resolved);
		}
		if (!strcmp(c.format, "json"))
			report_json(&st.rep, stdout);
		else if (!strcmp(c.format, "sarif"))
			report_sarif(&st.rep, stdout);
		else {
			st.rep.min_show = (enum severity)sev;
			report_text(&st.rep, stdout);
		}
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
		size_t np = report_partial(&st.rep);
		if (!c.quiet || c.verbose || np) {
			fprintf(stderr, "gfpaudit: %zu files analyzed (%zu with parse errors%s, %zu partially analyzed), "
				"%zu skipped, %zu failed; %zu findings at or above %s\n", a, st.with_errors,
				st.with_errors && !c.verbose ? ", -v says which" : "", np, s + fl.nproblems, f, nf,
				c.severity);
			size_t nall = report_findings_at_least(&st.rep, SEV_NOTE);
			if (nall > nf)
				fprintf(stderr, "gfpaudit: %zu more below %s (likely or possible costly orders: notes)%s\n",
					nall - nf, c.severity,
					strcmp(c.format, "text") ? "" : ": --severity note shows them");
			char *causes = report_error_causes(&st.rep, 3);
			if (causes)
				fprintf(stderr, "gfpaudit: top parse errors: %s\n", causes);
			free(causes);
		}
		if (exit_code == EXIT_TOOL)
			;
		else if (nf)
			exit_code = EXIT_FINDINGS;
		else if (f || s || np || fl.nproblems || listed == 0)
			exit_code = EXIT_TOOL;
	}
	report_release(&st.rep);
	g_hash_table_destroy(not_built);
	file_list_release(&fl);
	engine_free(e);
	baseline_free(base);
	return exit_code;
}
