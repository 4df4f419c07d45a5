/* The check table built from the generated registration list (checks.inc:
 * every rule file under analyzer/checks/, by rank; gen-list.sh), and the
 * helpers every rule shares. */
#include <stdarg.h>
#include <string.h>
#include "gfpaudit/check.h"
#include "gfpaudit/strbuf.h"
#include "describe.h"

/* each rule's symbol is declared here only: everything else reaches a
 * rule through check_table */
#define CHECK(name) extern const struct check check_##name;
#include "checks.inc"
#undef CHECK

const struct check *const check_table[] = {
#define CHECK(name) &check_##name,
#include "checks.inc"
#undef CHECK
	NULL
};

size_t check_count(void)
{
	return sizeof(check_table) / sizeof(check_table[0]) - 1;
}

int check_lookup(const char *id)
{
	for (size_t i = 0; check_table[i]; i++)
		if (!strcmp(check_table[i]->id, id))
			return (int)i;
	return -1;
}

uint64_t check_default_mask(void)
{
	return check_count() >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << check_count()) - 1);
}

struct finding *check_report(const struct check *c, const struct site *s,
			     struct check_ctx *ctx, const char *fmt, ...)
{
	struct finding *f = file_result_add_finding(ctx->out);
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	f->rule = xstrdup(c->id);
	f->severity = c->severity;
	if (c->judged_by_size && s->conf != CONF_NONE) {
		strbuf_adds(&sb, "; ");
		describe_source(&sb, s, ctx->facts && ctx->facts->costly_order ? ctx->facts->costly_order
									      : PAGE_ALLOC_COSTLY_ORDER_DEFAULT);
		/* only a proven costly order is a warning: likely ones were
		 * mostly bounded elsewhere or not worth a change when judged
		 * (46 % true, 8 % actionable on shard 2/4 of 6.12,
		 * bench/accuracy/issue14-precision-c.md) */
		if (s->conf != CONF_PROVEN && f->severity > SEV_NOTE)
			f->severity = SEV_NOTE;
	}
	f->message = strbuf_detach(&sb);
	f->source = xstrdup("clang");
	site_release(&f->site);
	site_copy(&f->site, s);
	f->fingerprint = finding_fingerprint(c->id, s);
	return f;
}

void checks_run_sites(uint64_t enabled, struct check_ctx *ctx)
{
	size_t nsites = ctx->out->nsites;
	for (size_t i = 0; check_table[i]; i++) {
		if (!(enabled & ((uint64_t)1 << i)) || !check_table[i]->on_site)
			continue;
		/* index, not pointer: check_report grows the findings array only */
		for (size_t k = 0; k < nsites; k++)
			check_table[i]->on_site(check_table[i], &ctx->out->sites[k], ctx);
	}
}
