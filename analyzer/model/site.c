#include <stdlib.h>
#include <string.h>
#include "gfpaudit/site.h"
#include "gfpaudit/finding.h"
#include "gfpaudit/strbuf.h"

static const char *const fb_names[] = {
	[FB_NONE] = "none", [FB_ORDER_LOOP] = "order-loop", [FB_LOWER_ORDER] = "lower-order",
	[FB_VMALLOC] = "vmalloc", [FB_KVMALLOC] = "kvmalloc", [FB_UNKNOWN] = "unknown",
	[FB_CALLER_SMALLER] = "caller-smaller", [FB_CALLER_PATH] = "caller-other-path",
	[FB_CALLER_OFF] = "caller-feature-off", [FB_OTHER_PATH] = "other-path",
	[FB_FEATURE_OFF] = "feature-off",
};

const char *fallback_name(enum fallback_kind k)
{
	return (unsigned)k < sizeof(fb_names) / sizeof(fb_names[0]) ? fb_names[k] : "unknown";
}

bool fallback_catches(enum fallback_kind k)
{
	switch (k) {
	case FB_LOWER_ORDER:
	case FB_VMALLOC:
	case FB_KVMALLOC:
	case FB_CALLER_SMALLER:
	case FB_CALLER_PATH:
	case FB_CALLER_OFF:
	case FB_OTHER_PATH:
	case FB_FEATURE_OFF:
		return true;
	default:
		return false;
	}
}

int fallback_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof(fb_names) / sizeof(fb_names[0]); i++)
		if (!strcmp(fb_names[i], name))
			return (int)i;
	return -1;
}

static const char *const stall_names[] = { [STALL_MAYBE] = "maybe", [STALL_YES] = "yes", [STALL_NO] = "no" };
static const char *const contig_names[] = {
	[CONTIG_UNKNOWN] = "unknown", [CONTIG_PHYSICAL] = "physical", [CONTIG_VIRTUAL] = "virtual",
};

const char *stall_name(enum stall_kind k)
{
	return (unsigned)k < 3 ? stall_names[k] : "maybe";
}

int stall_lookup(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(stall_names[i], name))
			return i;
	return -1;
}

const char *contiguity_name(enum contiguity c)
{
	return (unsigned)c < 3 ? contig_names[c] : "unknown";
}

int contiguity_lookup(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(contig_names[i], name))
			return i;
	return -1;
}

static const char *const kind_names[] = {
	[API_PAGES] = "pages", [API_EXACT] = "exact", [API_SLAB] = "slab",
	[API_KV] = "kv", [API_VMALLOC] = "vmalloc", [API_WRAPPER] = "wrapper",
};

const char *api_kind_name(enum api_kind k)
{
	return (unsigned)k < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[k] : "pages";
}

void site_init(struct site *s)
{
	memset(s, 0, sizeof(*s));
	s->gfp = gfp_unknown();
	s->size = iv_unknown();
	s->fallback = FB_NONE;
}

void site_release(struct site *s)
{
	free(s->file);
	free(s->function);
	free(s->api);
	free(s->gfp_expr);
	free(s->order_expr);
	free(s->result_lvalue);
	free(s->src_why);
	free(s->unknown_why);
	free(s->contig_why);
	free(s->fallback_file);
	for (size_t i = 0; i < s->nev; i++) {
		free(s->ev[i].file);
		free(s->ev[i].note);
	}
	free(s->ev);
	for (size_t i = 0; i < s->natt; i++)
		free(s->att[i].when);
	free(s->att);
	site_init(s);
}

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

void site_copy(struct site *d, const struct site *s)
{
	*d = *s;
	d->file = dup_or_null(s->file);
	d->function = dup_or_null(s->function);
	d->api = dup_or_null(s->api);
	d->gfp_expr = dup_or_null(s->gfp_expr);
	d->order_expr = dup_or_null(s->order_expr);
	d->result_lvalue = dup_or_null(s->result_lvalue);
	d->src_why = dup_or_null(s->src_why);
	d->unknown_why = dup_or_null(s->unknown_why);
	d->contig_why = dup_or_null(s->contig_why);
	d->fallback_file = dup_or_null(s->fallback_file);
	d->ev = NULL;
	d->nev = d->ev_alloc = 0;
	for (size_t i = 0; i < s->nev; i++)
		site_add_evidence(d, s->ev[i].file, s->ev[i].line, s->ev[i].note);
	d->att = NULL;
	d->natt = 0;
	for (size_t i = 0; i < s->natt; i++)
		site_add_attempt(d, s->att[i].orders, s->att[i].role, s->att[i].gfp, s->att[i].when);
}

const char *attempt_role_name(enum attempt_role r)
{
	return r == ROLE_FALLBACK ? "fallback" : "last";
}

void site_add_attempt(struct site *s, struct order_range orders, enum attempt_role role,
		      struct gfp_bits gfp, const char *when)
{
	s->att = xrealloc(s->att, (s->natt + 1) * sizeof(*s->att));
	s->att[s->natt++] = (struct attempt){ orders, role, gfp, dup_or_null(when) };
}

void site_default_attempts(struct site *s)
{
	for (size_t i = 0; i < s->natt; i++)
		free(s->att[i].when);
	s->natt = 0;
	struct order_range r = s->order;
	switch (s->fallback) {
	case FB_ORDER_LOOP:
		if (r.known && r.hi > r.lo) {
			site_add_attempt(s, (struct order_range){ r.lo + 1, r.hi, true }, ROLE_FALLBACK, s->gfp, NULL);
			r.hi = r.lo;
		}
		site_add_attempt(s, r, r.known ? ROLE_LAST : ROLE_FALLBACK, s->gfp, NULL);
		break;
	default:
		site_add_attempt(s, r, fallback_catches(s->fallback) ? ROLE_FALLBACK : ROLE_LAST, s->gfp, NULL);
		break;
	}
}

bool site_role_mask(const struct site *s, enum attempt_role role, int above, struct gfp_bits *out)
{
	bool any = false;
	struct gfp_bits g = { 0, 0 };
	for (size_t i = 0; i < s->natt; i++) {
		const struct attempt *a = &s->att[i];
		if (a->role != role || (above >= 0 && a->orders.known && a->orders.hi <= above))
			continue;
		g = any ? gfp_join(g, a->gfp) : a->gfp;
		any = true;
	}
	if (any)
		*out = g;
	return any;
}

void site_add_evidence(struct site *s, const char *file, int line, const char *note)
{
	for (size_t i = 0; i < s->nev; i++)
		if (s->ev[i].line == line && !strcmp(s->ev[i].note, note) &&
		    !strcmp(s->ev[i].file, file ? file : ""))
			return;
	ALLOC_GROW(s->ev, s->nev + 1, s->ev_alloc);
	s->ev[s->nev].file = xstrdup(file ? file : "");
	s->ev[s->nev].line = line;
	s->ev[s->nev].note = xstrdup(note);
	s->nev++;
}

bool site_can_be_costly(const struct site *s, int costly_order)
{
	return s->order.known && s->order.hi > costly_order;
}

enum stall_kind site_stall_of(const struct site *s, int costly_order)
{
	struct gfp_bits g = { 0, 0 };
	bool any = false;
	for (int pass = 0; pass < 2 && !any; pass++)
		for (size_t i = 0; i < s->natt; i++) {
			const struct attempt *a = &s->att[i];
			if (pass == 0 && !(a->orders.known && a->orders.hi > costly_order))
				continue;
			g = any ? gfp_join(g, a->gfp) : a->gfp;
			any = true;
		}
	if (!any)
		g = s->gfp;
	if (!gfp_may(g, GFPB(DIRECT_RECLAIM)))
		return STALL_NO;
	return gfp_must(g, GFPB(DIRECT_RECLAIM)) ? STALL_YES : STALL_MAYBE;
}

/* ---- findings ---- */

static const char *const sev_names[] = { "note", "warning", "error" };

const char *severity_name(enum severity s)
{
	return (unsigned)s < 3 ? sev_names[s] : "warning";
}

int severity_lookup(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(sev_names[i], name))
			return i;
	return -1;
}

void finding_init(struct finding *f)
{
	memset(f, 0, sizeof(*f));
	site_init(&f->site);
}

void finding_release(struct finding *f)
{
	free(f->rule);
	free(f->message);
	free(f->source);
	free(f->fingerprint);
	site_release(&f->site);
	for (size_t i = 0; i < f->nfixes; i++) {
		free(f->fixes[i].kind);
		free(f->fixes[i].reason);
		free(f->fixes[i].diff);
	}
	free(f->fixes);
	free(f->fix_declined);
	free(f->suppressed);
	finding_init(f);
}

void finding_copy(struct finding *d, const struct finding *s)
{
	finding_init(d);
	d->rule = dup_or_null(s->rule);
	d->severity = s->severity;
	d->message = dup_or_null(s->message);
	d->source = dup_or_null(s->source);
	d->fingerprint = dup_or_null(s->fingerprint);
	site_copy(&d->site, &s->site);
	for (size_t i = 0; i < s->nfixes; i++)
		finding_add_fix(d, s->fixes[i].kind, s->fixes[i].reason, s->fixes[i].diff);
	d->fix_declined = dup_or_null(s->fix_declined);
	d->suppressed = dup_or_null(s->suppressed);
	d->suppressed_line = s->suppressed_line;
}

void finding_add_fix(struct finding *f, const char *kind, const char *reason, const char *diff)
{
	ALLOC_GROW(f->fixes, f->nfixes + 1, f->fixes_alloc);
	f->fixes[f->nfixes].kind = xstrdup(kind);
	f->fixes[f->nfixes].reason = xstrdup(reason ? reason : "");
	f->fixes[f->nfixes].diff = xstrdup(diff ? diff : "");
	f->nfixes++;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; s && *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	h ^= 0xff; /* field separator */
	h *= 0x100000001b3ULL;
	return h;
}

/* Expression text as the fingerprint sees it: no comments, no whitespace,
 * no parentheses around the whole; with `sort_or`, the operands of a
 * top-level '|' chain sorted, so "A | B" and "(B|A)" are one mask. */
static char *normalize_expr(const char *e, int sort_or)
{
	if (!e)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = e; *p; p++) {
		if (p[0] == '/' && p[1] == '*') {
			const char *q = strstr(p + 2, "*/");
			if (!q)
				break;
			p = q + 1;
		} else if (p[0] == '/' && p[1] == '/') {
			while (p[1] && p[1] != '\n')
				p++;
		} else if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '\\') {
			strbuf_addc(&sb, *p);
		}
	}
	char *t = strbuf_detach(&sb);
	/* strip parentheses that enclose the whole expression */
	for (size_t n = strlen(t); n >= 2 && t[0] == '(' && t[n - 1] == ')'; n -= 2) {
		int depth = 0, whole = 1;
		for (size_t i = 0; i < n - 1 && whole; i++) {
			depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
			if (depth == 0)
				whole = 0;
		}
		if (!whole)
			break;
		memmove(t, t + 1, n - 2);
		t[n - 2] = 0;
	}
	if (!sort_or)
		return t;
	/* split at top-level '|' (not '||') */
	char **ops = NULL;
	size_t nops = 0, alloc = 0, start = 0, n = strlen(t);
	int depth = 0;
	for (size_t i = 0; i <= n; i++) {
		char c = t[i];
		if (c == '(' || c == '[')
			depth++;
		else if (c == ')' || c == ']')
			depth--;
		int split = c == 0 || (c == '|' && depth == 0 && t[i + 1] != '|' && (i == 0 || t[i - 1] != '|'));
		if (split) {
			ALLOC_GROW(ops, nops + 1, alloc);
			ops[nops++] = xstrndup(t + start, i - start);
			start = i + 1;
		}
	}
	if (nops > 1) /* qsort(NULL, 0) is undefined */
		qsort(ops, nops, sizeof(*ops), cmp_strp);
	struct strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < nops; i++) {
		strbuf_addf(&out, "%s%s", i ? "|" : "", ops[i]);
		free(ops[i]);
	}
	free(ops);
	free(t);
	return strbuf_detach(&out);
}

/* Stable across line shifts and edits elsewhere in the function: no line,
 * column or message goes in; the expressions are normalized. */
char *finding_fingerprint(const char *rule, const struct site *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char *gfp = normalize_expr(s->gfp_expr, 1), *order = normalize_expr(s->order_expr, 0);
	h = fnv(h, rule);
	h = fnv(h, s->file);
	h = fnv(h, s->function);
	h = fnv(h, s->api);
	h = fnv(h, gfp);
	h = fnv(h, order);
	free(gfp);
	free(order);
	return xasprintf("%016llx", (unsigned long long)h);
}

enum confidence site_confidence(const struct site *s, int costly_order)
{
	enum confidence c;
	if (!s->order.known || s->order.hi <= costly_order)
		return CONF_NONE;
	if (s->order.lo > costly_order)
		c = CONF_PROVEN; /* every path asks for a costly order */
	else if (s->src & SRC_LIKELY)
		c = CONF_LIKELY;
	/* device data (registers, descriptors, firmware, on-disk fields):
	 * judged on 6.12, mostly small in practice or checked where it is
	 * read (bench/accuracy/judged-issue14-*.tsv): possible */
	else if (s->src & (SRCB(UNKNOWN) | SRCB(RUNTIME) | SRCB(DEVICE)))
		c = CONF_POSSIBLE;
	else
		c = CONF_PROVEN; /* constants (and Kconfig) alone */
	/* user data up to a kernel limit any user reaches, and constants
	 * (provenance.h, SRC_USER_LIMIT): the costly top is the user's pick */
	if (c == CONF_LIKELY && (s->src & SRC_USER_LIMIT) &&
	    !(s->src & ~(SRCB(USER) | SRCB(CONST) | SRCB(CONFIG) | SRC_USER_LIMIT)))
		c = CONF_PROVEN;
	/* a user reaches the costly top at will, whatever else the order is
	 * made of (provenance.h, SRC_TOP_USER) */
	if (c != CONF_PROVEN && (s->src & SRC_TOP_USER))
		c = CONF_PROVEN;
	/* costly with the module parameters at their defaults (provenance.h,
	 * SRC_AT_DEFAULT) */
	if (c != CONF_PROVEN && (s->src & SRC_AT_DEFAULT))
		c = CONF_PROVEN;
	/* constants, but joined from other files' stores (provenance.h) */
	if (c == CONF_PROVEN && (s->src & SRC_FROM_FACTS))
		c = CONF_LIKELY;
	return c;
}

void site_set_source(struct site *s, unsigned src, const char *why, int line)
{
	s->src = src;
	free(s->src_why);
	s->src_why = why ? xstrdup(why) : NULL;
	s->src_line = why ? line : 0;
}
