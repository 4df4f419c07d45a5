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
#include "words.h"

static void on_file(const struct check *c, const struct check_file *f, struct check_ctx *ctx)
{
	consistency_rule_run(c, CONS_STALE, f, ctx);
}

static void mail(const struct check *c, const struct check_mail *m, struct strbuf *out)
{
	(void)c;
	strbuf_adds(out, "Here ");
	words_message_clause(out, m->f);
	strbuf_adds(out, " Watermarks, reserves and kswapd wake-ups are then decided for a mask the "
		    "request no longer has.");
}

const struct check check_stale_alloc_flags = {
	.id = "stale-alloc-flags",
	.rank = 80,
	.severity = SEV_WARNING,
	.summary = "alloc_flags used after the gfp mask they were derived from changed",
	.on_file = on_file,
	.why = "alloc_flags are derived from the gfp mask once; when the mask changes "
	       "afterwards, the old alloc_flags keep describing the old mask (watermarks, "
	       "reserves, kswapd) until they are derived again.",
	/* no .advice: the message ends with it */
	.mail = mail,
	.slowpath_steps = 0,
};
