/* Baselines (see baseline.h). */
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <jansson.h>
#include "gfpaudit/baseline.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct baseline {
	struct finding *f;
	size_t n, alloc;
};

size_t baseline_count(const struct baseline *b)
{
	return b->n;
}

void baseline_free(struct baseline *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n; i++)
		finding_release(&b->f[i]);
	free(b->f);
	free(b);
}

static struct finding *add(struct baseline *b)
{
	ALLOC_GROW(b->f, b->n + 1, b->alloc);
	finding_init(&b->f[b->n]);
	return &b->f[b->n++];
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A SARIF artifact URI back to the path gfpaudit reported. */
static char *uri_to_path(const char *uri)
{
	if (!strncmp(uri, "file://", 7))
		uri += 7;
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = uri; *p; p++) {
		int hi, lo;
		if (*p == '%' && (hi = hexval(p[1])) >= 0 && (lo = hexval(p[2])) >= 0) {
			strbuf_addc(&sb, (char)(hi * 16 + lo));
			p += 2;
		} else {
			strbuf_addc(&sb, *p);
		}
	}
	return strbuf_detach(&sb);
}

static const char *str(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static int load_sarif(struct baseline *b, const json_t *root)
{
	size_t i, k;
	json_t *run, *res;
	json_array_foreach(json_object_get(root, "runs"), i, run) {
		json_array_foreach(json_object_get(run, "results"), k, res) {
			const char *fp = str(json_object_get(res, "partialFingerprints"), "gfpaudit/v1");
			const char *rule = str(res, "ruleId");
			if (!fp || !rule)
				continue; /* another tool's result: nothing to match */
			struct finding *f = add(b);
			f->rule = xstrdup(rule);
			f->fingerprint = xstrdup(fp);
			const char *lvl = str(res, "level");
			f->severity = lvl && !strcmp(lvl, "error") ? SEV_ERROR :
				      lvl && !strcmp(lvl, "note") ? SEV_NOTE : SEV_WARNING;
			const char *msg = str(json_object_get(res, "message"), "text");
			f->message = xstrdup(msg ? msg : "");
			const json_t *loc = json_array_get(json_object_get(res, "locations"), 0);
			const json_t *pl = json_object_get(loc, "physicalLocation");
			const char *uri = str(json_object_get(pl, "artifactLocation"), "uri");
			f->site.file = uri_to_path(uri ? uri : "");
			const json_t *reg = json_object_get(pl, "region");
			f->site.line = (int)json_integer_value(json_object_get(reg, "startLine"));
			f->site.col = (int)json_integer_value(json_object_get(reg, "startColumn"));
			const char *fn = str(json_array_get(json_object_get(loc, "logicalLocations"), 0), "name");
			if (fn)
				f->site.function = xstrdup(fn);
			const json_t *props = json_object_get(res, "properties");
			if (str(props, "api"))
				f->site.api = xstrdup(str(props, "api"));
		}
	}
	return 0;
}

static int load_json(struct baseline *b, const json_t *root)
{
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(root, "findings"), i, v) {
		struct finding *f = add(b);
		if (finding_from_json(v, f)) {
			finding_release(f);
			b->n--;
		}
	}
	return 0;
}

int baseline_load(const char *path, struct baseline **out)
{
	*out = NULL;
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	if (!root)
		return err_set(jerr.line < 1 ? GA_EIO : GA_EINVAL, "baseline '%s': %s", path, jerr.text);
	struct baseline *b = xcalloc(1, sizeof(*b));
	int rc;
	if (json_is_array(json_object_get(root, "runs")))
		rc = load_sarif(b, root);
	else if (json_is_array(json_object_get(root, "findings")))
		rc = load_json(b, root);
	else
		rc = err_set(GA_EINVAL, "baseline '%s' is neither gfpaudit JSON nor SARIF", path);
	json_decref(root);
	if (rc) {
		baseline_free(b);
		return rc;
	}
	*out = b;
	return 0;
}

void baseline_apply(const struct baseline *b, struct report *r, struct baseline_stats *out)
{
	struct baseline_stats st = { 0 };
	/* fingerprint -> how many of the baseline's findings are still unmatched */
	GHashTable *left = g_hash_table_new(g_str_hash, g_str_equal);
	for (size_t i = 0; i < b->n; i++) {
		const char *fp = b->f[i].fingerprint;
		if (fp)
			g_hash_table_insert(left, (gpointer)fp,
					    GSIZE_TO_POINTER(GPOINTER_TO_SIZE(g_hash_table_lookup(left, fp)) + 1));
	}
	GHashTable *audited = g_hash_table_new(g_str_hash, g_str_equal);
	for (size_t i = 0; i < r->n; i++) {
		struct file_result *fr = r->files[i];
		if (fr->status == FILE_ANALYZED)
			g_hash_table_add(audited, fr->file);
		size_t keep = 0;
		for (size_t k = 0; k < fr->nfindings; k++) {
			struct finding *f = &fr->findings[k];
			size_t n = f->fingerprint ? GPOINTER_TO_SIZE(g_hash_table_lookup(left, f->fingerprint)) : 0;
			if (n) {
				g_hash_table_insert(left, f->fingerprint, GSIZE_TO_POINTER(n - 1));
				st.unchanged++;
				finding_release(f);
				continue;
			}
			st.fresh++;
			if (keep != k)
				fr->findings[keep] = *f;
			keep++;
		}
		fr->nfindings = keep;
	}
	/* the baseline's unmatched findings, last ones first per fingerprint */
	for (size_t i = b->n; i-- > 0; ) {
		const struct finding *f = &b->f[i];
		size_t n = f->fingerprint ? GPOINTER_TO_SIZE(g_hash_table_lookup(left, f->fingerprint)) : 0;
		if (!n || !f->site.file || !g_hash_table_contains(audited, f->site.file))
			continue;
		g_hash_table_insert(left, f->fingerprint, GSIZE_TO_POINTER(n - 1));
		report_add_resolved(r, f);
		st.resolved++;
	}
	/* keep the baseline's order in the output */
	for (size_t i = 0, j = r->nresolved; i < j / 2; i++) {
		struct finding t = r->resolved[i];
		r->resolved[i] = r->resolved[j - 1 - i];
		r->resolved[j - 1 - i] = t;
	}
	r->baseline = true;
	g_hash_table_destroy(left);
	g_hash_table_destroy(audited);
	if (out)
		*out = st;
}
