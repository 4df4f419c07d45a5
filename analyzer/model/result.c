/* file_result lifecycle and the JSON wire form of sites and findings. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <glib.h>
#include "gfpaudit/result.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

void file_result_init(struct file_result *r, const char *file)
{
	memset(r, 0, sizeof(*r));
	r->file = xstrdup(file ? file : "");
}

void file_result_release(struct file_result *r)
{
	free(r->file);
	free(r->reason);
	free(r->error_cause);
	free(r->partial_function);
	for (size_t i = 0; i < r->nsites; i++)
		site_release(&r->sites[i]);
	free(r->sites);
	for (size_t i = 0; i < r->nfindings; i++)
		finding_release(&r->findings[i]);
	free(r->findings);
	for (size_t i = 0; i < r->nsuppressed; i++)
		finding_release(&r->suppressed[i]);
	free(r->suppressed);
	for (size_t i = 0; i < r->nincludes; i++)
		free(r->includes[i]);
	free(r->includes);
	for (size_t i = 0; i < r->nfacts; i++)
		free(r->facts[i].key);
	free(r->facts);
	if (r->fact_index)
		g_hash_table_destroy(r->fact_index);
	for (size_t i = 0; i < r->nconsulted; i++)
		free(r->consulted[i]);
	free(r->consulted);
	free(r->facts_digest);
	file_result_free(r->spec);
	free(r->deferred);
	free(r->deferred_ref);
	memset(r, 0, sizeof(*r));
}

static void push_fact(struct file_result *r, const char *key, struct interval iv, unsigned src, int line)
{
	ALLOC_GROW(r->facts, r->nfacts + 1, r->facts_alloc);
	struct fact_obs *o = &r->facts[r->nfacts++];
	o->key = xstrdup(key);
	o->iv = iv.known ? iv : iv_unknown();
	o->src = src;
	o->line = line;
}

void file_result_add_fact(struct file_result *r, const char *key, struct interval iv, unsigned src, int line)
{
	/* the same function is run more than once (callers' rounds, loops):
	 * one observation per key and line */
	if (!r->fact_index) {
		/* (re)built from what the result holds: a result read back
		 * drops its index (file_result_from_json) */
		r->fact_index = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
		for (size_t i = 0; i < r->nfacts; i++)
			g_hash_table_insert(r->fact_index, xasprintf("%d %s", r->facts[i].line, r->facts[i].key),
					    (void *)(uintptr_t)(i + 1));
	}
	char *k = xasprintf("%d %s", line, key);
	size_t at = (size_t)(uintptr_t)g_hash_table_lookup(r->fact_index, k);
	if (at) {
		free(k);
		struct fact_obs *o = &r->facts[at - 1];
		o->iv = o->iv.known && iv.known ? iv_join(o->iv, iv) : iv_unknown();
		o->src |= src;
		return;
	}
	g_hash_table_insert(r->fact_index, k, (void *)(uintptr_t)(r->nfacts + 1));
	push_fact(r, key, iv, src, line);
}

void file_result_free(struct file_result *r)
{
	if (!r)
		return;
	file_result_release(r);
	free(r);
}

struct site *file_result_add_site(struct file_result *r)
{
	ALLOC_GROW(r->sites, r->nsites + 1, r->sites_alloc);
	site_init(&r->sites[r->nsites]);
	return &r->sites[r->nsites++];
}

struct finding *file_result_add_finding(struct file_result *r)
{
	ALLOC_GROW(r->findings, r->nfindings + 1, r->findings_alloc);
	finding_init(&r->findings[r->nfindings]);
	return &r->findings[r->nfindings++];
}

/* ---- JSON ---- */

static json_t *flags_to_json(uint64_t set)
{
	json_t *a = json_array();
	for (int i = 0; i < GFPF__COUNT; i++)
		if (set & ((uint64_t)1 << i))
			json_array_append_new(a, json_string(gfp_flag_name(i)));
	return a;
}

static uint64_t flags_from_json(const json_t *a)
{
	uint64_t set = 0;
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v) {
		int f = json_is_string(v) ? gfp_flag_lookup(json_string_value(v)) : -1;
		if (f >= 0)
			set |= (uint64_t)1 << f;
	}
	return set;
}

static json_t *gfp_to_json(struct gfp_bits g)
{
	return json_pack("{s:o,s:o}", "must", flags_to_json(g.must), "may", flags_to_json(g.may & ~g.must));
}

static struct gfp_bits gfp_from_json(const json_t *j)
{
	struct gfp_bits g = gfp_unknown();
	if (!json_is_object(j))
		return g;
	g.must = flags_from_json(json_object_get(j, "must"));
	g.may = g.must | flags_from_json(json_object_get(j, "may"));
	return g;
}

static json_t *bound(bool known, long long v)
{
	return known ? json_integer(v) : json_null();
}

static json_t *str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static char *get_str(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

static long long get_int(const json_t *o, const char *key, long long dflt)
{
	const json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? json_integer_value(v) : dflt;
}

static json_t *at_json(const char *file, int line)
{
	char *t = xasprintf("%s:%d", file ? file : "", line);
	json_t *j = json_string(t);
	free(t);
	return j;
}

/* The line of a "file:line" string, 0 when there is none. */
static int at_line(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));
	const char *c = v ? strrchr(v, ':') : NULL;
	return c ? atoi(c + 1) : 0;
}

/* The file of a "file:line" string when it is not `self` (new), else NULL. */
static char *at_file(const json_t *o, const char *key, const char *self)
{
	const char *v = json_string_value(json_object_get(o, key));
	const char *c = v ? strrchr(v, ':') : NULL;
	if (!c || (self && strlen(self) == (size_t)(c - v) && !strncmp(v, self, (size_t)(c - v))))
		return NULL;
	return xstrndup(v, (size_t)(c - v));
}

static void site_fields_to_json(json_t *o, const struct site *s)
{
	json_object_set_new(o, "file", json_string(s->file ? s->file : ""));
	json_object_set_new(o, "line", json_integer(s->line));
	json_object_set_new(o, "column", json_integer(s->col));
	json_object_set_new(o, "function", str_or_null(s->function));
	json_object_set_new(o, "api", str_or_null(s->api));
	json_object_set_new(o, "kind", json_string(api_kind_name(s->kind)));
	json_object_set_new(o, "order", json_pack("{s:o,s:o}", "lo", bound(s->order.known, s->order.lo),
						  "hi", bound(s->order.known, s->order.hi)));
	if (s->kind == API_SLAB || s->kind == API_KV || s->kind == API_EXACT)
		json_object_set_new(o, "size", json_pack("{s:o,s:o}",
			"lo", bound(s->size.known, s->size.lo), "hi", bound(s->size.known, s->size.hi)));
	json_object_set_new(o, "gfp", gfp_to_json(s->gfp));
	json_t *att = json_array();
	for (size_t i = 0; i < s->natt; i++) {
		const struct attempt *a = &s->att[i];
		json_t *x = json_pack("{s:{s:o,s:o},s:s,s:o}",
			"orders", "lo", bound(a->orders.known, a->orders.lo), "hi", bound(a->orders.known, a->orders.hi),
			"role", attempt_role_name(a->role), "gfp", gfp_to_json(a->gfp));
		if (a->when)
			json_object_set_new(x, "when", json_string(a->when));
		json_array_append_new(att, x);
	}
	json_object_set_new(o, "attempts", att);
	json_object_set_new(o, "fallback", json_string(fallback_name(s->fallback)));
	if (s->fallback_line > 0)
		json_object_set_new(o, "fallback_at",
				    at_json(s->fallback_file ? s->fallback_file : s->file, s->fallback_line));
	json_object_set_new(o, "stall", json_string(stall_name(s->stall)));
	json_object_set_new(o, "contiguity", json_string(contiguity_name(s->contig)));
	if (s->contig_line > 0)
		json_object_set_new(o, "contiguity_at", at_json(s->file, s->contig_line));
	if (s->contig_why)
		json_object_set_new(o, "contiguity_why", json_string(s->contig_why));
	json_object_set_new(o, "gfp_expr", str_or_null(s->gfp_expr));
	json_object_set_new(o, "order_expr", str_or_null(s->order_expr));
	if (s->conf != CONF_NONE)
		json_object_set_new(o, "confidence", json_string(confidence_name(s->conf)));
	if (s->src) {
		/* the most telling kind first, with what it is and where */
		json_t *ss = json_array();
		int prim = src_primary(s->src);
		json_t *p = json_pack("{s:s}", "kind", src_kind_name((enum src_kind)prim));
		if (s->src_why) {
			json_object_set_new(p, "what", json_string(s->src_why));
			if (s->src_line > 0) {
				json_object_set_new(p, "file", json_string(s->file ? s->file : ""));
				json_object_set_new(p, "line", json_integer(s->src_line));
			}
		}
		json_array_append_new(ss, p);
		for (int k = 0; k < SRC_NKINDS; k++)
			if (k != prim && (s->src & (1u << k)))
				json_array_append_new(ss, json_pack("{s:s}", "kind", src_kind_name((enum src_kind)k)));
		json_object_set_new(o, "size_source", ss);
	}
	if (s->unknown_why)
		json_object_set_new(o, "unknown", json_string(s->unknown_why));
	json_t *ev = json_array();
	for (size_t i = 0; i < s->nev; i++)
		json_array_append_new(ev, json_pack("{s:s,s:i,s:s}", "file", s->ev[i].file,
						    "line", s->ev[i].line, "note", s->ev[i].note));
	json_object_set_new(o, "evidence", ev);
}

json_t *site_to_json(const struct site *s)
{
	json_t *o = json_object();
	site_fields_to_json(o, s);
	return o;
}

static struct interval interval_from_json(const json_t *j)
{
	const json_t *lo = json_object_get(j, "lo"), *hi = json_object_get(j, "hi");
	if (!json_is_integer(lo) || !json_is_integer(hi))
		return iv_unknown();
	return iv_range(json_integer_value(lo), json_integer_value(hi));
}

int site_from_json(const json_t *j, struct site *s)
{
	site_init(s);
	if (!json_is_object(j))
		return err_set(GA_EINVAL, "site is not a JSON object");
	s->file = get_str(j, "file");
	s->line = (int)get_int(j, "line", 0);
	s->col = (int)get_int(j, "column", 0);
	s->function = get_str(j, "function");
	s->api = get_str(j, "api");
	char *kind = get_str(j, "kind");
	s->kind = API_PAGES;
	for (int k = API_PAGES; kind && k <= API_WRAPPER; k++)
		if (!strcmp(kind, api_kind_name(k)))
			s->kind = k;
	free(kind);
	struct interval o = interval_from_json(json_object_get(j, "order"));
	s->order = (struct order_range){ (int)o.lo, (int)o.hi, o.known };
	if (json_object_get(j, "size"))
		s->size = interval_from_json(json_object_get(j, "size"));
	s->gfp = gfp_from_json(json_object_get(j, "gfp"));
	char *fb = get_str(j, "fallback");
	int fbk = fb ? fallback_lookup(fb) : -1;
	s->fallback = fbk < 0 ? FB_UNKNOWN : (enum fallback_kind)fbk;
	free(fb);
	s->fallback_line = at_line(j, "fallback_at");
	s->fallback_file = at_file(j, "fallback_at", s->file);
	const char *stall = json_string_value(json_object_get(j, "stall"));
	int stk = stall ? stall_lookup(stall) : -1;
	s->stall = stk < 0 ? STALL_MAYBE : (enum stall_kind)stk;
	const char *contig = json_string_value(json_object_get(j, "contiguity"));
	int ctk = contig ? contiguity_lookup(contig) : -1;
	s->contig = ctk < 0 ? CONTIG_UNKNOWN : (enum contiguity)ctk;
	s->contig_line = at_line(j, "contiguity_at");
	s->contig_why = get_str(j, "contiguity_why");
	const json_t *att = json_object_get(j, "attempts");
	if (json_array_size(att)) {
		size_t k;
		json_t *a;
		json_array_foreach(att, k, a) {
			struct interval ao = interval_from_json(json_object_get(a, "orders"));
			const char *role = json_string_value(json_object_get(a, "role"));
			const char *when = json_string_value(json_object_get(a, "when"));
			site_add_attempt(s, (struct order_range){ (int)ao.lo, (int)ao.hi, ao.known },
					 role && !strcmp(role, "last") ? ROLE_LAST : ROLE_FALLBACK,
					 gfp_from_json(json_object_get(a, "gfp")), when);
		}
	} else {
		/* JSON written before attempt classes: one mask for the attempts
		 * with a fallback ("gfp_fallback_attempts"), the site's for the rest */
		site_default_attempts(s);
		const json_t *old = json_object_get(j, "gfp_fallback_attempts");
		for (size_t k = 0; old && k < s->natt; k++)
			if (s->att[k].role == ROLE_FALLBACK)
				s->att[k].gfp = gfp_from_json(old);
	}
	s->gfp_expr = get_str(j, "gfp_expr");
	s->order_expr = get_str(j, "order_expr");
	char *conf = get_str(j, "confidence");
	int ck = conf ? confidence_lookup(conf) : -1;
	s->conf = ck < 0 ? CONF_NONE : (enum confidence)ck;
	free(conf);
	size_t si;
	json_t *sv;
	json_array_foreach(json_object_get(j, "size_source"), si, sv) {
		int k = src_kind_lookup(json_string_value(json_object_get(sv, "kind")));
		if (k < 0)
			continue;
		s->src |= 1u << k;
		const char *what = json_string_value(json_object_get(sv, "what"));
		if (si == 0 && what)
			site_set_source(s, s->src, what, (int)get_int(sv, "line", 0));
	}
	s->unknown_why = get_str(j, "unknown");
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(j, "evidence"), i, e) {
		const char *f = json_string_value(json_object_get(e, "file"));
		const char *n = json_string_value(json_object_get(e, "note"));
		site_add_evidence(s, f ? f : "", (int)get_int(e, "line", 0), n ? n : "");
	}
	return 0;
}

json_t *finding_to_json(const struct finding *f)
{
	json_t *o = json_object();
	json_object_set_new(o, "rule", json_string(f->rule));
	json_object_set_new(o, "severity", json_string(severity_name(f->severity)));
	site_fields_to_json(o, &f->site);
	json_object_set_new(o, "message", json_string(f->message ? f->message : ""));
	json_object_set_new(o, "source", json_string(f->source ? f->source : "clang"));
	json_object_set_new(o, "fingerprint", str_or_null(f->fingerprint));
	json_t *fx = json_array();
	for (size_t i = 0; i < f->nfixes; i++)
		json_array_append_new(fx, json_pack("{s:s,s:s,s:s}", "kind", f->fixes[i].kind,
						    "reason", f->fixes[i].reason, "diff", f->fixes[i].diff));
	json_object_set_new(o, "fixes", fx);
	if (f->fix_declined)
		json_object_set_new(o, "fix_declined", json_string(f->fix_declined));
	if (f->suppressed) {
		char *at = xasprintf("%s:%d", f->site.file ? f->site.file : "", f->suppressed_line);
		json_object_set_new(o, "suppressed", json_pack("{s:s,s:s}", "reason", f->suppressed, "at", at));
		free(at);
	}
	return o;
}

int finding_from_json(const json_t *j, struct finding *f)
{
	finding_init(f);
	if (!json_is_object(j) || !json_is_string(json_object_get(j, "rule")))
		return err_set(GA_EINVAL, "finding has no rule");
	int rc = site_from_json(j, &f->site);
	if (rc)
		return rc;
	f->rule = get_str(j, "rule");
	char *sev = get_str(j, "severity");
	int sv = sev ? severity_lookup(sev) : -1;
	f->severity = sv < 0 ? SEV_WARNING : (enum severity)sv;
	free(sev);
	f->message = get_str(j, "message");
	f->source = get_str(j, "source");
	f->fingerprint = get_str(j, "fingerprint");
	f->fix_declined = get_str(j, "fix_declined");
	const json_t *sup = json_object_get(j, "suppressed");
	if (json_is_object(sup) && json_is_string(json_object_get(sup, "reason"))) {
		f->suppressed = get_str(sup, "reason");
		const char *at = json_string_value(json_object_get(sup, "at"));
		const char *colon = at ? strrchr(at, ':') : NULL;
		f->suppressed_line = colon ? atoi(colon + 1) : 0;
	}
	if (!f->fingerprint)
		f->fingerprint = finding_fingerprint(f->rule, &f->site);
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(j, "fixes"), i, x) {
		const char *k = json_string_value(json_object_get(x, "kind"));
		const char *r = json_string_value(json_object_get(x, "reason"));
		const char *d = json_string_value(json_object_get(x, "diff"));
		if (k)
			finding_add_fix(f, k, r, d);
	}
	return 0;
}

static const char *const status_names[] = { "analyzed", "skipped", "failed" };

static json_t *strings_json(char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

json_t *file_result_to_json(const struct file_result *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "file", json_string(r->file));
	json_object_set_new(o, "status", json_string(status_names[r->status]));
	json_object_set_new(o, "reason", str_or_null(r->reason));
	json_object_set_new(o, "parse_errors", json_integer(r->parse_errors));
	if (r->error_cause)
		json_object_set_new(o, "error_cause", json_string(r->error_cause));
	if (r->partial)
		json_object_set_new(o, "partial_function", json_string(r->partial_function ? r->partial_function : ""));
	if (r->not_in_config)
		json_object_set_new(o, "in_config", json_false());
	json_t *s = json_array(), *f = json_array();
	for (size_t i = 0; i < r->nsites; i++)
		json_array_append_new(s, site_to_json(&r->sites[i]));
	for (size_t i = 0; i < r->nfindings; i++)
		json_array_append_new(f, finding_to_json(&r->findings[i]));
	json_object_set_new(o, "sites", s);
	json_object_set_new(o, "findings", f);
	if (r->nsuppressed) {
		json_t *sa = json_array();
		for (size_t i = 0; i < r->nsuppressed; i++)
			json_array_append_new(sa, finding_to_json(&r->suppressed[i]));
		json_object_set_new(o, "suppressed", sa);
	}
	if (r->nincludes)
		json_object_set_new(o, "includes", strings_json(r->includes, r->nincludes));
	if (r->nfacts) {
		/* [key, lo, hi, src, line]; lo/hi null when not known */
		json_t *fa = json_array();
		for (size_t i = 0; i < r->nfacts; i++) {
			const struct fact_obs *x = &r->facts[i];
			json_array_append_new(fa, json_pack("[s,o,o,i,i]", x->key,
				x->iv.known ? json_integer(x->iv.lo) : json_null(),
				x->iv.known ? json_integer(x->iv.hi) : json_null(), (int)x->src, x->line));
		}
		json_object_set_new(o, "facts", fa);
	}
	if (r->facts_digest) {
		json_object_set_new(o, "consulted", strings_json(r->consulted, r->nconsulted));
		json_object_set_new(o, "facts_digest", json_string(r->facts_digest));
	}
	if (r->spec)
		json_object_set_new(o, "speculative", file_result_to_json(r->spec));
	if (r->deferred) {
		/* the members read back and not parsed: as they were */
		json_error_t jerr;
		json_t *d = json_loads(r->deferred, 0, &jerr);
		if (json_is_object(d))
			json_object_update(o, d); /* over the empty "consulted" */
		json_decref(d);
	}
	return o;
}

static void read_deferrable(const json_t *j, struct file_result *r);

int file_result_from_json(const json_t *j, struct file_result **out)
{
	*out = NULL;
	if (!json_is_object(j))
		return err_set(GA_EINVAL, "file result is not a JSON object");
	struct file_result *r = xcalloc(1, sizeof(*r));
	file_result_init(r, json_string_value(json_object_get(j, "file")));
	const char *st = json_string_value(json_object_get(j, "status"));
	for (int i = 0; st && i < 3; i++)
		if (!strcmp(st, status_names[i]))
			r->status = i;
	r->reason = get_str(j, "reason");
	r->parse_errors = (int)get_int(j, "parse_errors", 0);
	r->error_cause = get_str(j, "error_cause");
	r->partial_function = get_str(j, "partial_function");
	r->partial = r->partial_function != NULL;
	r->not_in_config = json_is_false(json_object_get(j, "in_config"));
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(j, "sites"), i, v) {
		int rc = site_from_json(v, file_result_add_site(r));
		if (rc) {
			file_result_free(r);
			return rc;
		}
	}
	json_array_foreach(json_object_get(j, "findings"), i, v) {
		int rc = finding_from_json(v, file_result_add_finding(r));
		if (rc) {
			file_result_free(r);
			return rc;
		}
	}
	json_array_foreach(json_object_get(j, "suppressed"), i, v) {
		ALLOC_GROW(r->suppressed, r->nsuppressed + 1, r->suppressed_alloc);
		int rc = finding_from_json(v, &r->suppressed[r->nsuppressed++]);
		if (rc) {
			file_result_free(r);
			return rc;
		}
	}
	read_deferrable(j, r);
	const json_t *sp = json_object_get(j, "speculative");
	if (json_is_object(sp) && file_result_from_json(sp, &r->spec))
		err_clear(); /* a second judgement saves time, its loss nothing else */
	*out = r;
	return 0;
}

/* The members file_result_from_text may defer: includes, facts, consulted
 * (and facts_digest, which consulted goes with). */
static void read_deferrable(const json_t *j, struct file_result *r)
{
	size_t i;
	json_t *v;
	const json_t *inc = json_object_get(j, "includes");
	if (json_is_array(inc) && json_array_size(inc)) {
		r->includes = xcalloc(json_array_size(inc), sizeof(*r->includes));
		json_array_foreach(inc, i, v)
			if (json_is_string(v))
				r->includes[r->nincludes++] = xstrdup(json_string_value(v));
	}
	json_array_foreach(json_object_get(j, "facts"), i, v) {
		const char *key = json_string_value(json_array_get(v, 0));
		const json_t *lo = json_array_get(v, 1), *hi = json_array_get(v, 2);
		if (!key || !json_is_integer(json_array_get(v, 3)))
			continue;
		struct interval iv = json_is_integer(lo) && json_is_integer(hi)
			? iv_range(json_integer_value(lo), json_integer_value(hi)) : iv_unknown();
		/* the wire form is merged already: no index (it only merges a
		 * worker's repeated observations, and the parent holds
		 * thousands of results read back: a fifth of its heap was
		 * these indexes); file_result_add_fact builds one if needed */
		push_fact(r, key, iv, (unsigned)json_integer_value(json_array_get(v, 3)),
			  (int)json_integer_value(json_array_get(v, 4)));
	}
	if (!r->facts_digest)
		r->facts_digest = get_str(j, "facts_digest");
	const json_t *ca = json_object_get(j, "consulted");
	if (r->facts_digest && json_is_array(ca) && json_array_size(ca)) {
		r->consulted = xcalloc(json_array_size(ca), sizeof(*r->consulted));
		json_array_foreach(ca, i, v)
			if (json_is_string(v))
				r->consulted[r->nconsulted++] = xstrdup(json_string_value(v));
	}
}

/* The members a result read back keeps as text until asked for
 * (result.h deferred): most of its bytes, which a warm run never reads. */
static const char *const deferrable[] = { "includes", "facts", "consulted" };

struct json_t *file_result_json_take_deferrable(struct json_t *o)
{
	json_t *d = json_object();
	for (size_t i = 0; i < sizeof(deferrable) / sizeof(*deferrable); i++) {
		json_t *v = json_object_get(o, deferrable[i]);
		if (!v)
			continue;
		json_object_set(d, deferrable[i], v);
		json_object_del(o, deferrable[i]);
	}
	return d;
}

int file_result_load_deferred(struct file_result *r)
{
	if (!r->deferred && r->deferred_ref)
		return err_set(GA_EINVAL, "file result: its facts are still in the cache (store_load_deferred)");
	if (!r->deferred)
		return 0;
	json_error_t jerr;
	json_t *j = json_loads(r->deferred, 0, &jerr);
	free(r->deferred);
	free(r->deferred_ref);
	r->deferred = r->deferred_ref = NULL;
	if (!json_is_object(j)) {
		json_decref(j);
		return err_set(GA_EINVAL, "file result: its deferred members are not an object");
	}
	read_deferrable(j, r);
	json_decref(j);
	return 0;
}

/* ---- what the tree's facts can change (factpass.h) ---- */

/* A site that asked whether its function's callers cope with a failure
 * (callers.h), or whether a function of another file needs its memory
 * physically contiguous (usage.h), or a fix that asked who frees a type
 * (frees.h): what they say can change its fallback, contiguity or fix. */
static bool asks_callers(const struct file_result *r)
{
	for (size_t k = 0; k < r->nconsulted; k++)
		if (!strncmp(r->consulted[k], "fails:", 6) || !strncmp(r->consulted[k], "frees:", 6) ||
		    !strncmp(r->consulted[k], "contig:", 7))
			return true;
	return false;
}

/* A site whose size is unknown or only "possible": the facts can bound it;
 * or one that asked about its callers. */
bool file_result_wants_facts(const struct file_result *r)
{
	for (size_t i = 0; i < r->nsites; i++)
		if (r->sites[i].conf == CONF_POSSIBLE || !r->sites[i].order.known)
			return true;
	return asks_callers(r);
}

/* An observation a fact may bound: not a constant. */
bool file_result_publishes_open(const struct file_result *r)
{
	for (size_t i = 0; i < r->nfacts; i++)
		if (!r->facts[i].iv.known || (r->facts[i].src & ~(SRCB(CONST) | SRCB(CONFIG))))
			return true;
	return false;
}

bool file_result_facts_eligible(const struct file_result *r)
{
	return r->status == FILE_ANALYZED && r->facts_digest && (file_result_wants_facts(r) || file_result_publishes_open(r));
}
