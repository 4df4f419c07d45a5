/* Shared wording for rule messages: order range, flags, fallback. */
#include "gfpaudit/check.h"
#include "gfpaudit/strbuf.h"
#include "describe.h"

void describe_order(struct strbuf *sb, const struct site *s)
{
	if (!s->order.known)
		strbuf_adds(sb, "an unknown order");
	else if (s->order.lo == s->order.hi)
		strbuf_addf(sb, "order %d", s->order.lo);
	else
		strbuf_addf(sb, "order %d..%d", s->order.lo, s->order.hi);
}

char *describe_site(const struct site *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "'%s' can request ", s->api);
	describe_order(&sb, s);
	if (s->kind == API_SLAB && s->size.known)
		strbuf_addf(&sb, " (size %lld..%lld)", (long long)s->size.lo, (long long)s->size.hi);
	strbuf_adds(&sb, "; gfp ");
	gfp_bits_text(&sb, s->gfp);
	strbuf_addf(&sb, "; fallback %s", fallback_name(s->fallback));
	return strbuf_detach(&sb);
}
