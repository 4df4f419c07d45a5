/* SARIF printer: structure, paths, fingerprints and fixes built from diffs.
 * (Schema validation of the same output is in tests/t20-scale.sh.) */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "gfpaudit/check.h"
#include "gfpaudit/report.h"
#include "harness.h"
#include "gfpaudit/strbuf.h"

static struct finding *add_finding(struct file_result *fr, const char *rule, int line, const char *fn)
{
	struct finding *f = file_result_add_finding(fr);
	f->rule = xstrdup(rule);
	f->severity = SEV_WARNING;
	f->message = xasprintf("'%s' may stall", fn);
	f->site.file = xstrdup(fr->file);
	f->site.line = line;
	f->site.col = 9;
	f->site.function = xstrdup(fn);
	f->site.api = xstrdup("alloc_pages");
	f->site.gfp_expr = xstrdup("GFP_KERNEL");
	f->site.order_expr = xstrdup("order");
	f->site.order = (struct order_range){ 0, 9, true };
	site_add_evidence(&f->site, "", line - 3, "order: order = min(order, MAX_ORDER)");
	f->fingerprint = finding_fingerprint(rule, &f->site);
	return f;
}

static json_t *render(const struct report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc = report_sarif(r, m);
	fclose(m);
	json_error_t e;
	json_t *j = rc ? NULL : json_loadb(buf, len, 0, &e);
	free(buf);
	return j;
}

static const char fix_diff[] =
	"diff --git a/mm/x.c b/mm/x.c\n"
	"--- a/mm/x.c\n"
	"+++ b/mm/x.c\n"
	"@@ -40,5 +40,6 @@ static struct page *grab(int order)\n"
	" \tstruct page *page;\n"
	" \n"
	"-\tpage = alloc_pages(GFP_KERNEL, order);\n"
	"+\tpage = alloc_pages(GFP_KERNEL | __GFP_NORETRY |\n"
	"+\t\t\t   __GFP_NOWARN, order);\n"
	" \tif (!page)\n"
	"@@ -60,3 +61,2 @@\n"
	" \tfoo();\n"
	"-\tbar();\n"
	" \tbaz();\n"
	"@@ -70,2 +70,3 @@\n"
	" \tfoo();\n"
	"+\tqux();\n"
	" \tbaz();\n";

TEST(sarif_structure_and_fixes)
{
	struct report r;
	report_init(&r);
	struct file_result *fr = xcalloc(1, sizeof(*fr));
	file_result_init(fr, "mm/x.c");
	struct finding *f = add_finding(fr, "costly-no-noretry", 42, "grab");
	finding_add_fix(f, "add-noretry", "the attempt has a fallback", fix_diff);
	finding_add_fix(f, "cap-order", "no newline", "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n");
	report_add(&r, fr);
	struct file_result *bad = xcalloc(1, sizeof(*bad));
	file_result_init(bad, "drivers/a b.c");
	bad->status = FILE_FAILED;
	bad->reason = xstrdup("analyzer crashed");
	report_add(&r, bad);

	json_t *j = render(&r);
	REQUIRE(j != NULL);
	CHECK_EQ_STR(json_string_value(json_object_get(j, "version")), "2.1.0");
	json_t *run = json_array_get(json_object_get(j, "runs"), 0);
	json_t *rules = json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "rules");
	CHECK_EQ_INT(json_array_size(rules), check_count());
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(rules, 0), "id")), check_table[0]->id);
	CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(json_array_get(rules, 0),
		"shortDescription"), "text")), check_table[0]->summary);

	json_t *res = json_array_get(json_object_get(run, "results"), 0);
	CHECK_EQ_STR(json_string_value(json_object_get(res, "ruleId")), "costly-no-noretry");
	CHECK_EQ_INT(json_integer_value(json_object_get(res, "ruleIndex")), check_lookup("costly-no-noretry"));
	CHECK_EQ_STR(json_string_value(json_object_get(res, "level")), "warning");
	CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(res, "partialFingerprints"), "gfpaudit/v1")),
		     f->fingerprint);
	CHECK(json_object_get(res, "baselineState") == NULL);
	json_t *pl = json_object_get(json_array_get(json_object_get(res, "locations"), 0), "physicalLocation");
	CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(pl, "artifactLocation"), "uri")), "mm/x.c");
	CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(pl, "artifactLocation"), "uriBaseId")), "SRCROOT");
	CHECK_EQ_INT(json_integer_value(json_object_get(json_object_get(pl, "region"), "startLine")), 42);
	CHECK_EQ_INT(json_integer_value(json_object_get(json_object_get(pl, "region"), "startColumn")), 9);
	CHECK_EQ_INT(json_array_size(json_object_get(res, "relatedLocations")), 1);

	/* fix 1 maps to three replacements; fix 2 cannot be mapped */
	json_t *fixes = json_object_get(res, "fixes");
	CHECK_EQ_INT(json_array_size(fixes), 1);
	json_t *ch = json_array_get(json_object_get(json_array_get(fixes, 0), "artifactChanges"), 0);
	CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(ch, "artifactLocation"), "uri")), "mm/x.c");
	json_t *reps = json_object_get(ch, "replacements");
	CHECK_EQ_INT(json_array_size(reps), 3);
	json_t *r0 = json_array_get(reps, 0), *reg0 = json_object_get(r0, "deletedRegion");
	CHECK_EQ_INT(json_integer_value(json_object_get(reg0, "startLine")), 42);
	CHECK_EQ_INT(json_integer_value(json_object_get(reg0, "endLine")), 42);
	CHECK(json_object_get(reg0, "startColumn") == NULL);
	CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(r0, "insertedContent"), "text")),
		     "\tpage = alloc_pages(GFP_KERNEL | __GFP_NORETRY |\n\t\t\t   __GFP_NOWARN, order);");
	json_t *reg1 = json_object_get(json_array_get(reps, 1), "deletedRegion");
	CHECK_EQ_INT(json_integer_value(json_object_get(reg1, "startLine")), 61);
	CHECK_EQ_INT(json_integer_value(json_object_get(reg1, "endLine")), 62);
	CHECK_EQ_INT(json_integer_value(json_object_get(reg1, "endColumn")), 1);
	CHECK(json_object_get(json_array_get(reps, 1), "insertedContent") == NULL);
	json_t *r2 = json_array_get(reps, 2), *reg2 = json_object_get(r2, "deletedRegion");
	CHECK_EQ_INT(json_integer_value(json_object_get(reg2, "startLine")), 71);
	CHECK_EQ_INT(json_integer_value(json_object_get(reg2, "endLine")), 71);
	CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(r2, "insertedContent"), "text")), "\tqux();\n");
	json_t *unm = json_object_get(json_object_get(res, "properties"), "fixes");
	CHECK_EQ_INT(json_array_size(unm), 1);
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(unm, 0), "kind")), "cap-order");
	CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(res, "properties"), "api")), "alloc_pages");

	/* the failed file: a notification, uri escaped, execution not successful */
	json_t *inv = json_array_get(json_object_get(run, "invocations"), 0);
	CHECK(json_is_false(json_object_get(inv, "executionSuccessful")));
	json_t *n0 = json_array_get(json_object_get(inv, "toolExecutionNotifications"), 0);
	CHECK_EQ_STR(json_string_value(json_object_get(n0, "level")), "error");
	CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(json_object_get(
		json_array_get(json_object_get(n0, "locations"), 0), "physicalLocation"), "artifactLocation"), "uri")),
		"drivers/a%20b.c");
	CHECK(json_object_get(run, "originalUriBaseIds") == NULL);
	json_decref(j);
	report_release(&r);
}

TEST(sarif_tree_root_and_baseline)
{
	struct report r;
	report_init(&r);
	r.tree = "/";
	r.baseline = true;
	struct file_result *fr = xcalloc(1, sizeof(*fr));
	file_result_init(fr, "/abs/path/x.c");
	add_finding(fr, "costly-no-fallback", 7, "f");
	add_finding(fr, "cocci-only-rule", 9, "g");
	report_add(&r, fr);
	struct finding gone;
	finding_init(&gone);
	gone.rule = xstrdup("costly-no-noretry");
	gone.site.file = xstrdup("mm/old.c");
	gone.fingerprint = xstrdup("00112233");
	report_add_resolved(&r, &gone);
	finding_release(&gone);
	json_t *j = render(&r);
	CHECK(j != NULL);
	json_t *run = json_array_get(json_object_get(j, "runs"), 0);
	CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(json_object_get(run,
		"originalUriBaseIds"), "SRCROOT"), "uri")), "file:///");
	json_t *res = json_object_get(run, "results");
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(res, 0), "baselineState")), "new");
	/* under the root: relative to it */
	json_t *al = json_object_get(json_object_get(json_array_get(json_object_get(json_array_get(res, 0),
		"locations"), 0), "physicalLocation"), "artifactLocation");
	CHECK_EQ_STR(json_string_value(json_object_get(al, "uri")), "abs/path/x.c");
	/* a rule the table does not know is added to the rule list */
	json_t *rules = json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "rules");
	CHECK_EQ_INT(json_array_size(rules), check_count() + 1);
	CHECK_EQ_INT(json_integer_value(json_object_get(json_array_get(res, 1), "ruleIndex")), check_count());
	json_t *resolved = json_object_get(json_object_get(run, "properties"), "resolved");
	CHECK_EQ_INT(json_array_size(resolved), 1);
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(resolved, 0), "fingerprint")), "00112233");
	json_decref(j);
	report_release(&r);
}
