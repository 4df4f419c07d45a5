/* cocci: parsing spatch's gfpaudit lines, merging into a report, and the
 * subprocess stage (against a stand-in spatch, so no coccinelle is needed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "harness.h"
#include "gfpaudit/cocci.h"
#include "gfpaudit/err.h"
#include "gfpaudit/source.h"
#include "gfpaudit/strbuf.h"

#define LINE1 "gfpaudit-cocci: {\"api\": \"alloc_pages\", \"column\": 9, \"file\": \"drivers/x.c\", " \
	"\"function\": \"ring_alloc\", \"gfp\": \"gfp\", \"line\": 26, \"message\": \"order-5 attempt\", " \
	"\"order\": \"5\", \"order_value\": 5, \"fallback\": \"lower-order\", \"rule\": \"costly-no-noretry\"}"

TEST(cocci_parse_line_finding)
{
	struct finding f;
	CHECK_EQ_INT(cocci_parse_line(LINE1, &f), 0);
	CHECK_EQ_STR(f.rule, "costly-no-noretry");
	CHECK_EQ_STR(f.source, "cocci");
	CHECK_EQ_STR(f.site.file, "drivers/x.c");
	CHECK_EQ_INT(f.site.line, 26);
	CHECK_EQ_INT(f.site.col, 9);
	CHECK_EQ_STR(f.site.function, "ring_alloc");
	CHECK_EQ_STR(f.site.api, "alloc_pages");
	CHECK_EQ_STR(f.site.gfp_expr, "gfp");
	CHECK(f.site.order.known && f.site.order.lo == 5 && f.site.order.hi == 5);
	CHECK_EQ_INT(f.site.fallback, FB_LOWER_ORDER);
	CHECK_EQ_INT(f.severity, SEV_WARNING);
	CHECK(f.fingerprint && strlen(f.fingerprint) == 16);
	finding_release(&f);
}

TEST(cocci_parse_line_severity_from_c_rule)
{
	struct finding f;
	CHECK_EQ_INT(cocci_parse_line("gfpaudit-cocci: {\"file\": \"a.c\", \"line\": 3, \"rule\": \"nofail-high-order\", "
				      "\"message\": \"m\"}", &f), 0);
	CHECK_EQ_INT(f.severity, SEV_ERROR);
	CHECK_EQ_INT(f.site.fallback, FB_UNKNOWN);
	CHECK(!f.site.order.known);
	finding_release(&f);
	CHECK_EQ_INT(cocci_parse_line("gfpaudit-cocci: {\"file\": \"a.c\", \"line\": 3, \"rule\": \"made-up-rule\"}", &f), 0);
	CHECK_EQ_INT(f.severity, SEV_WARNING);
	CHECK_EQ_STR(f.message, "");
	finding_release(&f);
}

TEST(cocci_parse_line_rejects)
{
	struct finding f;
	CHECK_EQ_INT(cocci_parse_line("a.c:3:4-9: WARNING: x [costly-no-fallback]", &f), GA_ENOTFOUND);
	CHECK_EQ_INT(cocci_parse_line("", &f), GA_ENOTFOUND);
	CHECK_EQ_INT(cocci_parse_line("gfpaudit-cocci: {\"file\": \"a.c\"", &f), GA_EINVAL);
	CHECK_EQ_INT(cocci_parse_line("gfpaudit-cocci: {\"file\": \"a.c\", \"rule\": \"x\"}", &f), GA_EINVAL);
	CHECK_EQ_INT(cocci_parse_line("gfpaudit-cocci: [1, 2]", &f), GA_EINVAL);
}

static struct finding make(const char *file, int line, const char *rule)
{
	struct finding f;
	finding_init(&f);
	f.rule = xstrdup(rule);
	f.site.file = xstrdup(file);
	f.site.line = line;
	f.source = xstrdup("clang");
	return f;
}

TEST(cocci_merge_dedups_by_file_line_rule)
{
	struct report rep;
	report_init(&rep);
	struct file_result *fr = xcalloc(1, sizeof(*fr));
	file_result_init(fr, "mm/a.c");
	struct finding *c = file_result_add_finding(fr);
	*c = make("mm/a.c", 10, "costly-no-noretry");
	report_add(&rep, fr);

	struct finding f = make("mm/a.c", 10, "costly-no-noretry");
	CHECK_EQ_INT(cocci_merge(&rep, &f), 0);          /* same file, line, rule */
	CHECK(f.rule == NULL);                             /* taken over */
	f = make("mm/a.c", 10, "costly-no-fallback");
	CHECK_EQ_INT(cocci_merge(&rep, &f), 1);          /* other rule */
	f = make("mm/a.c", 11, "costly-no-noretry");
	CHECK_EQ_INT(cocci_merge(&rep, &f), 1);          /* other line */
	f = make("mm/b.c", 10, "costly-no-noretry");
	CHECK_EQ_INT(cocci_merge(&rep, &f), 1);          /* other file: new result */
	REQUIRE_EQ_INT(rep.n, 2);
	CHECK_EQ_INT(rep.files[0]->nfindings, 3);
	CHECK_EQ_STR(rep.files[1]->file, "mm/b.c");
	CHECK_EQ_INT(rep.files[1]->status, FILE_ANALYZED);
	CHECK_EQ_INT(rep.files[1]->nfindings, 1);
	report_release(&rep);
}

/* A stand-in spatch: prints what the rules print under -D gfpaudit for each
 * file argument, and records its arguments. */
static char *fake_spatch(const char *dir, const char *body)
{
	char *path = xasprintf("%s/spatch", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return path;
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(path, 0755);
	return path;
}

static char *fake_rules(const char *dir)
{
	char *rules = xasprintf("%s/rules", dir);
	mkdir(rules, 0755);
	char *p = xasprintf("%s/one.cocci", rules);
	FILE *f = fopen(p, "w");
	if (f) {
		fprintf(f, "// Options: --no-includes --include-headers\nRULE = 'costly-no-noretry'\n");
		fclose(f);
	}
	free(p);
	p = xasprintf("%s/two.cocci", rules);
	f = fopen(p, "w");
	if (f) {
		fprintf(f, "// Options: --no-includes\nRULE = 'nofail-high-order'\n");
		fclose(f);
	}
	free(p);
	return rules;
}

static char *prefix_path(void *data, const char *path)
{
	return xasprintf("%s%s", (const char *)data, path);
}

TEST(cocci_run_spawns_and_merges)
{
	char tmpl[] = "/tmp/gfpaudit-cocci-XXXXXX";
	char *dir = mkdtemp(tmpl);
	REQUIRE(dir != NULL);
	char *log = xasprintf("%s/args", dir);
	struct strbuf body = STRBUF_INIT;
	strbuf_addf(&body, "echo \"$@\" >> %s\n"
		    "for a; do case $a in *.cocci) r=$(sed -n \"s/^RULE = '\\(.*\\)'/\\1/p\" $a);; *.c) f=$a;; esac; done\n"
		    "echo 'some other line'\n"
		    "echo \"gfpaudit-cocci: {\\\"file\\\": \\\"$f\\\", \\\"line\\\": 7, \\\"column\\\": 3, "
		    "\\\"rule\\\": \\\"$r\\\", \\\"api\\\": \\\"kmalloc\\\", \\\"message\\\": \\\"m\\\"}\"\n", log);
	char *spatch = fake_spatch(dir, body.buf);
	char *rules = fake_rules(dir);
	char *files[] = { "x.c" };
	struct report rep;
	report_init(&rep);
	struct cocci_opts o = { .spatch = spatch, .rules_dir = rules, .jobs = 2,
				.report_path = prefix_path, .data = "tree/" };
	CHECK_EQ_INT(cocci_run(&o, files, 1, &rep), 0);
	REQUIRE_EQ_INT(rep.n, 1);
	CHECK_EQ_STR(rep.files[0]->file, "tree/x.c");
	CHECK_EQ_INT(rep.files[0]->nfindings, 2);
	CHECK_EQ_STR(rep.files[0]->findings[0].site.file, "tree/x.c");
	CHECK_EQ_INT(rep.files[0]->findings[0].site.kind, API_SLAB);
	struct strbuf args = STRBUF_INIT;
	CHECK_EQ_INT(strbuf_read_file(&args, log, 1 << 20), 0);
	CHECK(strstr(args.buf, "-D gfpaudit --very-quiet --no-show-diff --no-includes --include-headers"));
	CHECK(!strstr(args.buf, "--jobs"));   /* one file: no parallel spatch */
	strbuf_release(&args);
	report_release(&rep);

	/* only the enabled rule runs (bit 2 = nofail-high-order in list.h) */
	report_init(&rep);
	o.rules = (uint64_t)1 << 2;
	CHECK_EQ_INT(cocci_run(&o, files, 1, &rep), 0);
	CHECK(rep.n == 1 && rep.files[0]->nfindings == 1 &&
	      !strcmp(rep.files[0]->findings[0].rule, "nofail-high-order"));
	report_release(&rep);
	o.rules = 0;

	/* spatch failing: the tool error carries its last stderr line */
	char *failing = fake_spatch(dir, "echo 'oops: cannot parse' >&2; exit 2");
	o.spatch = failing;
	report_init(&rep);
	CHECK_EQ_INT(cocci_run(&o, files, 1, &rep), GA_ETOOL);
	CHECK(strstr(err_last(), "oops: cannot parse") != NULL);
	report_release(&rep);

	o.spatch = "/nonexistent/spatch";
	report_init(&rep);
	CHECK_EQ_INT(cocci_run(&o, files, 1, &rep), GA_ETOOL);
	CHECK(strstr(err_last(), "not found") != NULL);
	report_release(&rep);

	o.spatch = spatch;
	o.rules_dir = dir; /* no .cocci files there */
	report_init(&rep);
	CHECK_EQ_INT(cocci_run(&o, files, 1, &rep), GA_EIO);
	report_release(&rep);

	char *cmd = xasprintf("rm -rf '%s'", dir);
	CHECK_EQ_INT(system(cmd), 0);
	free(cmd);
	free(failing);
	free(spatch);
	free(rules);
	free(log);
	strbuf_release(&body);
}

/* The tree's header constants reach spatch in GFPAUDIT_COCCI_CONSTANTS,
 * replacing a value the environment has; without them spatch gets the
 * environment as it is. */
TEST(cocci_run_hands_constants)
{
	struct tree_constants c = { .page_shift = 16, .costly_order = 3, .max_order = 13, .max_order_macro = -1,
				    .kmalloc_max_cache_size = 131072, .hpage_pmd_order = 13 };
	char *s = cocci_constants(&c);
	CHECK_EQ_STR(s, "PAGE_SHIFT=16 PAGE_ALLOC_COSTLY_ORDER=3 MAX_PAGE_ORDER=13 KMALLOC_MAX_CACHE_SIZE=131072 "
		     "HPAGE_PMD_ORDER=13");
	free(s);
	c.max_order_macro = 11;
	s = cocci_constants(&c);
	CHECK(strstr(s, " MAX_ORDER=11") != NULL);
	free(s);
	c.max_order_macro = -1;

	char tmpl[] = "/tmp/gfpaudit-cocci-XXXXXX";
	char *dir = mkdtemp(tmpl);
	REQUIRE(dir != NULL);
	char *log = xasprintf("%s/env", dir);
	char *body = xasprintf("printf '%%s|' \"$GFPAUDIT_COCCI_CONSTANTS\" >> %s; env | grep -c '^GFPAUDIT_COCCI_CONSTANTS=' >> %s",
			       log, log);
	char *spatch = fake_spatch(dir, body);
	char *rules = fake_rules(dir);
	char *files[] = { "x.c" };
	char *old = getenv(COCCI_CONSTANTS_ENV) ? xstrdup(getenv(COCCI_CONSTANTS_ENV)) : NULL;
	setenv(COCCI_CONSTANTS_ENV, "PAGE_SHIFT=12", 1);
	struct report rep;
	report_init(&rep);
	struct cocci_opts o = { .spatch = spatch, .rules_dir = rules, .constants = &c };
	CHECK_EQ_INT(cocci_run(&o, files, 1, &rep), 0);
	o.constants = NULL;
	CHECK_EQ_INT(cocci_run(&o, files, 1, &rep), 0);
	report_release(&rep);
	if (old)
		setenv(COCCI_CONSTANTS_ENV, old, 1);
	else
		unsetenv(COCCI_CONSTANTS_ENV);
	free(old);
	struct strbuf got = STRBUF_INIT;
	CHECK_EQ_INT(strbuf_read_file(&got, log, 1 << 20), 0);
	/* once in each spatch's environment (two rule files): the probed
	 * values, then the environment's */
#define PROBED "PAGE_SHIFT=16 PAGE_ALLOC_COSTLY_ORDER=3 MAX_PAGE_ORDER=13 KMALLOC_MAX_CACHE_SIZE=131072 HPAGE_PMD_ORDER=13"
	CHECK_EQ_STR(got.buf, PROBED "|1\n" PROBED "|1\nPAGE_SHIFT=12|1\nPAGE_SHIFT=12|1\n");
#undef PROBED
	strbuf_release(&got);

	char *cmd = xasprintf("rm -rf '%s'", dir);
	CHECK_EQ_INT(system(cmd), 0);
	free(cmd);
	free(spatch);
	free(rules);
	free(body);
	free(log);
}
