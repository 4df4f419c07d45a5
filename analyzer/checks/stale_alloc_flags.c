/* stale-alloc-flags: alloc_flags used after their mask changed.
 *
 * Finds: alloc_flags (or any local assigned from gfp_to_alloc_flags(),
 * alloc_flags_*(), __gfp_pfmemalloc_flags(), prepare_alloc_pages()) derived
 * from a gfp mask; then the mask is assigned or changed; then the old
 * alloc_flags are read on some path before they are derived again.  Flow
 * is followed through branches, loops and gotos (retry labels).
 * Why: alloc_flags encode what the mask allowed (ALLOC_KSWAPD from
 * __GFP_KSWAPD_RECLAIM, ALLOC_NON_BLOCK without __GFP_DIRECT_RECLAIM,
 * ALLOC_MIN_RESERVE from __GFP_HIGH, ALLOC_CPUSET); once the mask changes,
 * the old flags describe a different request.
 * Known false positives: a mask change that cannot alter any bit
 * gfp_to_alloc_flags() reads; taking the value of a mask that was derived
 * together with the flags (prepare_alloc_pages()'s alloc_gfp) is understood
 * and not reported.
 */
#include "consistency_rules.h"

static void on_file(const struct check *c, const struct check_file *f, struct check_ctx *ctx)
{
	consistency_rule_run(c, CONS_STALE, f, ctx);
}

const struct check check_stale_alloc_flags = {
	.id = "stale-alloc-flags",
	.severity = SEV_WARNING,
	.summary = "alloc_flags used after the gfp mask they were derived from changed",
	.on_file = on_file,
};
