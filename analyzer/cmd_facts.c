/* gfpaudit facts: build the tree's facts in the cache (treefacts.h), or
 * print one key's joined value with the stores behind it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>
#include "cmd.h"
#include "gfpaudit/audit.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/engine.h"
#include "gfpaudit/err.h"
#include "gfpaudit/factpass.h"
#include "gfpaudit/facts.h"
#include "gfpaudit/provenance.h"
#include "gfpaudit/store.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/treefacts.h"
#include "gfpaudit/triage.h"

static void usage(FILE *f, const struct cli_option *opts)
{
	fprintf(f,
"usage: gfpaudit facts --tree KDIR [options] [PATH...]\n"
"       gfpaudit facts --tree KDIR [--cache FILE] --key KEY [--format text|json]\n"
"       gfpaudit facts [--cache FILE] --import CACHE...\n"
"\n"
"Build the tree's facts: audit every file the configuration builds (or the PATHs\n"
"given) with the fact base, and keep in the cache what each file stores into struct\n"
"fields and passes to functions.  An audit of part of the tree (files, a directory)\n"
"then joins the other files' facts from the cache and says so in its summary\n"
"(\"tree facts: N files from the cache\").  The cache is the audit's: same tree,\n"
"configuration, rules and tool.  Warm, a rebuild parses only what changed.\n"
"\n"
"Across machines: each one builds a shard's facts (--shard K/N) in its own cache;\n"
"--import copies the facts of those caches into one, and audits of the shards\n"
"against a copy of it join the whole tree's facts (\"Across machines\" in README.md).\n"
"\n");
	cli_print_options(f, opts);
	cli_print_setup(f, "CI=true (--progress)");
	fprintf(f, "\n"
"exit: 0 built (or the key printed, found or not), 2 usage, unprepared tree or facts\n"
"not built (--key), 3 files that failed to analyze or a cache that cannot be used\n");
}

static void print_kinds(struct strbuf *sb, unsigned src)
{
	const char *sep = "";
	for (int k = 0; k < SRC_NKINDS; k++)
		if (src & (1u << k)) {
			strbuf_addf(sb, "%s%s", sep, src_kind_name((enum src_kind)k));
			sep = ",";
		}
	if (!*sep)
		strbuf_adds(sb, "-");
}

static json_t *kinds_json(unsigned src)
{
	json_t *a = json_array();
	for (int k = 0; k < SRC_NKINDS; k++)
		if (src & (1u << k))
			json_array_append_new(a, json_string(src_kind_name((enum src_kind)k)));
	return a;
}

static void print_iv(struct strbuf *sb, struct interval iv)
{
	if (!iv.known)
		strbuf_adds(sb, "unbounded");
	else if (iv.lo == iv.hi)
		strbuf_addf(sb, "%lld", (long long)iv.lo);
	else
		strbuf_addf(sb, "%lld..%lld", (long long)iv.lo, (long long)iv.hi);
}

/* Is observation key `ok` part of what `key` joins (itself, or its
 * ".*" / "#*" wildcard)? */
static bool joins_into(const char *key, const char *ok)
{
	if (!strcmp(key, ok))
		return true;
	size_t n = strlen(ok);
	if (n < 2 || ok[n - 1] != '*' || (ok[n - 2] != '.' && ok[n - 2] != '#'))
		return false;
	const char *sep = ok[n - 2] == '.' ? strrchr(key, '.') : strrchr(key, '#');
	return sep && (size_t)(sep - key) == n - 2 && !strncmp(key, ok, n - 2);
}

static int print_key(const char *key, const char *format, const struct treefacts *tf)
{
	struct factbase *fb = factpass_join(tf->files, tf->n, NULL, 0);
	struct fact_value v;
	bool have = factbase_get(fb, key, &v);
	struct strbuf sb = STRBUF_INIT;
	bool json = !strcmp(format, "json");
	json_t *o = json ? json_object() : NULL, *stores = json ? json_array() : NULL;
	if (json) {
		json_object_set_new(o, "key", json_string(key));
		json_object_set_new(o, "found", json_boolean(have));
		if (have) {
			json_object_set_new(o, "known", json_boolean(v.iv.known));
			json_object_set_new(o, "lo", v.iv.known ? json_integer(v.iv.lo) : json_null());
			json_object_set_new(o, "hi", v.iv.known ? json_integer(v.iv.hi) : json_null());
			json_object_set_new(o, "provenance", kinds_json(v.src));
			json_object_set_new(o, "observations", json_integer(v.nobs));
		}
		json_object_set_new(o, "tree_facts", json_pack("{s:s,s:I}", "root", tf->root ? tf->root : "",
							       "files", (json_int_t)tf->rows));
	} else if (have) {
		char *p = xprintable(key);
		strbuf_addf(&sb, "%s: ", p);
		free(p);
		print_iv(&sb, v.iv);
		strbuf_adds(&sb, " (");
		print_kinds(&sb, v.src);
		strbuf_addf(&sb, "; %u observation%s)\n", v.nobs, v.nobs == 1 ? "" : "s");
	} else {
		char *p = xprintable(key);
		strbuf_addf(&sb, "%s: nothing in the tree's facts stores into it or passes it (%zu files)\n", p, tf->rows);
		free(p);
	}
	for (size_t i = 0; have && i < tf->n; i++)
		for (size_t k = 0; k < tf->files[i]->nfacts; k++) {
			const struct fact_obs *x = &tf->files[i]->facts[k];
			if (!joins_into(key, x->key))
				continue;
			if (json) {
				json_t *s = json_pack("{s:s,s:i,s:s}", "file", tf->files[i]->file, "line", x->line, "key", x->key);
				json_object_set_new(s, "lo", x->iv.known ? json_integer(x->iv.lo) : json_null());
				json_object_set_new(s, "hi", x->iv.known ? json_integer(x->iv.hi) : json_null());
				json_object_set_new(s, "provenance", kinds_json(x->src));
				json_array_append_new(stores, s);
				continue;
			}
			char *p = xprintable(tf->files[i]->file);
			strbuf_addf(&sb, "  %s:%d: ", p, x->line);
			free(p);
			print_iv(&sb, x->iv);
			strbuf_adds(&sb, " (");
			print_kinds(&sb, x->src);
			strbuf_adds(&sb, ")");
			if (strcmp(x->key, key))
				strbuf_addf(&sb, " via %s", x->key);
			strbuf_adds(&sb, "\n");
		}
	if (json) {
		json_object_set_new(o, "stores", stores);
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		fputc('\n', stdout);
		json_decref(o);
	} else {
		fputs(sb.buf, stdout);
	}
	strbuf_release(&sb);
	factbase_free(fb);
	return EXIT_CLEAN;
}

/* --key: the tree's facts as the cache holds them for this tree and tool. */
static int show_key(struct audit_args *a, const char *key, const char *format)
{
	struct engine_opts eo;
	a->c.config_from = a->c.tree;
	if (cli_engine_opts(&a->c, &eo)) {
		fprintf(stderr, "gfpaudit facts: %s\n", err_last());
		return EXIT_USAGE;
	}
	eo.pch = a->want_pch && a->c.tree;
	eo.pch_optional = true;
	eo.collect_facts = true;
	struct engine *e = NULL;
	int rc = engine_new(&eo, &e);
	if (rc) {
		fprintf(stderr, "gfpaudit facts: %s\n", err_last());
		return rc == GA_ETREE || rc == GA_EINVAL ? EXIT_USAGE : EXIT_TOOL;
	}
	char *cache = a->cache ? xstrdup(a->cache) : store_default_path();
	struct triage_opts to = { .engine = e, .eo = &eo, .cache_path = cache };
	struct triage *tri = NULL;
	struct treefacts tf = { 0 };
	int exit_code = EXIT_CLEAN;
	if (!cache || triage_new(&to, &tri)) {
		fprintf(stderr, "gfpaudit facts: %s\n", cache ? err_last() : "no cache (set --cache)");
		exit_code = EXIT_TOOL;
	} else if (treefacts_load(triage_cache(tri), triage_context(tri), NULL, 0, &tf)) {
		fprintf(stderr, "gfpaudit facts: %s\n", err_last());
		exit_code = EXIT_TOOL;
	} else if (!tf.built) {
		fprintf(stderr, "gfpaudit facts: the tree's facts are not built for this tree and tool; "
			"run 'gfpaudit facts --tree %s' first\n", a->c.tree ? a->c.tree : "KDIR");
		exit_code = EXIT_USAGE;
	} else {
		if (tf.stale)
			fprintf(stderr, "gfpaudit facts: %zu files changed since the facts were built: left out\n",
				tf.stale);
		exit_code = print_key(key, format, &tf);
	}
	treefacts_release(&tf);
	triage_free(tri);
	free(cache);
	engine_free(e);
	return exit_code;
}

/* The directory all PATHs lie in (their real paths' common prefix). */
static char *common_root(char **paths, int n)
{
	char *root = NULL;
	for (int i = 0; i < n; i++) {
		char real[PATH_MAX];
		if (!realpath(paths[i], real))
			continue;
		if (!root) {
			root = xstrdup(real);
			continue;
		}
		size_t k = 0;
		while (root[k] && root[k] == real[k])
			k++;
		if (root[k] || (real[k] && real[k] != '/')) {
			while (k > 0 && root[k] != '/')
				k--;
			root[k ? k : 1] = 0;
		}
	}
	struct stat st;
	if (root && stat(root, &st) == 0 && !S_ISDIR(st.st_mode)) {
		char *slash = strrchr(root, '/');
		if (slash)
			slash[slash == root ? 1 : 0] = 0;
	}
	return root;
}

/* --import: the tree's facts of other caches into `cache` (default path). */
static int import_caches(const char *cache, char **srcs, int n, int quiet)
{
	if (n < 1) {
		fprintf(stderr, "gfpaudit facts: --import needs the cache files to import\n");
		return EXIT_USAGE;
	}
	char *path = cache ? xstrdup(cache) : store_default_path();
	struct store *s = NULL;
	if (!path || store_open(path, &s)) {
		fprintf(stderr, "gfpaudit facts: %s\n", path ? err_last() : "no cache (set --cache)");
		free(path);
		return EXIT_TOOL;
	}
	int exit_code = EXIT_CLEAN;
	for (int i = 0; i < n; i++) {
		struct store_import_stats st;
		int rc = store_import(s, srcs[i], &st);
		if (rc) {
			fprintf(stderr, "gfpaudit facts: %s\n", err_last());
			exit_code = rc == GA_ENOTFOUND || rc == GA_EINVAL ? EXIT_USAGE : EXIT_TOOL;
			break;
		}
		if (!quiet)
			fprintf(stderr, "gfpaudit facts: %s: %zu file%s of tree facts, %zu results and %zu judged "
				"results imported into %s%s\n", srcs[i], st.tree_rows, st.tree_rows == 1 ? "" : "s",
				st.results, st.judged, path, st.skipped ? " (rows of other versions left out)" : "");
	}
	if (store_close(s) && exit_code == EXIT_CLEAN) {
		fprintf(stderr, "gfpaudit facts: %s\n", err_last());
		exit_code = EXIT_TOOL;
	}
	free(path);
	return exit_code;
}

int cmd_facts(int argc, char **argv)
{
	struct audit_args a;
	audit_args_init(&a);
	a.build_tree_facts = true;
	a.c.severity = "error";
	const char *key = NULL, *format = "text";
	int import = 0;
	const struct cli_option opts[] = {
		CLI_STRING(0, "tree", &a.c.tree, "KDIR",
			"the prepared kernel tree (without it: the kernel-model\n"
			"headers, and the PATHs are the tree)"),
		CLI_STRING(0, "cache", &a.cache, "FILE", "the result cache (default as for audit); needed"),
		CLI_STRING(0, "key", &key, "KEY",
			"print the joined value of KEY (field:STRUCT.FIELD,\n"
			"param:FUNCTION#N, param:FILE:FUNCTION#N), its provenance and every\n"
			"store or call behind it, from the tree's facts; builds nothing"),
		CLI_CHOICE(0, "format", &format, "FMT", "text|json", "text (default) or json, for --key"),
		CLI_INT(0, "facts-passes", &a.facts_passes, "N", 1, 16, "as for audit (default 3)"),
		CLI_CALLBACK(0, "shard", &a, "K/N", audit_opt_shard,
			"build the facts of shard K of N (as audit --shard), added to\n"
			"those the cache holds"),
		CLI_SET(0, "import", &import, 1,
			"copy the caches given as operands (other machines', shards',\n"
			"a CI run's) into --cache: the tree's facts and the results\n"
			"this version wrote; builds nothing"),
		CLI_INT('j', NULL, &a.jobs, "N", 1, 256, "worker processes (default: number of CPUs)"),
		CLI_INT(0, "timeout", &a.timeout, "SEC", 1, CLI_TIMEOUT_MAX,
			"give up on one file after SEC seconds (default 300)"),
		CLI_INT(0, "memory-limit", &a.mem_mb, "MIB", 64, 1 << 24,
			"address-space limit of each worker, on top of what it\n"
			"inherits from the parent (default 4096)"),
		CLI_SET(0, "no-pch", &a.want_pch, 0, "parse without the precompiled kernel headers"),
		CLI_SET(0, "all-files", &a.all_files, 1,
			"also the files the configuration does not build"),
		CLI_SET('q', "quiet", &a.c.quiet, 1, "no progress line"),
		CLI_SET(0, "progress", &a.progress, 1,
			"progress lines on stderr also when it is not a terminal, one\n"
			"every 5 s (the default when CI=true); --no-progress: not then"),
		CLI_SET(0, "no-progress", &a.progress, 0, NULL),
		CLI_COUNT('v', "verbose", &a.c.verbose, "where the files went, the facts passes"),
		CLI_HELP(),
		CLI_END(),
	};
	int rc, first = cli_parse_options("facts", opts, argc, argv, usage, &rc);
	if (first < 0)
		return rc;
	if (import)
		return key || a.shard_n ? (fprintf(stderr, "gfpaudit facts: --import takes no --key or --shard\n"), EXIT_USAGE)
					: import_caches(a.cache, argv + first, argc - first, a.c.quiet);
	if (key)
		return first < argc ? (fprintf(stderr, "gfpaudit facts: --key takes no PATH\n"), EXIT_USAGE)
				     : show_key(&a, key, format);
	char *tree_arg[1] = { (char *)a.c.tree };
	if (first < argc) {
		a.paths = argv + first;
		a.npaths = argc - first;
	} else if (a.c.tree) {
		a.paths = tree_arg;
		a.npaths = 1;
	} else {
		fprintf(stderr, "gfpaudit facts: give --tree KDIR (or the PATHs that make the tree)\n");
		usage(stderr, opts);
		return EXIT_USAGE;
	}
	char *root = NULL;
	if (a.c.tree) {
		char real[PATH_MAX];
		root = xstrdup(realpath(a.c.tree, real) ? real : a.c.tree);
	} else {
		root = common_root(a.paths, a.npaths);
	}
	a.facts_root = root;
	rc = audit_main(&a);
	free(root);
	return rc;
}
