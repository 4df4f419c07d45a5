/* gfp-alloc-flags-mix: __GFP_* bits in alloc_flags or ALLOC_* bits in a mask.
 *
 * Finds: a value flowing into an alloc_flags variable (or an alloc_flags
 * parameter, or combined with one by |, &, ^) that carries __GFP_* bits or a
 * whole gfp mask, and ALLOC_* bits flowing into a gfp_t; except the aliases
 * the tree asserts with BUILD_BUG_ON (6.12: __GFP_HIGH == ALLOC_MIN_RESERVE,
 * __GFP_KSWAPD_RECLAIM == ALLOC_KSWAPD, read from the tree's
 * gfp_to_alloc_flags() and from the file).  A mask bounded by aliased
 * constants (`gfp_mask & (__GFP_HIGH | __GFP_KSWAPD_RECLAIM)`) is fine.
 * sparse's "restricted gfp_t" warnings on lines that involve alloc_flags are
 * reported too; this rule also sees the __force casts that silence sparse.
 * Why: the two are different bit spaces; outside the asserted aliases a
 * __GFP_ bit read as alloc_flags is another flag (or none), and the other
 * way round.  Messages say what the value is in this tree, nothing more.
 * Known false positives: a variable whose name contains "alloc_flags" but
 * holds something else.
 */
#include "consistency_rules.h"
#include "words.h"

static void on_file(const struct check *c, const struct check_file *f, struct check_ctx *ctx)
{
	consistency_rule_run(c, CONS_MIX, f, ctx);
}

static void mail(const struct check *c, const struct check_mail *m, struct strbuf *out)
{
	(void)c;
	strbuf_adds(out, "Here ");
	words_message_clause(out, m->f);
	strbuf_adds(out, " Such a bit silently means something else in the other space.");
}

const struct check check_gfp_alloc_flags_mix = {
	.id = "gfp-alloc-flags-mix",
	.rank = 90,
	.severity = SEV_WARNING,
	.summary = "__GFP_* bits in alloc_flags or ALLOC_* bits in a gfp mask (outside the asserted aliases)",
	.on_file = on_file,
	.why = "__GFP_* and ALLOC_* are different bit spaces: outside the aliases the allocator "
	       "asserts with BUILD_BUG_ON(), a bit of one means something else (or nothing) "
	       "in the other.",
	.advice = "Translate between the two explicitly (gfp_to_alloc_flags(), or the asserted "
		  "aliases) instead of mixing the bits.",
	.mail = mail,
	.slowpath_steps = 0,
};
