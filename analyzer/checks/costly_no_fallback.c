/* costly-no-fallback: a costly order and nothing to fall back to.
 *
 * Finds: a site whose order can exceed PAGE_ALLOC_COSTLY_ORDER where the
 * analyzer proved no fallback (no order loop, no lower-order or vmalloc retry,
 * not a kvmalloc-family API): a failure only becomes an error return.
 * Why: under fragmentation costly orders fail or stall in compaction; the
 * svcrdma order-4 read sinks fell from 74 to 30 GiB/s and went back to order 0.
 * Known false positives: callers that really need contiguous memory (DMA
 * rings sized once at probe time); fallbacks done by the caller in another file.
 */
#include <stdlib.h>
#include "gfpaudit/check.h"
#include "describe.h"

static void on_site(const struct check *c, const struct site *s, struct check_ctx *ctx)
{
	if (!site_can_be_costly(s, ctx->facts->costly_order) || s->fallback != FB_NONE)
		return;
	char *d = describe_site(s);
	check_report(c, s, ctx, "%s: nothing catches a failure but an error return, "
		     "and orders above %d stall or fail under fragmentation", d, ctx->facts->costly_order);
	free(d);
}

const struct check check_costly_no_fallback = {
	.id = "costly-no-fallback",
	.severity = SEV_WARNING,
	.judged_by_size = true,
	.summary = "costly-order allocation with no fallback to smaller orders",
	.on_site = on_site,
};
