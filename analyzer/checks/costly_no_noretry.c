/* costly-no-noretry: an opportunistic costly attempt that may stall.
 *
 * Finds: a site whose order can exceed PAGE_ALLOC_COSTLY_ORDER, whose attempts
 * that have a fallback after them may set __GFP_DIRECT_RECLAIM and do not
 * always set __GFP_NORETRY.
 * Why: the caller can live without the large block (it has a fallback), yet
 * the allocator will run direct compaction and reclaim, and retry, for it.
 * This is the iomap/filemap buffered-write regression (pgbench 0.75x).
 * Known false positives: masks that come from a parameter the callers always
 * restrict (the rule sees only this file); sysfs-tuned THP masks.
 */
#include <stdlib.h>
#include "gfpaudit/check.h"
#include "describe.h"

static void on_site(const struct check *c, const struct site *s, struct check_ctx *ctx)
{
	if (!site_can_be_costly(s, ctx->facts->costly_order))
		return;
	if (s->fallback == FB_NONE || s->fallback == FB_UNKNOWN)
		return;
	if (!gfp_may(s->gfp_fallback, GFPB(DIRECT_RECLAIM)) || gfp_must(s->gfp_fallback, GFPB(NORETRY)))
		return;
	char *d = describe_site(s);
	check_report(c, s, ctx, "%s: the attempt has a fallback yet may enter direct reclaim "
		     "without '__GFP_NORETRY', so it can stall in compaction and reclaim", d);
	free(d);
}

const struct check check_costly_no_noretry = {
	.id = "costly-no-noretry",
	.severity = SEV_WARNING,
	.summary = "costly-order attempt with a fallback may direct-reclaim without __GFP_NORETRY",
	.on_site = on_site,
};
