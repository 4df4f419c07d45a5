/* Inline suppressions: a comment on a finding's line or the line before,
 *
 *     /- gfpaudit: ignore RULE[,RULE...]: reason -/   (C or // comments)
 *
 * takes the finding out of what counts (exit code, baselines, check, review)
 * and keeps it, with the reason and the comment's line, in the results'
 * "suppressed" list.  The reason is required: a comment without one, or
 * naming no rule gfpaudit has, suppresses nothing and is itself reported
 * (rule bad-suppression, an error). */
#ifndef GFPAUDIT_SUPPRESS_H
#define GFPAUDIT_SUPPRESS_H
#include <stddef.h>

struct suppression {
	int line;      /* the comment's line (1-based) */
	char **rules;  /* the rule ids named */
	size_t nrules;
	char *reason;  /* NULL: none given (not a valid suppression) */
};

struct suppressions {
	struct suppression *v;
	size_t n, alloc;
};

/* Find the suppression comments of a file's text (len bytes, NUL not
 * needed).  `out` is initialised by the callee; release it. */
void suppressions_scan(const char *text, size_t len, struct suppressions *out);
void suppressions_release(struct suppressions *s);
/* The valid suppression (with a reason) of `rule` on `line` or the line
 * before; NULL when there is none.  Lent from s. */
const struct suppression *suppressions_match(const struct suppressions *s, const char *rule, int line);

#endif
