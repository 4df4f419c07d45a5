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

char *describe_attempt(const struct site *s, const struct attempt *a)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "'%s' can request ", s->api);
	describe_order(&sb, s);
	if (s->kind == API_SLAB && s->size.known)
		strbuf_addf(&sb, " (size %lld..%lld)", (long long)s->size.lo, (long long)s->size.hi);
	bool split = false; /* name the class only when the classes differ */
	for (size_t i = 1; i < s->natt; i++)
		split |= s->att[i].gfp.must != s->att[0].gfp.must || s->att[i].gfp.may != s->att[0].gfp.may;
	if (split && a->orders.known) {
		if (a->orders.lo == a->orders.hi)
			strbuf_addf(&sb, "; its attempts at order %d (", a->orders.lo);
		else
			strbuf_addf(&sb, "; its attempts at orders %d..%d (", a->orders.lo, a->orders.hi);
		strbuf_adds(&sb, a->role == ROLE_FALLBACK ? "with a fallback after them" : "the last attempt");
		if (a->when)
			strbuf_addf(&sb, ", when %s", a->when);
		strbuf_adds(&sb, ") get gfp ");
	} else {
		strbuf_adds(&sb, "; gfp ");
	}
	gfp_bits_text(&sb, a->gfp);
	strbuf_addf(&sb, "; fallback %s", fallback_name(s->fallback));
	return strbuf_detach(&sb);
}
