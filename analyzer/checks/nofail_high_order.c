/* nofail-high-order: __GFP_NOFAIL with an order above 1.
 *
 * Finds: a site whose mask always has __GFP_NOFAIL and whose order can exceed 1.
 * Why: the page allocator warns for NOFAIL above order 1 (it cannot promise
 * such blocks) and the caller loops in reclaim forever under fragmentation.
 * Known false positives: an order bounded by on-disk or device checks made
 * elsewhere (a filesystem's verifier); those are not proven and so only notes
 * (4 of 4 such errors on the whole 6.12 tree were false,
 * bench/accuracy/issue14-precision-e.md).  A NOFAIL that only some paths set
 * is not reported (the mask must always carry it).
 */
#include <stdlib.h>
#include "gfpaudit/check.h"
#include "describe.h"
#include "words.h"

static void on_site(const struct check *c, const struct site *s, struct check_ctx *ctx)
{
	if (!gfp_must(s->gfp, GFPB(NOFAIL)) || !s->order.known || s->order.hi <= 1)
		return;
	char *d = describe_site(s);
	check_report(c, s, ctx, "%s: '__GFP_NOFAIL' above order 1 warns in the allocator and can "
		     "loop in reclaim forever", d);
	free(d);
}

/* The candidate fixes, best first (fix/shapes.c builds them). */
static const struct fix_step fixes[] = {
	{ FIX_CAP_ORDER, 1, 0, "the allocator only promises __GFP_NOFAIL up to order 1" },
	{ FIX_DROP_NOFAIL, 0, 0, "a failure path exists: let the high-order request fail instead of looping" },
	{ 0, 0, 0, NULL },
};

const struct check check_nofail_high_order = {
	.id = "nofail-high-order",
	.rank = 30,
	.severity = SEV_ERROR,
	.summary = "__GFP_NOFAIL with an order above 1",
	.judged_by_size = true,
	.headline = "__GFP_NOFAIL above order 1",
	.on_site = on_site,
	.why = "The page allocator cannot promise __GFP_NOFAIL above order 1: it warns, and "
	       "under fragmentation the caller can loop in reclaim forever.",
	.advice = "Drop __GFP_NOFAIL and handle the failure, or allocate order-0 pages.",
	.mail_text = "It asks for __GFP_NOFAIL above order 1, which the page allocator warns about "
		    "and cannot promise without looping in reclaim for as long as memory stays fragmented.",
	.slowpath_steps = SPB(NOFAIL_WARN) | SPB(NOFAIL_LOOP),
	.fixes = fixes,
};
