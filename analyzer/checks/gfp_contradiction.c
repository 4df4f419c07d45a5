/* gfp-contradiction: flags that ask for opposite things.
 *
 * Finds: __GFP_NORETRY together with __GFP_NOFAIL or __GFP_RETRY_MAYFAIL on
 * every path; __GFP_NOFAIL without any way to set __GFP_DIRECT_RECLAIM.
 * Why: the allocator resolves these silently and differently across versions
 * (NOFAIL wins over NORETRY; NOFAIL without reclaim just busy-loops).
 * Known false positives: none known; "may" bits are not enough to report.
 */
#include <stdlib.h>
#include "gfpaudit/check.h"
#include "describe.h"
#include "words.h"

static const char *contradiction(const struct site *s)
{
	const char *what = NULL;
	if (gfp_must(s->gfp, GFPB(NORETRY)) && gfp_must(s->gfp, GFPB(NOFAIL)))
		what = "'__GFP_NORETRY' with '__GFP_NOFAIL': the allocator ignores NORETRY and never fails";
	else if (gfp_must(s->gfp, GFPB(NORETRY)) && gfp_must(s->gfp, GFPB(RETRY_MAYFAIL)))
		what = "'__GFP_NORETRY' with '__GFP_RETRY_MAYFAIL': one asks to give up early, the other to retry";
	else if (gfp_must(s->gfp, GFPB(NOFAIL)) && !gfp_may(s->gfp, GFPB(DIRECT_RECLAIM)))
		what = "'__GFP_NOFAIL' without '__GFP_DIRECT_RECLAIM': the allocator cannot make progress and busy-loops";
	return what;
}

static void on_site(const struct check *c, const struct site *s, struct check_ctx *ctx)
{
	const char *what = contradiction(s);
	if (!what)
		return;
	char *d = describe_site(s);
	check_report(c, s, ctx, "%s: %s", d, what);
	free(d);
}

static void mail(const struct check *c, const struct check_mail *m, struct strbuf *out)
{
	(void)c;
	const struct site *s = &m->f->site;
	const char *what = contradiction(s);
	words_request(out, s);
	strbuf_addf(out, ". Its mask is contradictory%s%s.", what ? ": " : "", what ? what : "");
}

const struct check check_gfp_contradiction = {
	.id = "gfp-contradiction",
	.rank = 40,
	.severity = SEV_ERROR,
	.summary = "contradictory gfp flags (NORETRY with NOFAIL or RETRY_MAYFAIL; NOFAIL without direct reclaim)",
	.headline = "contradictory gfp flags",
	.on_site = on_site,
	.why = "The mask asks the page allocator for two things it cannot do at once; it "
	       "honours one of them and the caller's intent is lost.",
	.advice = "Keep the flag that says what the caller needs and drop the other one.",
	.mail = mail,
	.slowpath_steps = 0,
};
