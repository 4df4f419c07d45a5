/* noretry-without-nowarn: a NORETRY high-order attempt that will warn.
 *
 * Finds: a site of order above 0 whose mask always has __GFP_NORETRY and can
 * never have __GFP_NOWARN.
 * Why: a NORETRY attempt is expected to fail; without NOWARN every failure
 * dumps an allocation-failure splat.  Upstream pairs them.
 * Known false positives: callers that want the splat on purpose (rare).
 */
#include <stdlib.h>
#include "gfpaudit/check.h"
#include "describe.h"

static void on_site(const struct check *c, const struct site *s, struct check_ctx *ctx)
{
	if (!gfp_must(s->gfp, GFPB(NORETRY)) || gfp_may(s->gfp, GFPB(NOWARN)))
		return;
	if (!s->order.known || s->order.hi == 0)
		return;
	char *d = describe_site(s);
	check_report(c, s, ctx, "%s: a '__GFP_NORETRY' attempt is expected to fail; add '__GFP_NOWARN'", d);
	free(d);
}

const struct check check_noretry_without_nowarn = {
	.id = "noretry-without-nowarn",
	.severity = SEV_NOTE,
	.summary = "__GFP_NORETRY high-order attempt without __GFP_NOWARN",
	.on_site = on_site,
};
