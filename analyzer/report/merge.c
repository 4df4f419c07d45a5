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

static int merge_root(struct report *r, const char *path, json_t *root);

int report_merge_json(struct report *r, const char *path)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	if (!root)
		return err_set(jerr.line < 1 ? GA_EIO : GA_EINVAL, "%s: %s", path, jerr.text);
	int rc = merge_root(r, path, root);
	json_decref(root);
	return rc;
}

int report_merge_json_object(struct report *r, const char *name, json_t *root)
{
	json_incref(root);
	int rc = merge_root(r, name, root);
	json_decref(root);
	return rc;
}

static int merge_root(struct report *r, const char *path, json_t *root)
{
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

/* ---- one report over the runs of several configurations ----
 *
 * The runs audited the same source (so the same paths, lines and columns)
 * on different configurations: arches, page sizes, .configs.  A finding is
 * one (file, line, column, rule) whatever the configuration; it lists the
 * configurations that have it and, for each of the others, why not: the
 * site that configuration saw there ("order 0..0" with 64 KiB pages; from
 * runs with --sites), the file's problem there (failed, skipped, partial),
 * or no finding. */

static const char *jstr(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static char *loc_key(const json_t *o, const char *rule)
{
	return xasprintf("%s:%lld:%lld:%s", jstr(o, "file") ? jstr(o, "file") : "",
			 (long long)json_integer_value(json_object_get(o, "line")),
			 (long long)json_integer_value(json_object_get(o, "column")), rule ? rule : "");
}

static char *order_text(const json_t *o);

/* What configuration `run` says at the finding `f`'s place, owned. */
static char *why_not(const json_t *run, const json_t *f)
{
	const char *file = jstr(f, "file");
	json_int_t line = json_integer_value(json_object_get(f, "line"));
	json_int_t col = json_integer_value(json_object_get(f, "column"));
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(run, "problems"), i, v) {
		const char *pf = jstr(v, "file"), *st = jstr(v, "status");
		if (pf && file && !strcmp(pf, file) && st && strcmp(st, "partial"))
			return xasprintf("%s%s%s", st, jstr(v, "reason") ? ": " : "",
					 jstr(v, "reason") ? jstr(v, "reason") : "");
	}
	json_array_foreach(json_object_get(run, "sites"), i, v) {
		if (!jstr(v, "file") || !file || strcmp(jstr(v, "file"), file) ||
		    json_integer_value(json_object_get(v, "line")) != line ||
		    json_integer_value(json_object_get(v, "column")) != col)
			continue;
		return order_text(json_object_get(v, "order"));
	}
	json_array_foreach(json_object_get(run, "problems"), i, v) {
		const char *pf = jstr(v, "file"), *st = jstr(v, "status");
		if (pf && file && !strcmp(pf, file) && st && !strcmp(st, "partial"))
			return xstrdup("partially analyzed");
	}
	return xstrdup(json_is_array(json_object_get(run, "sites")) ? "no site" : "no finding");
}

static void max_counts(json_t *into, const json_t *files)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)files, k, v) {
		json_int_t old = json_integer_value(json_object_get(into, k));
		if (json_is_integer(v) && json_integer_value(v) >= old)
			json_object_set_new(into, k, json_integer(json_integer_value(v)));
	}
}

int report_configs_merge(const char *const *names, const char *const *paths, size_t n, json_t **out)
{
	*out = NULL;
	json_t **runs = xcalloc(n ? n : 1, sizeof(*runs));
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		json_error_t jerr;
		runs[i] = json_load_file(paths[i], 0, &jerr);
		if (!runs[i])
			rc = err_set(jerr.line < 1 ? GA_EIO : GA_EINVAL, "%s: %s", paths[i], jerr.text);
		else if (json_object_get(runs[i], "runs"))
			rc = err_set(GA_EINVAL, "%s: a SARIF log; merge joins JSON runs (audit --format json)", paths[i]);
		else if (!json_is_array(json_object_get(runs[i], "findings")) ||
			 !json_is_object(json_object_get(runs[i], "files")))
			rc = err_set(GA_EINVAL, "%s: not a gfpaudit JSON run (no \"findings\" and \"files\")", paths[i]);
		for (size_t k = 0; k < i && !rc; k++)
			if (!strcmp(names[k], names[i]))
				rc = err_set(GA_EINVAL, "configuration name '%s' given twice", names[i]);
	}
	if (rc)
		goto out;
	json_t *doc = json_object();
	json_object_set(doc, "tool", json_object_get(runs[0], "tool"));
	json_object_set(doc, "version", json_object_get(runs[0], "version"));
	json_t *cfgs = json_array(), *findings = json_array(), *sites = json_array(), *problems = json_array();
	json_t *files = json_object(), *by_cfg = json_object();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(cfgs, json_string(names[i]));
	GHashTable *fidx = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	GHashTable *sidx = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	bool any_sites = false;
	for (size_t i = 0; i < n; i++) {
		size_t k;
		json_t *v;
		json_array_foreach(json_object_get(runs[i], "findings"), k, v) {
			char *key = loc_key(v, jstr(v, "rule"));
			json_t *f = g_hash_table_lookup(fidx, key);
			if (!f) {
				f = json_deep_copy(v);
				json_object_set_new(f, "configurations", json_array());
				json_object_set_new(f, "orders", json_array());
				json_array_append_new(findings, f);
				g_hash_table_insert(fidx, key, f);
			} else {
				free(key);
			}
			json_array_append_new(json_object_get(f, "configurations"), json_string(names[i]));
			if (json_object_get(v, "order"))
				json_array_append_new(json_object_get(f, "orders"),
					json_pack("{s:s, s:O}", "configuration", names[i], "order", json_object_get(v, "order")));
		}
		json_t *ss = json_object_get(runs[i], "sites");
		any_sites |= json_is_array(ss);
		json_array_foreach(ss, k, v) {
			char *key = loc_key(v, jstr(v, "api"));
			json_t *s = g_hash_table_lookup(sidx, key);
			if (!s) {
				s = json_deep_copy(v);
				json_object_set_new(s, "configurations", json_array());
				json_array_append_new(sites, s);
				g_hash_table_insert(sidx, key, s);
			} else {
				free(key);
			}
			json_array_append_new(json_object_get(s, "configurations"), json_object_get(v, "order")
				? json_pack("{s:s, s:O}", "configuration", names[i], "order", json_object_get(v, "order"))
				: json_pack("{s:s}", "configuration", names[i]));
		}
		json_array_foreach(json_object_get(runs[i], "problems"), k, v) {
			json_t *p = json_deep_copy(v);
			json_object_set_new(p, "configuration", json_string(names[i]));
			json_array_append_new(problems, p);
		}
		max_counts(files, json_object_get(runs[i], "files"));
		json_object_set(by_cfg, names[i], json_object_get(runs[i], "files"));
	}
	/* where each finding is not, and why */
	size_t k;
	json_t *f;
	json_array_foreach(findings, k, f) {
		json_t *not_in = json_array();
		const json_t *in = json_object_get(f, "configurations");
		for (size_t i = 0; i < n; i++) {
			bool has = false;
			size_t j;
			json_t *c;
			json_array_foreach(in, j, c)
				has |= !strcmp(json_string_value(c), names[i]);
			if (has)
				continue;
			char *why = why_not(runs[i], f);
			json_array_append_new(not_in, json_pack("{s:s, s:s}", "configuration", names[i], "why", why));
			free(why);
		}
		json_object_set_new(f, "not_in", not_in);
	}
	json_object_set_new(doc, "configurations", cfgs);
	json_object_set_new(doc, "findings", findings);
	if (any_sites)
		json_object_set_new(doc, "sites", sites);
	else
		json_decref(sites);
	json_object_set_new(doc, "files", files);
	json_object_set_new(doc, "files_by_configuration", by_cfg);
	json_object_set_new(doc, "problems", problems);
	g_hash_table_destroy(fidx);
	g_hash_table_destroy(sidx);
	*out = doc;
out:
	for (size_t i = 0; i < n; i++)
		json_decref(runs[i]);
	free(runs);
	return rc;
}

/* "(x86_64, arm64-4k; not arm64-64k: order 0)" for a finding of the
 * merged document, owned. */
static char *order_text(const json_t *o)
{
	json_int_t lo = json_integer_value(json_object_get(o, "lo")), hi = json_integer_value(json_object_get(o, "hi"));
	if (!json_is_integer(json_object_get(o, "hi")))
		return xstrdup("order unknown");
	return lo == hi ? xasprintf("order %lld", (long long)lo) : xasprintf("order %lld..%lld", (long long)lo, (long long)hi);
}

char *report_configs_label(const json_t *finding)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	json_t *c;
	/* the order each configuration has, when they differ */
	const json_t *orders = json_object_get(finding, "orders");
	bool differ = false;
	json_array_foreach(orders, i, c)
		differ |= !json_equal(json_object_get(c, "order"), json_object_get(json_array_get(orders, 0), "order"));
	strbuf_adds(&sb, "(");
	json_array_foreach(json_object_get(finding, "configurations"), i, c) {
		strbuf_addf(&sb, "%s%s", i ? ", " : "", json_string_value(c));
		const json_t *o;
		size_t j;
		json_array_foreach(orders, j, o)
			if (differ && !strcmp(jstr(o, "configuration"), json_string_value(c))) {
				char *t = order_text(json_object_get(o, "order"));
				strbuf_addf(&sb, ": %s", t);
				free(t);
			}
	}
	json_array_foreach(json_object_get(finding, "not_in"), i, c)
		strbuf_addf(&sb, "%s%s: %s", i ? ", " : "; not ", jstr(c, "configuration"), jstr(c, "why"));
	strbuf_adds(&sb, ")");
	return strbuf_detach(&sb);
}

/* The merged document's finding at file:line:col with `rule`, or NULL. */
const json_t *report_configs_find(const json_t *doc, const char *file, long line, long col, const char *rule)
{
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(doc, "findings"), i, f) {
		const char *ff = jstr(f, "file"), *fr = jstr(f, "rule");
		if (ff && fr && !strcmp(ff, file) && !strcmp(fr, rule) &&
		    json_integer_value(json_object_get(f, "line")) == line &&
		    json_integer_value(json_object_get(f, "column")) == col)
			return f;
	}
	return NULL;
}
