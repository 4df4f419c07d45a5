/* Joining runs: shards of one audit become one report (see report.h). */
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <jansson.h>
#include "gfpaudit/report.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

static struct file_result *file_of(struct report *r, GHashTable *by_name, const char *file,
				   enum file_status st)
{
	struct file_result *fr = g_hash_table_lookup(by_name, file);
	if (fr)
		return fr;
	fr = xcalloc(1, sizeof(*fr));
	file_result_init(fr, file);
	fr->status = st;
	report_add(r, fr);
	g_hash_table_insert(by_name, fr->file, fr);
	return fr;
}

static size_t count(const json_t *files, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(files, key));
	return v > 0 ? (size_t)v : 0;
}

int report_merge_json(struct report *r, const char *path)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	if (!root)
		return err_set(jerr.line < 1 ? GA_EIO : GA_EINVAL, "%s: %s", path, jerr.text);
	int rc = 0;
	const json_t *files = json_object_get(root, "files");
	if (json_object_get(root, "runs")) {
		rc = err_set(GA_EINVAL, "%s: a SARIF log; merge joins JSON runs (audit --format json)", path);
		goto out;
	}
	if (!json_is_array(json_object_get(root, "findings")) || !json_is_object(files)) {
		rc = err_set(GA_EINVAL, "%s: not a gfpaudit JSON run (no \"findings\" and \"files\")", path);
		goto out;
	}
	GHashTable *by_name = g_hash_table_new(g_str_hash, g_str_equal);
	for (size_t i = 0; i < r->n; i++)
		g_hash_table_insert(by_name, r->files[i]->file, r->files[i]);
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(root, "problems"), i, v) {
		const char *f = json_string_value(json_object_get(v, "file"));
		const char *st = json_string_value(json_object_get(v, "status"));
		const char *why = json_string_value(json_object_get(v, "reason"));
		if (!f)
			continue;
		bool partial = st && !strcmp(st, "partial");
		struct file_result *fr = file_of(r, by_name, f,
			partial ? FILE_ANALYZED : st && !strcmp(st, "failed") ? FILE_FAILED : FILE_SKIPPED);
		if (why && !fr->reason)
			fr->reason = xstrdup(why);
		if (partial && !fr->partial) {
			const char *fn = json_string_value(json_object_get(v, "function"));
			fr->partial = true;
			fr->partial_function = xstrdup(fn ? fn : "");
		}
		const char *cause = json_string_value(json_object_get(v, "error"));
		if (cause && !fr->error_cause) {
			fr->error_cause = xstrdup(cause);
			fr->parse_errors = fr->parse_errors ? fr->parse_errors : 1;
		}
	}
	json_array_foreach(json_object_get(root, "findings"), i, v) {
		struct finding tmp;
		if (finding_from_json(v, &tmp)) {
			finding_release(&tmp);
			rc = err_set(GA_EINVAL, "%s: finding %zu: %s", path, i, err_last());
			break;
		}
		struct file_result *fr = file_of(r, by_name, tmp.site.file ? tmp.site.file : "", FILE_ANALYZED);
		if (json_is_false(json_object_get(v, "in_config")))
			fr->not_in_config = true;
		*file_result_add_finding(fr) = tmp;
	}
	json_t *sites = json_object_get(root, "sites");
	if (json_is_array(sites))
		r->with_sites = true;
	json_array_foreach(sites, i, v) {
		struct site tmp;
		if (site_from_json(v, &tmp)) {
			site_release(&tmp);
			continue;
		}
		struct file_result *fr = file_of(r, by_name, tmp.file ? tmp.file : "", FILE_ANALYZED);
		*file_result_add_site(fr) = tmp;
	}
	json_t *res = json_object_get(root, "resolved");
	if (json_is_array(res))
		r->baseline = true;
	json_array_foreach(res, i, v) {
		struct finding tmp;
		if (finding_from_json(v, &tmp) == 0)
			report_add_resolved(r, &tmp);
		finding_release(&tmp);
	}
	g_hash_table_destroy(by_name);
	/* held as totals until report_merge_finish() */
	r->extra_analyzed += count(files, "analyzed");
	r->extra_skipped += count(files, "skipped");
	r->extra_failed += count(files, "failed");
	r->cached += count(files, "cached");
	r->prefiltered += count(files, "prefiltered");
out:
	json_decref(root);
	return rc;
}

/* Component by component: the order of scan's sorted directory walk. */
static int path_cmp(const char *a, const char *b)
{
	for (;;) {
		size_t la = strcspn(a, "/"), lb = strcspn(b, "/");
		size_t n = la < lb ? la : lb;
		int c = memcmp(a, b, n);
		if (c)
			return c;
		if (la != lb)
			return la < lb ? -1 : 1;
		if (!a[la] || !b[lb])
			return a[la] ? 1 : b[lb] ? -1 : 0;
		a += la + 1;
		b += lb + 1;
	}
}

static int cmp_files(const void *x, const void *y)
{
	const struct file_result *a = *(struct file_result *const *)x, *b = *(struct file_result *const *)y;
	return path_cmp(a->file, b->file);
}

void report_merge_finish(struct report *r)
{
	if (r->n > 1) /* qsort(NULL, 0) is undefined */
		qsort(r->files, r->n, sizeof(*r->files), cmp_files);
	size_t a = 0, s = 0, f = 0;
	for (size_t i = 0; i < r->n; i++)
		switch (r->files[i]->status) {
		case FILE_ANALYZED: a++; break;
		case FILE_SKIPPED: s++; break;
		case FILE_FAILED: f++; break;
		}
	r->extra_analyzed = r->extra_analyzed > a ? r->extra_analyzed - a : 0;
	r->extra_skipped = r->extra_skipped > s ? r->extra_skipped - s : 0;
	r->extra_failed = r->extra_failed > f ? r->extra_failed - f : 0;
}
