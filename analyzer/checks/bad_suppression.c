/* bad-suppression: a `gfpaudit: ignore` comment that suppresses nothing.
 *
 * Finds: an inline suppression (include/gfpaudit/suppress.h) without a
 * reason (`/- gfpaudit: ignore costly-no-fallback -/`), without a rule, or
 * naming a rule gfpaudit does not have.  Such a comment is not applied: the
 * finding it meant to silence is still reported, next to this error.
 * Why: a suppression is a reviewed decision; the reason is what the next
 * reader (and the reviewer of the patch adding it) checks.  A misspelt rule
 * would silently stop suppressing nothing.
 * Known false positives: a comment that quotes the syntax, such as this one
 * would if it used real comment markers.
 */
#include "gfpaudit/check.h"
#include "gfpaudit/suppress.h"

static void on_file(const struct check *c, const struct check_file *f, struct check_ctx *ctx)
{
	if (!f->contents)
		return;
	struct suppressions s;
	suppressions_scan(f->contents, f->len, &s);
	for (size_t i = 0; i < s.n; i++) {
		const struct suppression *x = &s.v[i];
		if (!x->nrules) {
			check_report_at(c, ctx, "", x->line, 1, "gfpaudit: ignore", "",
					"suppression names no rule: write 'gfpaudit: ignore RULE: reason'");
			continue;
		}
		for (size_t k = 0; k < x->nrules; k++)
			if (check_lookup(x->rules[k]) < 0)
				check_report_at(c, ctx, "", x->line, 1, "gfpaudit: ignore", x->rules[k],
						"suppression names '%s', which is not a rule (see 'gfpaudit audit --help')",
						x->rules[k]);
		if (!x->reason)
			check_report_at(c, ctx, "", x->line, 1, "gfpaudit: ignore", x->rules[0],
					"suppression of '%s' has no reason, so it is not applied: write "
					"'gfpaudit: ignore %s: why'", x->rules[0], x->rules[0]);
	}
	suppressions_release(&s);
}

const struct check check_bad_suppression = {
	.id = "bad-suppression",
	.rank = 110,
	.severity = SEV_ERROR,
	.summary = "a 'gfpaudit: ignore RULE: reason' comment without a reason or naming no rule (not applied)",
	.on_file = on_file,
	.why = "A suppression is a reviewed decision; one without a reason, or naming a rule "
	       "gfpaudit does not have, is not applied.",
	.advice = "Name the rule as 'gfpaudit audit --help' lists it and give the reason: "
		  "'gfpaudit: ignore RULE: why'; until then the comment suppresses nothing.",
};
