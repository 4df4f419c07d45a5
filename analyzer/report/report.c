/* The run's results and the text and JSON printers. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "gfpaudit/report.h"
#include "gfpaudit/diag.h"
#include "gfpaudit/check.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/version.h"

void report_init(struct report *r) { memset(r, 0, sizeof(*r)); }

void report_release(struct report *r)
{
	for (size_t i = 0; i < r->n; i++)
		file_result_free(r->files[i]);
	free(r->files);
	for (size_t i = 0; i < r->nresolved; i++)
		finding_release(&r->resolved[i]);
	free(r->resolved);
	memset(r, 0, sizeof(*r));
}

void report_add_resolved(struct report *r, const struct finding *f)
{
	ALLOC_GROW(r->resolved, r->nresolved + 1, r->resolved_alloc);
	finding_copy(&r->resolved[r->nresolved++], f);
}

void report_add(struct report *r, struct file_result *fr)
{
	ALLOC_GROW(r->files, r->n + 1, r->alloc);
	r->files[r->n++] = fr;
}

void report_counts(const struct report *r, size_t *a, size_t *s, size_t *f)
{
	*a = r->extra_analyzed;
	*s = r->extra_skipped;
	*f = r->extra_failed;
	for (size_t i = 0; i < r->n; i++)
		switch (r->files[i]->status) {
		case FILE_ANALYZED: (*a)++; break;
		case FILE_SKIPPED: (*s)++; break;
		case FILE_FAILED: (*f)++; break;
		}
}

size_t report_partial(const struct report *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++)
		n += r->files[i]->status == FILE_ANALYZED && r->files[i]->partial;
	return n;
}

struct cause {
	char *key, *example;
	size_t n;
};

static int cmp_cause(const void *a, const void *b)
{
	const struct cause *x = a, *y = b;
	return x->n != y->n ? (x->n < y->n ? 1 : -1) : strcmp(x->key, y->key);
}

char *report_error_causes(const struct report *r, size_t top)
{
	struct cause *c = NULL;
	size_t n = 0, alloc = 0;
	for (size_t i = 0; i < r->n; i++) {
		const char *m = r->files[i]->error_cause;
		if (!m || !r->files[i]->parse_errors)
			continue;
		/* identifiers in quotes vary: 'X' groups them */
		struct strbuf k = STRBUF_INIT;
		for (const char *p = m; *p; p++) {
			const char *q = *p == '\'' ? strchr(p + 1, '\'') : NULL;
			if (q) {
				strbuf_adds(&k, "'X'");
				p = q;
			} else {
				strbuf_addc(&k, *p);
			}
		}
		size_t j = 0;
		while (j < n && strcmp(c[j].key, k.buf))
			j++;
		if (j == n) {
			ALLOC_GROW(c, n + 1, alloc);
			c[n++] = (struct cause){ strbuf_detach(&k), xasprintf("%s: %s", r->files[i]->file, m), 0 };
		} else {
			strbuf_release(&k);
		}
		c[j].n++;
	}
	if (!n)
		return NULL;
	qsort(c, n, sizeof(*c), cmp_cause);
	struct strbuf sb = STRBUF_INIT;
	for (size_t j = 0; j < n; j++) {
		if (j < top)
			strbuf_addf(&sb, "%s%zu x %s (e.g. %s)", j ? "; " : "", c[j].n, c[j].key, c[j].example);
		free(c[j].key);
		free(c[j].example);
	}
	free(c);
	return strbuf_detach(&sb);
}

size_t report_suppressed(const struct report *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++)
		n += r->files[i]->nsuppressed;
	return n;
}

char *report_rule_counts(const struct report *r, enum severity min)
{
	size_t nrules = check_count(), *n = xcalloc(nrules + 1, sizeof(*n)), total = 0;
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < r->files[i]->nfindings; k++) {
			const struct finding *f = &r->files[i]->findings[k];
			if (f->severity < min)
				continue;
			int x = check_lookup(f->rule);
			n[x < 0 ? nrules : (size_t)x]++;
			total++;
		}
	char *out = NULL;
	if (total) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "gfpaudit: findings by rule (at or above %s):\n", severity_name(min));
		for (size_t i = 0; i <= nrules; i++)
			if (n[i])
				strbuf_addf(&sb, "  %6zu  %s\n", n[i], i < nrules ? check_table[i]->id : "(other)");
		out = strbuf_detach(&sb);
	}
	free(n);
	return out;
}

size_t report_findings_at_least(const struct report *r, enum severity min)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < r->files[i]->nfindings; k++)
			if (r->files[i]->findings[k].severity >= min)
				n++;
	return n;
}

char *site_format_text(const struct site *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "'%s' in '%s': ", s->api, s->function ? s->function : "?");
	if (s->order.known)
		strbuf_addf(&sb, s->order.lo == s->order.hi ? "order %d" : "orders %d..%d", s->order.lo,
			    s->order.hi);
	else
		strbuf_adds(&sb, "order unknown");
	if ((s->kind == API_SLAB || s->kind == API_KV || s->kind == API_EXACT) && s->size.known) {
		if (s->size.lo == s->size.hi)
			strbuf_addf(&sb, ", size %lld", (long long)s->size.lo);
		else
			strbuf_addf(&sb, ", size %lld..%lld", (long long)s->size.lo, (long long)s->size.hi);
	}
	strbuf_adds(&sb, ", gfp ");
	gfp_bits_text(&sb, s->gfp);
	strbuf_addf(&sb, ", fallback %s", fallback_name(s->fallback));
	/* the classes, when the mask or the role differ by order (attempts.h) */
	for (size_t i = 0; s->natt > 1 && i < s->natt; i++) {
		const struct attempt *a = &s->att[i];
		strbuf_adds(&sb, i ? "; " : "; attempts: ");
		if (a->orders.known)
			strbuf_addf(&sb, a->orders.lo == a->orders.hi ? "order %d " : "orders %d..%d ", a->orders.lo,
				    a->orders.hi);
		strbuf_addf(&sb, "%s", attempt_role_name(a->role));
		if (a->when)
			strbuf_addf(&sb, " (%s)", a->when);
		strbuf_adds(&sb, ": gfp ");
		gfp_kernel_text(&sb, a->gfp.must, "0");
		if (s->gfp.may & ~a->gfp.may) { /* what this class can never have */
			strbuf_adds(&sb, ", never ");
			gfp_flags_text(&sb, s->gfp.may & ~a->gfp.may, " | ", "0");
		}
	}
	return strbuf_detach(&sb);
}

void report_print_finding(FILE *out, const struct diag_style *st, const struct finding *f)
{
	int i = check_lookup(f->rule);
	/* the phrase only when the finding is the rule's verdict on a site's order */
	const char *phrase = i >= 0 && f->site.order.known ? check_table[i]->headline : NULL;
	diag_print_finding(out, st, f->site.file, f->site.line, f->site.col, severity_name(f->severity),
			   f->message ? f->message : "", phrase, f->rule);
}

struct ev_ref {
	const struct evidence *e;
	const char *file; /* the evidence's file, the site's when it names none */
	bool own;         /* in the site's file */
	size_t i;         /* the order found: ties keep it */
};

static int cmp_evidence(const void *a, const void *b)
{
	const struct ev_ref *x = a, *y = b;
	if (x->own != y->own)
		return x->own ? -1 : 1;
	int c = strcmp(x->file, y->file);
	if (c || x->e->line != y->e->line)
		return c ? c : x->e->line < y->e->line ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* -v: the evidence in line order, the site's own file first, then the
 * other files (callers, the allocator's source) by name; each note starts
 * with its label (call, store, guard, caller, fallback, allocator). */
static void print_evidence(FILE *out, const struct diag_style *st, const struct site *s)
{
	struct ev_ref *v = xcalloc(s->nev ? s->nev : 1, sizeof(*v));
	for (size_t e = 0; e < s->nev; e++) {
		const char *f = s->ev[e].file[0] ? s->ev[e].file : s->file;
		v[e] = (struct ev_ref){ &s->ev[e], f, !strcmp(f, s->file), e };
	}
	qsort(v, s->nev, sizeof(*v), cmp_evidence);
	for (size_t e = 0; e < s->nev; e++)
		diag_print(out, st, v[e].file, v[e].e->line, 0, "note", v[e].e->note, NULL);
	free(v);
}

void report_text(const struct report *r, FILE *out)
{
	static const struct diag_style plain;
	const struct diag_style *st = r->style ? r->style : &plain;
	for (size_t i = 0; i < r->n; i++) {
		const struct file_result *fr = r->files[i];
		if (r->with_sites)
			for (size_t k = 0; k < fr->nsites; k++) {
				const struct site *x = &fr->sites[k];
				char *l = site_format_text(x);
				diag_print(out, st, x->file, x->line, x->col, "site", l, NULL);
				free(l);
			}
		for (size_t k = 0; k < fr->nfindings; k++) {
			const struct finding *f = &fr->findings[k];
			if (f->severity < r->min_show)
				continue;
			report_print_finding(out, st, f);
			if (r->with_evidence)
				print_evidence(out, st, &f->site);
			for (size_t x = 0; r->with_fixes && x < f->nfixes; x++) {
				char *m = xasprintf("candidate fix %zu (%s): %s", x + 1, f->fixes[x].kind,
						    f->fixes[x].reason);
				diag_print(out, st, f->site.file, f->site.line, f->site.col, "note", m, NULL);
				fputs(f->fixes[x].diff, out);
				free(m);
			}
			if (r->with_evidence && f->fix_declined) {
				char *m = xasprintf("no fix offered: %s", f->fix_declined);
				diag_print(out, st, f->site.file, f->site.line, f->site.col, "note", m, NULL);
				free(m);
			}
		}
		/* what a comment suppressed is listed with the sites, never dropped unseen */
		for (size_t k = 0; (r->with_sites || r->with_evidence) && k < fr->nsuppressed; k++) {
			const struct finding *f = &fr->suppressed[k];
			char *m = xasprintf("%s [%s] (line %d: %s)", f->message, f->rule, f->suppressed_line,
					    f->suppressed);
			diag_print(out, st, f->site.file, f->site.line, f->site.col, "suppressed", m, NULL);
			free(m);
		}
	}
}

int report_json(const struct report *r, FILE *out)
{
	json_t *root = json_object(), *fa = json_array(), *sa = json_array(), *su = json_array();
	size_t a, s, f;
	json_object_set_new(root, "tool", json_string("gfpaudit"));
	json_object_set_new(root, "version", json_string(gfpaudit_version));
	for (size_t i = 0; i < r->n; i++) {
		const struct file_result *fr = r->files[i];
		for (size_t k = 0; k < fr->nfindings; k++) {
			json_t *fj = finding_to_json(&fr->findings[k]);
			if (fr->not_in_config)
				json_object_set_new(fj, "in_config", json_false());
			json_array_append_new(fa, fj);
		}
		for (size_t k = 0; k < fr->nsuppressed; k++)
			json_array_append_new(su, finding_to_json(&fr->suppressed[k]));
		if (r->with_sites)
			for (size_t k = 0; k < fr->nsites; k++)
				json_array_append_new(sa, site_to_json(&fr->sites[k]));
	}
	json_object_set_new(root, "findings", fa);
	json_object_set_new(root, "suppressed", su);
	if (r->with_sites)
		json_object_set_new(root, "sites", sa);
	else
		json_decref(sa);
	report_counts(r, &a, &s, &f);
	json_object_set_new(root, "files", json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}", "analyzed", (json_int_t)a,
						     "skipped", (json_int_t)s, "failed", (json_int_t)f,
						     "cached", (json_int_t)r->cached,
						     "prefiltered", (json_int_t)r->prefiltered,
						     "partial", (json_int_t)report_partial(r)));
	if (r->facts_failed)
		json_object_set_new(json_object_get(root, "files"), "facts_failed", json_integer((json_int_t)r->facts_failed));
	json_t *fail = json_array();
	for (size_t i = 0; i < r->n; i++) {
		const struct file_result *fr = r->files[i];
		if (fr->status == FILE_ANALYZED && !fr->partial)
			continue;
		json_t *p = json_pack("{s:s,s:s,s:s}", "file", fr->file,
				      "status", fr->status == FILE_SKIPPED ? "skipped"
					      : fr->status == FILE_FAILED ? "failed" : "partial",
				      "reason", fr->reason ? fr->reason : "");
		if (fr->partial)
			json_object_set_new(p, "function", json_string(fr->partial_function ? fr->partial_function : ""));
		if (fr->error_cause)
			json_object_set_new(p, "error", json_string(fr->error_cause));
		json_array_append_new(fail, p);
	}
	json_object_set_new(root, "problems", fail);
	if (r->baseline) {
		json_t *res = json_array();
		for (size_t i = 0; i < r->nresolved; i++)
			json_array_append_new(res, finding_to_json(&r->resolved[i]));
		json_object_set_new(root, "resolved", res);
	}
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return rc ? err_set(GA_EIO, "cannot write JSON") : 0;
}
