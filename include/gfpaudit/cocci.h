/* cocci: Coccinelle as a side engine.
 *
 * Runs spatch (a subprocess stage, as cproc's driver runs its tools) with the
 * semantic patches in rules/ (the .cocci files) over a list of files, in the rules
 * "gfpaudit" mode (spatch -D gfpaudit), where each rule prints one line
 * "gfpaudit-cocci: {json}" per finding.  Those become struct finding with
 * source "cocci" and are merged into a report next to the libclang findings.
 */
#ifndef GFPAUDIT_COCCI_H
#define GFPAUDIT_COCCI_H
#include <stddef.h>
#include <stdint.h>
#include "gfpaudit/finding.h"
#include "gfpaudit/report.h"

struct cocci_opts {
	const char *spatch;    /* program; NULL: $SPATCH, else "spatch" (PATH lookup) */
	const char *rules_dir; /* NULL: cocci_rules_dir() */
	int jobs;              /* spatch --jobs; <= 1: one process */
	uint64_t rules;        /* enabled rules (check.h bits); 0: every rule file */
	/* The path a finding is reported under (as the engine reports it, so that
	 * findings of both engines land in the same file_result); NULL: the path
	 * as given.  Returns a string the caller frees. */
	char *(*report_path)(void *data, const char *path);
	void *data;
	int verbose;           /* > 0: print each spatch command on stderr */
	/* The tree's header constants (engine_probe_constants), handed to the
	 * rules in $GFPAUDIT_COCCI_CONSTANTS; NULL: spatch gets the environment
	 * as it is (without the variable the rules judge x86-64 6.12 values). */
	const struct tree_constants *constants;
};

/* The environment variable rules/common.py reads its constants from, and
 * its value for c: "PAGE_SHIFT=12 PAGE_ALLOC_COSTLY_ORDER=3 ..." (owned by
 * the caller). */
#define COCCI_CONSTANTS_ENV "GFPAUDIT_COCCI_CONSTANTS"
struct tree_constants;
char *cocci_constants(const struct tree_constants *c);

/* The rules directory used when opts->rules_dir is NULL: the data
 * directory's rules/ (datadir.h), or "rules" when there is none.  Lent. */
const char *cocci_rules_dir(void);

/* Run every enabled rule file over files[0..n) and merge what they report
 * into rep (cocci_merge).  Returns 0; GA_ETOOL when spatch is missing or
 * fails (err_last() names the rule and the last line spatch wrote on stderr);
 * GA_EIO when the rules directory cannot be read or holds no .cocci file. */
int cocci_run(const struct cocci_opts *o, char *const *files, size_t n, struct report *rep);

/* Parse one line of spatch's output.  A "gfpaudit-cocci: {json}" line fills
 * *out (initialised here; the caller releases it) and returns 0; any other
 * line returns GA_ENOTFOUND; a malformed JSON object returns GA_EINVAL.
 * Severity comes from the C rule of the same id (check_lookup), warning for
 * an id the C analyzer does not know. */
int cocci_parse_line(const char *line, struct finding *out);

/* Merge f into rep: into the file_result whose file equals f->site.file (a
 * new one, status analyzed, when there is none), unless that file already has
 * a finding with the same line and rule.  Takes over f's contents either way
 * (f is left initialised-empty).  Returns 1 when added, 0 when a duplicate. */
int cocci_merge(struct report *rep, struct finding *f);

#endif
