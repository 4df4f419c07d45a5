/* Shards and merge. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "gfpaudit/shard.h"
#include "gfpaudit/report.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "harness.h"

TEST(shard_parse_specs)
{
	int k = 0, n = 0;
	CHECK_EQ_INT(shard_parse("1/1", &k, &n), 0);
	CHECK(k == 1 && n == 1);
	CHECK_EQ_INT(shard_parse("3/8", &k, &n), 0);
	CHECK(k == 3 && n == 8);
	const char *bad[] = { "0/2", "3/2", "1/0", "1", "a/2", "1/2x", "/2", "1/", "-1/2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ_INT(shard_parse(bad[i], &k, &n), GA_EINVAL);
}

TEST(shard_pick_partitions)
{
	int per[5] = { 0 };
	for (int i = 0; i < 1000; i++) {
		char p[64];
		snprintf(p, sizeof(p), "drivers/net/x%d/file%d.c", i % 37, i);
		int in = 0;
		for (int k = 1; k <= 5; k++)
			if (shard_pick(p, k, 5)) {
				in++;
				per[k - 1]++;
			}
		CHECK_EQ_INT(in, 1);
	}
	for (int k = 0; k < 5; k++)
		CHECK(per[k] > 150 && per[k] < 250);
	for (int k = 1; k <= 4; k++)
		CHECK(shard_pick("./mm/filemap.c", k, 4) == shard_pick("mm/filemap.c", k, 4));
}

static struct file_result *fr(const char *file, enum file_status st, int nfind)
{
	struct file_result *r = xcalloc(1, sizeof(*r));
	file_result_init(r, file);
	r->status = st;
	if (st != FILE_ANALYZED)
		r->reason = xstrdup("why");
	for (int i = 0; i < nfind; i++) {
		struct finding *f = file_result_add_finding(r);
		f->rule = xstrdup("costly-no-fallback");
		f->message = xasprintf("m%d", i);
		f->site.file = xstrdup(file);
		f->site.line = 10 * (i + 1);
		f->site.function = xstrdup("fn");
		f->site.api = xstrdup("alloc_pages");
		f->fingerprint = finding_fingerprint(f->rule, &f->site);
	}
	return r;
}

static char *dump(struct report *r)
{
	char path[] = "/tmp/gfpaudit-merge-XXXXXX";
	FILE *f = fdopen(mkstemp(path), "w");
	report_json(r, f);
	fclose(f);
	return xstrdup(path);
}

TEST(merge_joins_shards_in_tree_order)
{
	/* shard A: mm/a.c (2 findings), net/z.c failed, 3 quiet files; B: mm-x/b.c, mm/sub/c.c */
	struct report a, b, m;
	report_init(&a);
	report_init(&b);
	report_add(&a, fr("net/z.c", FILE_FAILED, 0));
	report_add(&a, fr("mm/a.c", FILE_ANALYZED, 2));
	a.extra_analyzed = 3;
	a.prefiltered = 2;
	report_add(&b, fr("mm/sub/c.c", FILE_ANALYZED, 1));
	report_add(&b, fr("mm-x/b.c", FILE_SKIPPED, 0));
	b.cached = 1;
	char *pa = dump(&a), *pb = dump(&b);
	report_init(&m);
	CHECK_EQ_INT(report_merge_json(&m, pb), 0);
	CHECK_EQ_INT(report_merge_json(&m, pa), 0);
	report_merge_finish(&m);
	REQUIRE_EQ_INT(m.n, 4);
	CHECK_EQ_STR(m.files[0]->file, "mm/a.c");
	CHECK_EQ_STR(m.files[1]->file, "mm/sub/c.c");
	CHECK_EQ_STR(m.files[2]->file, "mm-x/b.c");
	CHECK_EQ_STR(m.files[3]->file, "net/z.c");
	CHECK_EQ_INT(m.files[0]->nfindings, 2);
	CHECK_EQ_INT(m.files[0]->findings[1].site.line, 20);
	CHECK_EQ_INT(m.files[2]->status, FILE_SKIPPED);
	CHECK_EQ_STR(m.files[3]->reason, "why");
	size_t an, sk, fa;
	report_counts(&m, &an, &sk, &fa);
	CHECK_EQ_INT(an, 5);  /* mm/a.c, mm/sub/c.c and 3 known by count */
	CHECK_EQ_INT(sk, 1);
	CHECK_EQ_INT(fa, 1);
	CHECK_EQ_INT(m.cached, 1);
	CHECK_EQ_INT(m.prefiltered, 2);
	CHECK_EQ_INT(report_findings_at_least(&m, SEV_NOTE), 3);
	/* merging one run gives that run back */
	struct report one;
	report_init(&one);
	CHECK_EQ_INT(report_merge_json(&one, pa), 0);
	report_merge_finish(&one);
	char *again = dump(&one);
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	strbuf_read_file(&x, pa, 0);
	strbuf_read_file(&y, again, 0);
	json_t *jx = json_loads(x.buf, 0, NULL), *jy = json_loads(y.buf, 0, NULL);
	/* the same content; the order of files is tree order in the merge */
	CHECK(json_equal(json_object_get(jx, "files"), json_object_get(jy, "files")));
	CHECK_EQ_INT(json_array_size(json_object_get(jy, "findings")), 2);
	json_decref(jx);
	json_decref(jy);
	strbuf_release(&x);
	strbuf_release(&y);
	unlink(again);
	free(again);
	report_release(&one);
	report_release(&a);
	report_release(&b);
	report_release(&m);
	unlink(pa);
	unlink(pb);
	free(pa);
	free(pb);
}

TEST(merge_rejects_sarif_and_junk)
{
	char path[] = "/tmp/gfpaudit-merge-XXXXXX";
	int fd = mkstemp(path);
	(void)!write(fd, "{\"version\": \"2.1.0\", \"runs\": []}", 32);
	close(fd);
	struct report r;
	report_init(&r);
	CHECK_EQ_INT(report_merge_json(&r, path), GA_EINVAL);
	CHECK(strstr(err_last(), "SARIF") != NULL);
	CHECK_EQ_INT(report_merge_json(&r, "/nonexistent.json"), GA_EIO);
	report_release(&r);
	unlink(path);
}
