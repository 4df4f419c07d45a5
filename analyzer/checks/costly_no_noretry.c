/* costly-no-noretry: an opportunistic costly attempt that may stall.
 *
 * Finds: a site with an attempt class above PAGE_ALLOC_COSTLY_ORDER that has a
 * fallback after it, may set __GFP_DIRECT_RECLAIM and does not always set
 * __GFP_NORETRY (classes: see attempts.h).  Never at a kvmalloc-family call:
 * that attempt and its mask belong to the helper.
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
	int costly = ctx->facts->costly_order;
	/* a kvmalloc-family call: the kmalloc attempt and its mask are the helper's */
	if (s->kind == API_KV || !site_can_be_costly(s, costly))
		return;
	for (size_t i = 0; i < s->natt; i++) {
		const struct attempt *a = &s->att[i];
		if (a->role != ROLE_FALLBACK || !a->orders.known || a->orders.hi <= costly)
			continue;
		if (!gfp_may(a->gfp, GFPB(DIRECT_RECLAIM)) || gfp_must(a->gfp, GFPB(NORETRY)))
			continue;
		char *d = describe_attempt(s, a);
		check_report(c, s, ctx, "%s: the attempt has a fallback yet may enter direct reclaim "
			     "without '__GFP_NORETRY', so it can stall in compaction and reclaim", d);
		free(d);
		return;
	}
}

const struct check check_costly_no_noretry = {
	.id = "costly-no-noretry",
	.severity = SEV_WARNING,
	.judged_by_size = true,
	.summary = "costly-order attempt with a fallback may direct-reclaim without __GFP_NORETRY",
	.headline = "no __GFP_NORETRY before its fallback",
	.on_site = on_site,
};
