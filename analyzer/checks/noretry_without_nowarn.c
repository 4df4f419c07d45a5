/* noretry-without-nowarn: a NORETRY high-order attempt that will warn.
 *
 * Finds: an attempt class of order above 0 whose mask always has
 * __GFP_NORETRY and can never have __GFP_NOWARN.
 * Why: a NORETRY attempt is expected to fail; without NOWARN every failure
 * dumps an allocation-failure splat.  Upstream pairs them.
 * Known false positives: callers that want the splat on purpose (rare).
 */
#include <stdlib.h>
#include "gfpaudit/check.h"
#include "describe.h"
#include "words.h"

static void on_site(const struct check *c, const struct site *s, struct check_ctx *ctx)
{
	for (size_t i = 0; i < s->natt; i++) {
		const struct attempt *a = &s->att[i];
		if (!gfp_must(a->gfp, GFPB(NORETRY)) || gfp_may(a->gfp, GFPB(NOWARN)))
			continue;
		if (!a->orders.known || a->orders.hi == 0)
			continue;
		char *d = describe_attempt(s, a);
		check_report(c, s, ctx, "%s: a '__GFP_NORETRY' attempt is expected to fail; add '__GFP_NOWARN'", d);
		free(d);
		return;
	}
}

/* The candidate fixes, best first (fix/shapes.c builds them). */
static const struct fix_step fixes[] = {
	{ FIX_ADD_NOWARN, 0, 0, "upstream pairs __GFP_NORETRY with __GFP_NOWARN" },
	{ 0, 0, 0, NULL },
};

const struct check check_noretry_without_nowarn = {
	.id = "noretry-without-nowarn",
	.rank = 50,
	.severity = SEV_NOTE,
	.summary = "__GFP_NORETRY high-order attempt without __GFP_NOWARN",
	.headline = "__GFP_NORETRY without __GFP_NOWARN",
	.on_site = on_site,
	.why = "A __GFP_NORETRY attempt is expected to fail; without __GFP_NOWARN every "
	       "failure prints an allocation-failure splat.",
	.advice = "Add __GFP_NOWARN to the __GFP_NORETRY attempt.",
	.mail_text = "The attempt has __GFP_NORETRY, so it is expected to fail, but not "
		    "__GFP_NOWARN: each failure prints an allocation-failure warning with a stack dump.",
	.slowpath_steps = SPB(COMPACT_FIRST) | SPB(RECLAIM) | SPB(COMPACT_AFTER) | SPB(NORETRY_EXIT),
	.fixes = fixes,
};
