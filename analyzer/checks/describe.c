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

void describe_flags(struct strbuf *sb, uint64_t set)
{
	int n = 0;
	for (int i = 0; i < GFPF__COUNT; i++)
		if (set & ((uint64_t)1 << i))
			strbuf_addf(sb, "%s%s", n++ ? "|" : "", gfp_flag_name(i));
	if (!n)
		strbuf_adds(sb, "0");
}

char *describe_site(const struct site *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "'%s' can request ", s->api);
	describe_order(&sb, s);
	if (s->kind == API_SLAB && s->size.known)
		strbuf_addf(&sb, " (size %lld..%lld)", (long long)s->size.lo, (long long)s->size.hi);
	strbuf_adds(&sb, "; gfp must ");
	describe_flags(&sb, s->gfp.must);
	if (s->gfp.may == GFP_ALL_BITS)
		strbuf_adds(&sb, ", may any");
	else if (s->gfp.may & ~s->gfp.must) {
		strbuf_adds(&sb, ", may ");
		describe_flags(&sb, s->gfp.may & ~s->gfp.must);
	}
	strbuf_addf(&sb, "; fallback %s", fallback_name(s->fallback));
	return strbuf_detach(&sb);
}
