/* Baselines: compare a run with a previous one by finding fingerprint.
 *
 * A fingerprint (finding_fingerprint(): rule, file, function, API and the
 * normalized gfp and order expressions) does not move with line numbers or
 * with edits elsewhere in the function.  Findings are matched as a multiset:
 * two identical calls in one function are two findings with one fingerprint,
 * and a third one is new.
 */
#ifndef GFPAUDIT_BASELINE_H
#define GFPAUDIT_BASELINE_H
#include <stddef.h>
#include "gfpaudit/report.h"

struct baseline;

/* Load a previous run: gfpaudit JSON (findings[].fingerprint) or SARIF
 * (runs[].results[].partialFingerprints["gfpaudit/v1"]).  GA_EIO when it
 * cannot be read, GA_EINVAL when it is neither. */
int baseline_load(const char *path, struct baseline **out);
void baseline_free(struct baseline *b);
size_t baseline_count(const struct baseline *b);

struct baseline_stats {
	size_t fresh, unchanged, resolved;
};

/* Keep in r only the findings the baseline does not have, and put in
 * r->resolved the baseline's findings that this run no longer has, for the
 * files this run analyzed (a file that was not audited, or failed, resolves
 * nothing).  Sets r->baseline. */
void baseline_apply(const struct baseline *b, struct report *r, struct baseline_stats *out);

#endif
