/* costly-retry-mayfail: __GFP_RETRY_MAYFAIL on a costly kvmalloc attempt.
 *
 * Finds: a kvmalloc-family call whose size can exceed PAGE_ALLOC_COSTLY_ORDER
 * and whose mask always carries __GFP_RETRY_MAYFAIL and may direct-reclaim.
 * (A kmalloc-family call with its own vmalloc retry and the flag is
 * costly-no-noretry's: an attempt with a fallback without __GFP_NORETRY.)  kvmalloc adds
 * __GFP_NORETRY to its kmalloc attempt above PAGE_SIZE unless the caller
 * passes __GFP_RETRY_MAYFAIL (mm/util.c): then the full reclaim and
 * compaction retries run before the vmalloc fallback that would have served
 * at once.  Page-allocator order loops are not judged: there the flag is the
 * caller's way to try harder before going down an order.
 * Why: a per-request path (an ioctl, a netlink dump, a map update) that
 * could take vmalloc memory stalls in reclaim and compaction first.
 * Known false positives: callers that want the physically contiguous
 * attempt to try hard (rare for kvmalloc users: the memory may be vmalloc'd
 * anyway).
 */
#include <stdlib.h>
#include "gfpaudit/check.h"
#include "describe.h"
#include "words.h"

static void on_site(const struct check *c, const struct site *s, struct check_ctx *ctx)
{
	if (!site_can_be_costly(s, ctx->facts->costly_order) || !gfp_must(s->gfp, GFPB(RETRY_MAYFAIL)) ||
	    !gfp_may(s->gfp, GFPB(DIRECT_RECLAIM)))
		return;
	if (s->kind != API_KV)
		return;
	char *d = describe_site(s);
	check_report(c, s, ctx, "%s: kvmalloc keeps its kmalloc attempt from '__GFP_NORETRY' when the caller "
		     "passes '__GFP_RETRY_MAYFAIL', so reclaim and compaction retry in full before the vmalloc "
		     "fallback that would serve at once", d);
	free(d);
}

const struct check check_costly_retry_mayfail = {
	.id = "costly-retry-mayfail",
	.rank = 100,
	.severity = SEV_WARNING,
	.judged_by_size = true,
	.summary = "__GFP_RETRY_MAYFAIL on a costly kvmalloc attempt: full retries before the vmalloc fallback",
	.headline = "full retries before vmalloc",
	.on_site = on_site,
	.why = "kvmalloc() keeps its kmalloc attempt from __GFP_NORETRY only when the caller "
	       "does not pass __GFP_RETRY_MAYFAIL; with it, reclaim and compaction retry in full "
	       "before the vmalloc fallback that would serve at once.",
	.advice = "Drop __GFP_RETRY_MAYFAIL: the vmalloc fallback already makes the call hard to fail.",
	.mail_text = "With __GFP_RETRY_MAYFAIL, kvmalloc() does not make its kmalloc attempt "
		    "__GFP_NORETRY, so reclaim and compaction retry in full before the vmalloc fallback "
		    "that would have served the request at once.",
	.slowpath_steps = SPB(COMPACT_FIRST) | SPB(RECLAIM) | SPB(COMPACT_AFTER) | SPB(COSTLY_EXIT) | SPB(RECLAIM_RETRY) |
			  SPB(COMPACT_RETRY),
};
