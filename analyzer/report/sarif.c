/* SARIF 2.1.0 printer.
 *
 * Mapping (why each choice):
 * - One run, tool.driver "gfpaudit" with every registered rule, so a result's
 *   ruleIndex is stable for a given binary and viewers can show rules that
 *   did not fire.
 * - Paths: relative paths go out as relative URIs with uriBaseId "SRCROOT";
 *   with --tree, run.originalUriBaseIds maps SRCROOT to the tree, so the
 *   log stays valid when the tree moves (shards from several machines).
 *   Absolute paths outside the tree become file:// URIs.
 * - partialFingerprints {"gfpaudit/v1": fingerprint}: the same stable id the
 *   JSON form carries, so baselines work across both formats.
 * - Fixes: each unified diff becomes artifactChanges/replacements.  A run of
 *   '-' lines replaced by '+' lines is the whole-line region startLine..
 *   endLine (no columns: the newline of the last line stays) with the new
 *   lines joined by "\n"; a pure deletion spans to column 1 of the line after
 *   the run; a pure insertion is an empty region at column 1.  A diff that
 *   cannot be mapped this way (file deletion, no newline at end) stays in
 *   result.properties.fixes with its text, because SARIF requires a fix to
 *   carry at least one artifactChange.
 * - Baselines: new findings carry baselineState "new"; the resolved ones are
 *   listed in run.properties.resolved (JSON finding form) rather than as
 *   "absent" results, which simple consumers would count as open alerts.
 * - Files that failed or were skipped become toolExecutionNotifications.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "gfpaudit/report.h"
#include "gfpaudit/check.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/version.h"

#define SARIF_SCHEMA "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
#define SRCROOT "SRCROOT"
#define FP_KEY "gfpaudit/v1"

static const char *level_of(enum severity s)
{
	switch (s) {
	case SEV_ERROR: return "error";
	case SEV_NOTE: return "note";
	default: return "warning";
	}
}

/* RFC 3986: keep unreserved characters and '/', escape the rest. */
static void uri_escape(struct strbuf *sb, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '.' || *p == '_' || *p == '~' || *p == '/') {
			strbuf_addc(sb, (char)*p);
		} else {
			strbuf_addc(sb, '%');
			strbuf_addc(sb, hex[*p >> 4]);
			strbuf_addc(sb, hex[*p & 15]);
		}
	}
}

struct ctx {
	char *root;        /* realpath of the tree with a trailing '/', or NULL */
	json_t *rules;     /* reportingDescriptor array */
	const char **ids;  /* rule id by index into rules */
	size_t nids, ids_alloc;
};

static json_t *artifact_location(const struct ctx *c, const char *file)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *o;
	if (!file)
		file = "";
	if (file[0] == '/' && c->root && !strncmp(file, c->root, strlen(c->root)))
		file += strlen(c->root);
	if (file[0] == '/') {
		strbuf_adds(&sb, "file://");
		uri_escape(&sb, file);
		o = json_pack("{s:s}", "uri", sb.buf);
	} else {
		while (file[0] == '.' && file[1] == '/')
			file += 2;
		uri_escape(&sb, file);
		o = json_pack("{s:s,s:s}", "uri", sb.buf, "uriBaseId", SRCROOT);
	}
	strbuf_release(&sb);
	return o;
}

static json_t *physical_location(const struct ctx *c, const char *file, int line, int col)
{
	json_t *pl = json_pack("{s:o}", "artifactLocation", artifact_location(c, file));
	if (line > 0) {
		json_t *reg = json_pack("{s:i}", "startLine", line);
		if (col > 0)
			json_object_set_new(reg, "startColumn", json_integer(col));
		json_object_set_new(pl, "region", reg);
	}
	return pl;
}

static const char *rule_help(const struct check *k)
{
	(void)k;
	return "gfpaudit reports where a page-allocator request can exceed "
	       "PAGE_ALLOC_COSTLY_ORDER and what the allocator's slow path will do with it "
	       "(direct compaction, reclaim, retries). The result's properties carry the "
	       "order range, the gfp flags every path sets (must) or may set, and the fallback "
	       "found; relatedLocations are the lines that set the order and the mask. Typical "
	       "fixes: add __GFP_NORETRY | __GFP_NOWARN to opportunistic costly attempts, clear "
	       "__GFP_DIRECT_RECLAIM above PAGE_ALLOC_COSTLY_ORDER, cap the order, or fall back "
	       "to smaller orders or kvmalloc. See the Rules section of gfpaudit's README.";
}

static json_t *rule_descriptor(const char *id, const char *summary, enum severity sev, const char *help)
{
	struct strbuf h = STRBUF_INIT;
	strbuf_addf(&h, "%s.\n\n%s", summary, help);
	json_t *d = json_pack("{s:s,s:s,s:{s:s},s:{s:s},s:{s:s}}",
			      "id", id, "name", id,
			      "shortDescription", "text", summary,
			      "help", "text", h.buf,
			      "defaultConfiguration", "level", level_of(sev));
	strbuf_release(&h);
	return d;
}

static void ctx_add_rule(struct ctx *c, const char *id, json_t *desc)
{
	ALLOC_GROW(c->ids, c->nids + 1, c->ids_alloc);
	c->ids[c->nids++] = id;
	json_array_append_new(c->rules, desc);
}

/* Index of `id` in the rule table; rules the table does not know (another
 * source such as Coccinelle) are appended on first use. */
static int rule_index(struct ctx *c, const struct finding *f)
{
	for (size_t i = 0; i < c->nids; i++)
		if (!strcmp(c->ids[i], f->rule))
			return (int)i;
	ctx_add_rule(c, f->rule, rule_descriptor(f->rule, f->rule, f->severity,
						 "Reported by an external rule source."));
	return (int)c->nids - 1;
}

/* ---- unified diff -> SARIF replacements ---- */

struct run {
	int start, ndel;
	struct strbuf ins;
	int nins;
	int active;
};

static void run_flush(struct run *r, json_t *repls)
{
	if (!r->active)
		return;
	json_t *reg;
	struct strbuf text = STRBUF_INIT;
	if (r->ndel > 0 && r->nins > 0) {
		/* whole lines start..end; the last newline stays in the file */
		reg = json_pack("{s:i,s:i}", "startLine", r->start, "endLine", r->start + r->ndel - 1);
		strbuf_add(&text, r->ins.buf, r->ins.len ? r->ins.len - 1 : 0);
	} else if (r->ndel > 0) {
		reg = json_pack("{s:i,s:i,s:i,s:i}", "startLine", r->start, "startColumn", 1,
				"endLine", r->start + r->ndel, "endColumn", 1);
	} else {
		reg = json_pack("{s:i,s:i,s:i,s:i}", "startLine", r->start, "startColumn", 1,
				"endLine", r->start, "endColumn", 1);
		strbuf_add(&text, r->ins.buf, r->ins.len);
	}
	json_t *rep = json_pack("{s:o}", "deletedRegion", reg);
	if (r->nins > 0)
		json_object_set_new(rep, "insertedContent", json_pack("{s:s}", "text", text.buf));
	json_array_append_new(repls, rep);
	strbuf_release(&text);
	strbuf_reset(&r->ins);
	r->active = r->ndel = r->nins = 0;
}

static int parse_hunk_header(const char *l, int *old_start)
{
	/* "@@ -a[,b] +c[,d] @@" */
	if (strncmp(l, "@@ -", 4))
		return -1;
	char *end;
	long a = strtol(l + 4, &end, 10);
	if (end == l + 4)
		return -1;
	*old_start = a > 0 ? (int)a : 1;
	return 0;
}

/* The end of one file's replacements: the last run, and the file's
 * artifactChange when it has any (repls is taken). */
static void file_changes_end(const struct ctx *c, json_t *changes, const char *path, struct run *run, json_t *repls)
{
	run_flush(run, repls);
	if (json_array_size(repls))
		json_array_append_new(changes, json_pack("{s:o,s:o}", "artifactLocation", artifact_location(c, path),
							 "replacements", repls));
	else
		json_decref(repls);
}

/* Returns the artifactChanges array, or NULL when the diff cannot be
 * expressed as line replacements. */
static json_t *diff_to_changes(const struct ctx *c, const char *diff)
{
	json_t *changes = json_array(), *repls = NULL;
	char *path = NULL;
	struct run run = { 0 };
	int old_line = 0, in_hunk = 0, ok = 1;
	strbuf_init(&run.ins);
	const char *p = diff;
	while (ok && p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *l = xstrndup(p, len);
		p = nl ? nl + 1 : NULL;
		if (!strncmp(l, "+++ ", 4)) {
			if (repls) {
				file_changes_end(c, changes, path, &run, repls);
				repls = NULL;
			}
			const char *f = l + 4;
			if (!strncmp(f, "b/", 2))
				f += 2;
			if (!strcmp(l + 4, "/dev/null"))
				ok = 0;
			free(path);
			path = xstrdup(f);
			char *tab = strchr(path, '\t'); /* "+++ b/x\t<date>" */
			if (tab)
				*tab = 0;
			repls = json_array();
			in_hunk = 0;
		} else if (!strncmp(l, "@@", 2)) {
			if (!repls || parse_hunk_header(l, &old_line)) {
				ok = 0;
			} else {
				run_flush(&run, repls);
				in_hunk = 1;
			}
		} else if (in_hunk && l[0] == '-') {
			if (!run.active) {
				run.active = 1;
				run.start = old_line;
			}
			if (run.nins) { /* '-' after '+': keep runs in diff order */
				run_flush(&run, repls);
				run.active = 1;
				run.start = old_line;
			}
			run.ndel++;
			old_line++;
		} else if (in_hunk && l[0] == '+') {
			if (!run.active) {
				run.active = 1;
				run.start = old_line;
			}
			strbuf_adds(&run.ins, l + 1);
			strbuf_addc(&run.ins, '\n');
			run.nins++;
		} else if (in_hunk && (l[0] == ' ' || len == 0)) {
			run_flush(&run, repls);
			old_line++;
		} else if (in_hunk && l[0] == '\\') {
			ok = 0; /* "\ No newline at end of file": not expressible by lines */
		}
		/* "diff --git", "index", "---" and other headers carry nothing we need */
		free(l);
	}
	if (ok && repls) {
		file_changes_end(c, changes, path, &run, repls);
		repls = NULL;
	}
	json_decref(repls);
	strbuf_release(&run.ins);
	free(path);
	if (!ok || !json_array_size(changes)) {
		json_decref(changes);
		return NULL;
	}
	return changes;
}

static json_t *result_of(struct ctx *c, const struct finding *f, bool baseline)
{
	const struct site *s = &f->site;
	int idx = rule_index(c, f);
	json_t *loc = json_pack("{s:o}", "physicalLocation", physical_location(c, s->file, s->line, s->col));
	if (s->function)
		json_object_set_new(loc, "logicalLocations",
				    json_pack("[{s:s,s:s}]", "name", s->function, "kind", "function"));
	json_t *res = json_pack("{s:s,s:i,s:s,s:{s:s},s:[o]}",
				"ruleId", f->rule, "ruleIndex", idx, "level", level_of(f->severity),
				"message", "text", f->message ? f->message : f->rule,
				"locations", loc);
	if (f->fingerprint)
		json_object_set_new(res, "partialFingerprints", json_pack("{s:s}", FP_KEY, f->fingerprint));
	if (baseline && !f->suppressed)
		json_object_set_new(res, "baselineState", json_string("new"));
	if (f->suppressed) {
		char *at = xasprintf("%s:%d", s->file, f->suppressed_line);
		json_object_set_new(res, "suppressions", json_pack("[{s:s,s:s,s:{s:s}}]", "kind", "inSource",
			"justification", f->suppressed, "properties", "at", at));
		free(at);
	}
	if (s->nev) {
		json_t *rel = json_array();
		for (size_t i = 0; i < s->nev; i++) {
			json_t *pl = physical_location(c, s->ev[i].file[0] ? s->ev[i].file : s->file,
						       s->ev[i].line, 0);
			json_array_append_new(rel, json_pack("{s:i,s:o,s:{s:s}}", "id", (int)i + 1,
							     "physicalLocation", pl,
							     "message", "text", s->ev[i].note));
		}
		json_object_set_new(res, "relatedLocations", rel);
	}
	/* the site facts, in the JSON form's field names */
	json_t *props = site_to_json(s);
	json_object_del(props, "file");
	json_object_del(props, "line");
	json_object_del(props, "column");
	json_object_del(props, "evidence");
	json_object_set_new(props, "source", json_string(f->source ? f->source : "clang"));
	if (f->fix_declined)
		json_object_set_new(props, "fix_declined", json_string(f->fix_declined));
	json_t *fixes = json_array(), *unmapped = json_array();
	for (size_t i = 0; i < f->nfixes; i++) {
		const struct fix *fx = &f->fixes[i];
		struct strbuf d = STRBUF_INIT;
		strbuf_adds(&d, fx->kind);
		if (fx->reason && *fx->reason)
			strbuf_addf(&d, ": %s", fx->reason);
		json_t *changes = fx->diff ? diff_to_changes(c, fx->diff) : NULL;
		if (changes)
			json_array_append_new(fixes, json_pack("{s:{s:s},s:o,s:{s:s,s:s}}",
				"description", "text", d.buf, "artifactChanges", changes,
				"properties", "kind", fx->kind, "diff", fx->diff));
		else
			json_array_append_new(unmapped, json_pack("{s:s,s:s,s:s}", "kind", fx->kind,
				"reason", fx->reason ? fx->reason : "", "diff", fx->diff ? fx->diff : ""));
		strbuf_release(&d);
	}
	if (json_array_size(fixes))
		json_object_set_new(res, "fixes", fixes);
	else
		json_decref(fixes);
	if (json_array_size(unmapped))
		json_object_set_new(props, "fixes", unmapped);
	else
		json_decref(unmapped);
	json_object_set_new(res, "properties", props);
	return res;
}

static json_t *notification_of(struct ctx *c, const struct file_result *fr)
{
	const char *what = fr->status == FILE_FAILED ? "failed" : fr->status == FILE_SKIPPED ? "skipped" : "partial";
	struct strbuf m = STRBUF_INIT;
	strbuf_addf(&m, "%s: %s: %s", fr->file, what, fr->reason ? fr->reason : "");
	json_t *n = json_pack("{s:{s:s},s:s,s:[{s:o}]}",
			      "message", "text", m.buf,
			      "level", fr->status == FILE_FAILED ? "error" : fr->partial ? "warning" : "note",
			      "locations", "physicalLocation", physical_location(c, fr->file, 0, 0));
	strbuf_release(&m);
	return n;
}

int report_sarif(const struct report *r, FILE *out)
{
	struct ctx c = { 0 };
	char buf[PATH_MAX];
	if (r->tree && realpath(r->tree, buf))
		c.root = xasprintf("%s/", strcmp(buf, "/") ? buf : "");
	c.rules = json_array();
	for (size_t i = 0; check_table[i]; i++)
		ctx_add_rule(&c, check_table[i]->id, rule_descriptor(check_table[i]->id,
			     check_table[i]->summary, check_table[i]->severity, rule_help(check_table[i])));

	json_t *results = json_array(), *notes = json_array();
	for (size_t i = 0; i < r->n; i++) {
		const struct file_result *fr = r->files[i];
		for (size_t k = 0; k < fr->nfindings; k++) {
			json_t *res = result_of(&c, &fr->findings[k], r->baseline);
			json_t *props = json_object_get(res, "properties");
			if (fr->not_in_config && json_is_object(props))
				json_object_set_new(props, "in_config", json_false());
			json_array_append_new(results, res);
		}
		for (size_t k = 0; k < fr->nsuppressed; k++)
			json_array_append_new(results, result_of(&c, &fr->suppressed[k], r->baseline));
		if (fr->status != FILE_ANALYZED || fr->partial)
			json_array_append_new(notes, notification_of(&c, fr));
	}
	size_t a, s, f;
	report_counts(r, &a, &s, &f);
	json_t *driver = json_pack("{s:s,s:s,s:s,s:o}", "name", "gfpaudit", "fullName",
				   gfpaudit_name_version, "version", gfpaudit_version,
				   "rules", c.rules);
	json_t *inv = json_pack("{s:b,s:o}", "executionSuccessful", f == 0,
				"toolExecutionNotifications", notes);
	json_t *props = json_pack("{s:{s:I,s:I,s:I,s:I,s:I}}", "files",
				  "analyzed", (json_int_t)a, "skipped", (json_int_t)s, "failed", (json_int_t)f,
				  "cached", (json_int_t)r->cached, "prefiltered", (json_int_t)r->prefiltered);
	if (r->baseline) {
		json_t *res = json_array();
		for (size_t i = 0; i < r->nresolved; i++)
			json_array_append_new(res, finding_to_json(&r->resolved[i]));
		json_object_set_new(props, "resolved", res);
	}
	json_t *run = json_pack("{s:{s:o},s:[o],s:o,s:o}", "tool", "driver", driver,
				"invocations", inv, "results", results, "properties", props);
	if (c.root) {
		struct strbuf u = STRBUF_INIT;
		strbuf_adds(&u, "file://");
		uri_escape(&u, c.root);
		json_object_set_new(run, "originalUriBaseIds",
				    json_pack("{s:{s:s}}", SRCROOT, "uri", u.buf));
		strbuf_release(&u);
	}
	json_t *root = json_pack("{s:s,s:s,s:[o]}", "$schema", SARIF_SCHEMA, "version", "2.1.0",
				 "runs", run);
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	free(c.ids);
	free(c.root);
	return rc ? err_set(GA_EIO, "cannot write SARIF") : 0;
}
