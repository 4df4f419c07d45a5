/* Interval arithmetic, gfp table translation, strbuf, result JSON round trip. */
#include <stdlib.h>
#include <jansson.h>
#include "harness.h"
#include "gfpaudit/order.h"
#include "gfpaudit/gfp.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/result.h"

TEST(get_order_matches_kernel)
{
	CHECK_EQ_INT(get_order_of(1, 12), 0);
	CHECK_EQ_INT(get_order_of(4096, 12), 0);
	CHECK_EQ_INT(get_order_of(4097, 12), 1);
	CHECK_EQ_INT(get_order_of(32768, 12), 3);
	CHECK_EQ_INT(get_order_of(32769, 12), 4);
	CHECK_EQ_INT(get_order_of(65535, 12), 4);
}

TEST(interval_ops)
{
	struct interval a = iv_range(0, 9), b = iv_const(3);
	struct interval m = iv_min(a, b);
	CHECK_EQ_INT(m.lo, 0);
	CHECK_EQ_INT(m.hi, 3);
	struct interval s = iv_shl(iv_const(4096), iv_range(0, 4));
	CHECK_EQ_INT(s.hi, 65536);
	struct interval o = iv_or(iv_range(0, 5), iv_const(8));
	CHECK(o.lo == 8 && o.hi >= 13);
	struct interval t = iv_type_bound(iv_unknown(), 16, false);
	CHECK_EQ_INT(t.lo, 0);
	CHECK_EQ_INT(t.hi, 65535);
	struct interval g = iv_get_order(iv_range(100, 65535), 12);
	CHECK_EQ_INT(g.lo, 0);
	CHECK_EQ_INT(g.hi, 4);
	/* NLA_ALIGN: (x + 3) & ~3 rounds down, keeping the range; another
	 * negative mask only clears bits: [0, hi]; either order of operands */
	struct interval al = iv_and(iv_range(7, 65538), iv_const(~3LL));
	CHECK_EQ_INT(al.lo, 4);
	CHECK_EQ_INT(al.hi, 65536);
	CHECK(al.known);
	struct interval cl = iv_and(iv_const(~5LL), iv_range(7, 100));
	CHECK_EQ_INT(cl.lo, 0);
	CHECK_EQ_INT(cl.hi, 100);
	CHECK(!iv_and(iv_range(-4, 4), iv_const(~3LL)).known);
}

TEST(gfp_table_roundtrip)
{
	struct gfp_table t = { 0 };
	t.value[GFPF_NORETRY] = 0x10000;
	t.value[GFPF_DIRECT_RECLAIM] = 0x400;
	t.value[GFPF_NOWARN] = 0x2000;
	uint64_t c = gfp_table_to_canon(&t, 0x10400);
	CHECK(c == (GFPB(NORETRY) | GFPB(DIRECT_RECLAIM)));
	CHECK_EQ_INT(gfp_table_from_canon(&t, c), 0x10400);
	CHECK_EQ_INT(gfp_flag_lookup("__GFP_NOWARN"), GFPF_NOWARN);
	CHECK_EQ_STR(gfp_flag_name(GFPF_NOFAIL), "__GFP_NOFAIL");
}

TEST(strbuf_basics)
{
	struct strbuf sb = STRBUF_INIT;
	CHECK_EQ_STR(sb.buf, "");
	strbuf_addf(&sb, "%s-%d", "x", 42);
	strbuf_addc(&sb, '!');
	CHECK_EQ_STR(sb.buf, "x-42!");
	char *d = strbuf_detach(&sb);
	CHECK_EQ_STR(d, "x-42!");
	CHECK(sb.len == 0);
	free(d);
}

TEST(result_json_roundtrip)
{
	struct file_result r;
	file_result_init(&r, "mm/x.c");
	struct site *s = file_result_add_site(&r);
	s->file = xstrdup("mm/x.c");
	s->line = 10;
	s->api = xstrdup("alloc_pages");
	s->order = (struct order_range){ 0, 9, true };
	s->gfp = (struct gfp_bits){ GFPB(NORETRY), GFPB(NORETRY) | GFPB(DIRECT_RECLAIM) };
	s->fallback = FB_ORDER_LOOP;
	site_add_attempt(s, (struct order_range){ 1, 9, true }, ROLE_FALLBACK,
			 (struct gfp_bits){ GFPB(NORETRY), GFPB(NORETRY) }, "order > min_order");
	site_add_attempt(s, (struct order_range){ 0, 9, true }, ROLE_LAST, s->gfp, NULL);
	site_add_evidence(s, "mm/x.c", 8, "order: order = 9");
	json_t *j = file_result_to_json(&r);
	struct file_result *back = NULL;
	CHECK(file_result_from_json(j, &back) == 0);
	REQUIRE(back && back->nsites == 1);
	CHECK_EQ_INT(back->sites[0].order.hi, 9);
	CHECK(back->sites[0].gfp.must == GFPB(NORETRY));
	CHECK(back->sites[0].gfp.may == s->gfp.may);
	CHECK(back->sites[0].fallback == FB_ORDER_LOOP);
	CHECK_EQ_INT(back->sites[0].nev, 1);
	REQUIRE_EQ_INT((int)back->sites[0].natt, 2);
	const struct attempt *a = back->sites[0].att;
	CHECK(a[0].role == ROLE_FALLBACK && a[0].orders.lo == 1 && a[0].orders.hi == 9);
	CHECK(a[0].gfp.must == GFPB(NORETRY) && a[0].gfp.may == GFPB(NORETRY));
	CHECK(a[0].when && !strcmp(a[0].when, "order > min_order"));
	CHECK(a[1].role == ROLE_LAST && !a[1].when && a[1].gfp.may == s->gfp.may);
	file_result_free(back);
	json_decref(j);
	file_result_release(&r);
}
