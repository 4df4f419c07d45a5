/* The mail wording every rule shares: the request in words, the slow-path
 * paragraph from the allocator model, the fallback statement (check.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/check.h"
#include "gfpaudit/slowpath.h"
#include "gfpaudit/strbuf.h"
#include "describe.h"
#include "words.h"

const struct check *check_find(const char *id)
{
	int i = id ? check_lookup(id) : -1;
	return i < 0 ? NULL : check_table[i];
}

static void size_text(struct strbuf *sb, int order)
{
	unsigned long long kib = 4ULL << (order < 0 ? 0 : order > 40 ? 40 : order);
	if (kib >= 1024)
		strbuf_addf(sb, "%llu MiB", kib / 1024);
	else
		strbuf_addf(sb, "%llu KiB", kib);
}

void words_request(struct strbuf *sb, const struct site *s)
{
	strbuf_addf(sb, "%s() here asks the page allocator for ", s->api ? s->api : "this call");
	if (!s->order.known) {
		strbuf_adds(sb, "an order nothing here bounds");
	} else if (s->order.lo == s->order.hi) {
		strbuf_addf(sb, "an order-%d block (", s->order.hi);
		size_text(sb, s->order.hi);
		strbuf_adds(sb, " with 4 KiB pages)");
	} else {
		strbuf_addf(sb, "orders %d to %d (up to ", s->order.lo, s->order.hi);
		size_text(sb, s->order.hi);
		strbuf_adds(sb, " with 4 KiB pages)");
	}
	if (s->gfp_expr && *s->gfp_expr)
		strbuf_addf(sb, " with %s", s->gfp_expr);
}

void words_confidence(struct strbuf *sb, const struct site *s)
{
	if (s->conf == CONF_NONE || s->conf == CONF_PROVEN)
		return;
	strbuf_adds(sb, " How sure: ");
	describe_source(sb, s, PAGE_ALLOC_COSTLY_ORDER_DEFAULT);
	strbuf_addc(sb, '.');
}

const char *words_fallback(const struct site *s)
{
	static const char *const fb[] = {
		[FB_NONE] = "nothing falls back",
		[FB_ORDER_LOOP] = "an enclosing loop retries at lower orders",
		[FB_LOWER_ORDER] = "it is retried at a lower order",
		[FB_VMALLOC] = "it falls back to vmalloc",
		[FB_KVMALLOC] = "the allocator falls back to vmalloc itself",
		[FB_UNKNOWN] = "the result leaves the function unchecked",
		[FB_CALLER_SMALLER] = "its callers retry with a smaller size",
		[FB_CALLER_PATH] = "its callers fall back to another allocation",
		[FB_CALLER_OFF] = "its callers go on without it (a feature off)",
		[FB_OTHER_PATH] = "the function goes on to another allocation path",
		[FB_FEATURE_OFF] = "the function goes on without it (a feature off)",
	};
	unsigned k = (unsigned)s->fallback;
	return k < sizeof(fb) / sizeof(fb[0]) && fb[k] ? fb[k] : "something falls back";
}

void words_message(struct strbuf *sb, const struct finding *f)
{
	const char *m = f->message ? f->message : "";
	size_t at = sb->len;
	strbuf_adds(sb, m);
	if (sb->len > at)
		sb->buf[at] = (char)toupper((unsigned char)sb->buf[at]);
	strbuf_addc(sb, '.');
}

void words_message_clause(struct strbuf *sb, const struct finding *f)
{
	strbuf_addf(sb, "%s.", f->message ? f->message : "");
}

void check_mail_statement(const struct check_mail *m, struct strbuf *out)
{
	const struct check *c = check_find(m->f->rule);
	if (c && c->mail) {
		c->mail(c, m, out);
	} else if (c && c->mail_text) {
		words_request(out, &m->f->site);
		strbuf_addf(out, ". %s", c->mail_text);
		words_confidence(out, &m->f->site);
	} else {
		words_message(out, m->f);
	}
}

/* The attempt the slow-path paragraph speaks of: the costliest one. */
static const struct attempt *costliest(const struct site *s)
{
	const struct attempt *best = NULL;
	for (size_t i = 0; i < s->natt; i++)
		if (s->att[i].orders.known && (!best || s->att[i].orders.hi > best->orders.hi))
			best = &s->att[i];
	return best;
}

void check_mail_slowpath(const struct check_mail *m, struct strbuf *out)
{
	const struct check *c = check_find(m->f->rule);
	const struct site *s = &m->f->site;
	const struct attempt *a = costliest(s);
	if (!c || !c->slowpath_steps || !m->model || !a || !s->order.known)
		return;
	const struct slowpath_model *md = m->model;
	struct sp_outcome o;
	slowpath_simulate(md, a->gfp, a->orders.hi, &o);
	size_t said = 0;
	for (size_t i = 0; i < o.nsteps; i++) {
		const struct sp_step *st = &o.steps[i];
		const struct sp_fact *x = &md->facts[st->fact];
		if (st->when == SP_NO || !(c->slowpath_steps & ((uint64_t)1 << st->fact)))
			continue;
		if (!said++) {
			if (!strcmp(md->name, "tree"))
				strbuf_addf(out, "On this tree (%s%s%s), __alloc_pages_slowpath() takes an order-%d"
					    " request with this mask through: ", md->version ? "Linux " : "",
					    md->version ? md->version : "", md->version ? ", mm/page_alloc.c" : "mm/page_alloc.c",
					    a->orders.hi);
			else
				strbuf_addf(out, "On gfpaudit's built-in %s allocator model (%s),"
					    " __alloc_pages_slowpath() takes an order-%d request with this mask"
					    " through: ", md->name, md->reason ? md->reason : "", a->orders.hi);
		} else {
			strbuf_adds(out, "; ");
		}
		strbuf_adds(out, st->text); /* says "maybe:" itself when it depends */
		if (x->file)
			strbuf_addf(out, " (%s:%d)", x->file, x->line);
	}
	if (said)
		strbuf_addc(out, '.');
	sp_outcome_release(&o);
}
