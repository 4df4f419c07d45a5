/* Printers.  A report is the list of file results of one run; printers write
 * findings (and sites with --sites) to a FILE in one format. */
#ifndef GFPAUDIT_REPORT_H
#define GFPAUDIT_REPORT_H
#include <stdio.h>
#include <stdbool.h>
#include "gfpaudit/result.h"

struct report {
	struct file_result **files;
	size_t n, alloc;
	bool with_sites;
	bool with_evidence;  /* text: a "note:" line per evidence entry */
	bool with_fixes;     /* text: each candidate fix's reason and diff */
	enum severity min_show; /* text: findings below this are not printed
				 * (JSON and SARIF carry every finding) */
	const char *tree;    /* root the paths are relative to, or NULL */
	const struct diag_style *style; /* text: colour, display paths (diag.h); NULL: plain */
	/* Of the analyzed files: how many the cache answered, and how many the
	 * lexical prefilter proved to hold no allocation call (those count as
	 * analyzed with no sites).  Set by the front end. */
	size_t cached, prefiltered;
	/* Of the files judged again with the tree's facts: how many failed that
	 * judgement (crash, timeout, parse error) and kept their answer from
	 * before (factpass.h failed; JSON "facts_failed", when not 0). */
	size_t facts_failed;
	/* Files known only by their status count, not by a file_result (merge
	 * of shard outputs: analyzed files without findings are not listed). */
	size_t extra_analyzed, extra_skipped, extra_failed;
	/* With --baseline: the baseline's findings this run no longer has
	 * (owned).  `baseline` says a baseline was applied, so printers can
	 * say "resolved: []" rather than nothing. */
	bool baseline;
	struct finding *resolved;
	size_t nresolved, resolved_alloc;
};

void report_init(struct report *r);
void report_release(struct report *r);
/* Takes ownership of fr. */
void report_add(struct report *r, struct file_result *fr);
void report_counts(const struct report *r, size_t *analyzed, size_t *skipped, size_t *failed);
size_t report_findings_at_least(const struct report *r, enum severity min);
/* The stderr table of findings at or above `min` per rule ("gfpaudit:
 * findings by rule ...", one "  COUNT  RULE" line each), NULL when there
 * are none.  Caller frees. */
char *report_rule_counts(const struct report *r, enum severity min);
/* One finding as text: the short headline and the note lines of its
 * message (diag.h diag_print_finding, with the rule's headline phrase). */
struct diag_style;
void report_print_finding(FILE *out, const struct diag_style *st, const struct finding *f);
/* Findings inline comments suppressed (never counted above). */
size_t report_suppressed(const struct report *r);
/* Analyzed files whose parse errors may hide an allocation (result.h). */
size_t report_partial(const struct report *r);
/* The `top` most common first parse errors of the run's files, quoted
 * names folded ("12 x expected 'X' (e.g. FILE: message); ..."), owned; NULL
 * when no file had parse errors. */
char *report_error_causes(const struct report *r, size_t top);

/* GCC-style: "file:line:col: warning: message [rule-id]"; with sites, one
 * "file:line:col: site: ..." line per site. */
void report_text(const struct report *r, FILE *out);
/* One JSON object: tool, version, findings, sites (with sites), files
 * (the counts), problems, resolved (with a baseline); file_result_to_json
 * is the form of each finding and site. */
int report_json(const struct report *r, FILE *out);
/* SARIF 2.1.0: one run, the rule table, results with locations relative
 * to the tree root (uriBaseId SRCROOT), partialFingerprints "gfpaudit/v1",
 * fixes as artifactChanges built from each fix's unified diff.  See
 * analyzer/report/sarif.c for the mapping. */
int report_sarif(const struct report *r, FILE *out);
/* Add one earlier run's JSON output (audit --format json, e.g. a shard) to
 * r: findings and sites grouped by file, "problems" as skipped or failed
 * files, its file counts and "resolved" list as they were.  GA_EIO when the
 * file cannot be read, GA_EINVAL when it is not a gfpaudit JSON run.
 * Call report_merge_finish() after the last input. */
int report_merge_json(struct report *r, const char *path);
/* The same from a parsed document (`name` for messages). */
int report_merge_json_object(struct report *r, const char *name, struct json_t *root);
/* Runs of the same source on several configurations (analyzer/report/merge.c):
 * one JSON document whose findings, keyed by file, line, column and rule,
 * carry "configurations" (the names[] of the runs that have them), "orders"
 * ([{configuration, order}]: the order range each of those runs gave) and
 * "not_in" ([{configuration, why}]: the order that configuration's site has
 * there, its problem with the file, "no site" or "no finding"); sites carry
 * the order each configuration gave; problems their "configuration".
 * *out is owned (json_decref).  0, GA_EIO or GA_EINVAL. */
int report_configs_merge(const char *const *names, const char *const *paths, size_t n, struct json_t **out);
/* "(a, b; not c: order 0)" for one finding of that document, owned. */
char *report_configs_label(const struct json_t *finding);
/* The document's finding at file:line:col for `rule`, or NULL. */
const struct json_t *report_configs_find(const struct json_t *doc, const char *file, long line, long col,
					 const char *rule);
/* Order the files as one directory walk over the tree would (path component
 * by component) and settle the counts of files known only by number. */
void report_merge_finish(struct report *r);
/* Add a resolved finding (copied). */
void report_add_resolved(struct report *r, const struct finding *f);

/* What --sites text says of one site after "FILE:LINE:COL: site: ":
 * "'API' in 'FUNCTION': order N (or orders LO..HI), size B, gfp GFP_KERNEL |
 * __GFP_NORETRY[, maybe ...], fallback KIND[; attempts: orders LO..HI ROLE
 * (WHEN): gfp ..., never ...]" with the masks as kernel code writes them. */
char *site_format_text(const struct site *s);

#endif
