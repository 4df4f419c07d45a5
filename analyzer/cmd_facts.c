/* gfpaudit facts: build the tree's facts in the cache (treefacts.h), or
 * print one key's joined value with the stores behind it. */
#include <getopt.h>
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

static void usage(FILE *f)
{
	fprintf(f,
"usage: gfpaudit facts --tree KDIR [options] [PATH...]\n"
"       gfpaudit facts --tree KDIR [--cache FILE] --key KEY [--format text|json]\n"
"\n"
"Build the tree's facts: audit every file the configuration builds (or the PATHs\n"
"given) with the fact base, and keep in the cache what each file stores into struct\n"
"fields and passes to functions.  An audit of part of the tree (files, a directory)\n"
"then joins the other files' facts from the cache and says so in its summary\n"
"(\"tree facts: N files from the cache\").  The cache is the audit's: same tree,\n"
"configuration, rules and tool.  Warm, a rebuild parses only what changed.\n"
"\n"
"  --tree KDIR          the prepared kernel tree (without it: the kernel-model\n"
"                       headers, and the PATHs are the tree)\n"
"  --cache FILE         the result cache (default as for audit); needed\n"
"  --key KEY            print the joined value of KEY (field:STRUCT.FIELD,\n"
"                       param:FUNCTION#N, param:FILE:FUNCTION#N), its provenance and every\n"
"                       store or call behind it, from the tree's facts; builds nothing\n"
"  --format FMT         text (default) or json, for --key\n"
"  --facts-passes N     as for audit (default 3)\n"
"  -j N, --timeout SEC, --memory-limit MIB, --no-pch, --all-files   as for audit\n"
"  -q, --quiet          no progress line\n"
"  --progress           progress lines on stderr also when it is not a terminal, one\n"
"                       every 5 s (the default when CI=true); --no-progress: not then\n"
"  -v, --verbose        where the files went, the facts passes\n"
"  -h, --help           this text\n");
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

int cmd_facts(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "cache", required_argument, NULL, 'C' },
		{ "key", required_argument, NULL, 'k' },
		{ "format", required_argument, NULL, 'f' },
		{ "facts-passes", required_argument, NULL, 'I' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "memory-limit", required_argument, NULL, 'm' },
		{ "no-pch", no_argument, NULL, 'w' },
		{ "all-files", no_argument, NULL, 'a' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "progress", no_argument, NULL, 'P' },
		{ "no-progress", no_argument, NULL, 'N' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct audit_args a;
	audit_args_init(&a);
	a.build_tree_facts = true;
	a.c.severity = "error";
	const char *key = NULL, *format = "text";
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "j:qvh", longopts, NULL)) != -1) {
		switch (opt) {
		case 't': a.c.tree = optarg; break;
		case 'C': a.cache = optarg; break;
		case 'k': key = optarg; break;
		case 'f': format = optarg; break;
		case 'I':
			if (cli_parse_int("facts", "--facts-passes", optarg, 1, 16, &a.facts_passes))
				goto bad_number;
			break;
		case 'T':
			if (cli_parse_int("facts", "--timeout", optarg, 1, CLI_TIMEOUT_MAX, &a.timeout))
				goto bad_number;
			break;
		case 'm':
			if (cli_parse_int("facts", "--memory-limit", optarg, 64, 1 << 24, &a.mem_mb))
				goto bad_number;
			break;
		case 'j':
			if (cli_parse_int("facts", "-j", optarg, 1, 256, &a.jobs))
				goto bad_number;
			break;
		case 'w': a.want_pch = 0; break;
		case 'a': a.all_files = 1; break;
		case 'q': a.c.quiet = 1; break;
		case 'P': a.progress = 1; break;
		case 'N': a.progress = 0; break;
		case 'v': a.c.verbose++; break;
		case 'h': usage(stdout); return EXIT_CLEAN;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (strcmp(format, "text") && strcmp(format, "json")) {
		fprintf(stderr, "gfpaudit facts: unknown format '%s' (text, json)\n", format);
		return EXIT_USAGE;
	}
	if (key)
		return optind < argc ? (fprintf(stderr, "gfpaudit facts: --key takes no PATH\n"), EXIT_USAGE)
				     : show_key(&a, key, format);
	char *tree_arg[1] = { (char *)a.c.tree };
	if (optind < argc) {
		a.paths = argv + optind;
		a.npaths = argc - optind;
	} else if (a.c.tree) {
		a.paths = tree_arg;
		a.npaths = 1;
	} else {
		fprintf(stderr, "gfpaudit facts: give --tree KDIR (or the PATHs that make the tree)\n");
		usage(stderr);
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
	int rc = audit_main(&a);
	free(root);
	return rc;
bad_number:
	fprintf(stderr, "%s\n", err_last());
	return EXIT_USAGE;
}
