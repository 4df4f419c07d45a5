/* Shared wording for rule messages: order range, flags, fallback. */
#include <string.h>
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

/* One size as people read it: "64 KiB", or the bytes when not a whole KiB. */
static void size_human(struct strbuf *sb, long long v)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	int u = -1;
	while (u < 3 && v >= 1024 && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		strbuf_addf(sb, "%lld byte%s", v, v == 1 ? "" : "s");
	else
		strbuf_addf(sb, "%lld %s", v, unit[u]);
}

void describe_size(struct strbuf *sb, long long lo, long long hi)
{
	strbuf_adds(sb, lo == hi ? " (" : lo <= 0 ? " (up to " : " (");
	if (lo != hi && lo > 0) {
		size_human(sb, lo);
		strbuf_adds(sb, " to ");
	}
	size_human(sb, hi);
	strbuf_adds(sb, ")");
}

char *describe_site(const struct site *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "'%s' can request ", s->api);
	describe_order(&sb, s);
	if (s->kind == API_SLAB && s->size.known)
		describe_size(&sb, s->size.lo, s->size.hi);
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
		describe_size(&sb, s->size.lo, s->size.hi);
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

void describe_source(struct strbuf *sb, const struct site *s, int costly_order)
{
	if (s->conf == CONF_NONE)
		return;
	const char *what = s->kind == API_PAGES || s->kind == API_WRAPPER ? "order" : "size";
	strbuf_addf(sb, "%s: ", confidence_name(s->conf));
	/* a constant from the tree's facts: say whose */
	bool fact = s->src_why && (!strncmp(s->src_why, "param:", 6) || !strncmp(s->src_why, "field:", 6));
	int prim = src_primary(s->src);
	if (fact && (prim < 0 || prim == SRC_CONST || prim == SRC_CONFIG)) {
		strbuf_addf(sb, "constants give the %s, %s", what, s->src_why);
		return;
	}
	if (s->order.lo > costly_order) {
		strbuf_addf(sb, "every path asks for more than order %d", costly_order);
		return;
	}
	if (prim < 0 || prim == SRC_CONST || prim == SRC_CONFIG) {
		strbuf_addf(sb, "constants give the %s", what);
		return;
	}
	strbuf_addf(sb, "the %s comes from ", what);
	if (s->src_why)
		strbuf_addf(sb, "%s", s->src_why);
	else
		strbuf_addf(sb, "%s data", src_kind_name((enum src_kind)prim));
	if (s->src_line > 0)
		strbuf_addf(sb, " (line %d)", s->src_line);
	if (s->conf == CONF_LIKELY)
		strbuf_addf(sb, ", and nothing here bounds it below order %d", costly_order + 1);
	else if (s->conf == CONF_PROVEN && (s->src & (SRC_USER_LIMIT | SRC_TOP_USER)))
		strbuf_adds(sb, ", which users set, up to the kernel's limit");
	else if (s->conf == CONF_PROVEN && (s->src & SRC_AT_DEFAULT))
		strbuf_adds(sb, ", whose default already makes it costly");
	else if (prim == SRC_DEVICE)
		strbuf_adds(sb, ", which the device or the on-disk data decides (usually small)");
	else
		strbuf_adds(sb, ", whose values are not known here");
}
