/* gfp-derived-divergence: a capability flag that no longer matches its mask.
 *
 * Finds: in a function, a local derived from a gfp mask's behaviour bits
 * (`can_direct_reclaim = gfp_mask & __GFP_DIRECT_RECLAIM`, `can_compact =
 * gfp_compaction_allowed(gfp_mask)`, `nofail = …`) that is combined with a
 * condition that is not in the mask (in its initializer, or by a later
 * assignment), while the mask itself still reaches code that derives state
 * from it (gfp_to_alloc_flags(), alloc_flags_*(), __alloc_pages_direct_*(),
 * tracepoints) with the bit still set.
 * Why: the rejected v5 of "mm/page_alloc: avoid direct compaction for costly
 * __GFP_NORETRY allocations" folded `costly && NORETRY` into
 * can_direct_reclaim; reviewers: "now there is a disconnect between these
 * flags and the gfp mask again.  This sets us up for subtle bugs."  Clearing
 * the bit in the mask (or at the caller) keeps both in step.
 * Known false positives: a combination that is deliberately transient (the
 * flag is re-derived before the mask reaches a sink on every path) when the
 * re-derivation is in another function; conditions the rule cannot see are
 * derived from the same mask (a helper's return value).
 */
#include "consistency_rules.h"
#include "words.h"

static void on_file(const struct check *c, const struct check_file *f, struct check_ctx *ctx)
{
	consistency_rule_run(c, CONS_DIVERGENCE, f, ctx);
}

static void mail(const struct check *c, const struct check_mail *m, struct strbuf *out)
{
	(void)c;
	strbuf_adds(out, "Here ");
	words_message_clause(out, m->f);
	strbuf_adds(out, " Everything that still reads the mask sees the bit the flag says is gone; that "
		    "disconnect is what got v5 of \"mm/page_alloc: avoid direct compaction for costly "
		    "__GFP_NORETRY allocations\" rejected in favour of clearing the bit in the mask.");
}

const struct check check_gfp_derived_divergence = {
	.id = "gfp-derived-divergence",
	.rank = 70,
	.severity = SEV_WARNING,
	.summary = "a flag derived from the gfp mask is combined with a condition the mask does not carry",
	.on_file = on_file,
	.why = "A local flag derived from the gfp mask now says something the mask does not: "
	       "code that derives its state from the mask (gfp_to_alloc_flags(), the direct "
	       "compaction and reclaim helpers, tracepoints) still sees the bit. Reviewers "
	       "rejected v5 of \"mm/page_alloc: avoid direct compaction for costly "
	       "__GFP_NORETRY allocations\" for this: it sets us up for subtle bugs.",
	/* no .advice: the message ends with it */
	.mail = mail,
	.slowpath_steps = 0,
};
