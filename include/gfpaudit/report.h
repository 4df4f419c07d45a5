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
	const char *tree;    /* root the paths are relative to, or NULL */
};

void report_init(struct report *r);
void report_release(struct report *r);
/* Takes ownership of fr. */
void report_add(struct report *r, struct file_result *fr);
void report_counts(const struct report *r, size_t *analyzed, size_t *skipped, size_t *failed);
size_t report_findings_at_least(const struct report *r, enum severity min);

/* GCC-style: "file:line:col: warning: message [rule-id]"; with sites, one
 * "file:line:col: site: ..." line per site. */
void report_text(const struct report *r, FILE *out);
/* The JSON object of DESIGN.md. */
int report_json(const struct report *r, FILE *out);
/* One site as a line (used by --sites text and by explain). */
char *site_format_line(const struct site *s);

#endif
