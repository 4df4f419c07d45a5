/* Candidate fixes: edits on the file as written, unified diffs, the fix
 * shapes upstream uses, their verification by re-analysis, and mails.
 *
 * A shape turns (site, file text) into a set of edits at byte ranges, or
 * refuses with a reason.  The edits become a git-format diff; before a
 * candidate is shown the diff is applied with libgit2, the patched text is
 * analyzed again as an unsaved file, and the candidate is kept only when the
 * finding is gone and nothing new appeared.
 */
#ifndef GFPAUDIT_FIX_H
#define GFPAUDIT_FIX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "gfpaudit/result.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/fixkind.h"

/* ---- edits ---------------------------------------------------------- */

/* Replace [begin, end) of the old text with `text`: an insertion has
 * begin == end, a deletion an empty text.  Offsets are bytes of the file as
 * written (struct site's call_begin etc.). */
struct fix_edit {
	size_t begin, end;
	char *text;
};

struct fix_edits {
	struct fix_edit *v;
	size_t n, alloc;
};

void fix_edits_init(struct fix_edits *e);
void fix_edits_release(struct fix_edits *e);
void fix_edits_replace(struct fix_edits *e, size_t begin, size_t end, const char *text);
void fix_edits_insert(struct fix_edits *e, size_t at, const char *text);
void fix_edits_delete(struct fix_edits *e, size_t begin, size_t end);
/* Apply the edits to text[0..len) into out (reset first).  Edits may come in
 * any order; two insertions at one offset keep their order.  GA_EINVAL when
 * edits overlap or reach past the text. */
int fix_edits_apply(const struct fix_edits *e, const char *text, size_t len, struct strbuf *out);
/* Where byte `pos` of the old text lands in the new text (an offset inside
 * a replaced range maps to the start of its replacement). */
size_t fix_edits_map(const struct fix_edits *e, size_t pos);

/* ---- diffs ---------------------------------------------------------- */

/* A unified diff of one file in git's format: "diff --git a/P b/P",
 * "--- a/P", "+++ b/P", hunks with 3 lines of context (merged when their
 * context touches) and git's C funcname (diff=cpp, as the kernel's
 * .gitattributes sets) after "@@ ... @@".  Appends nothing when a == b. */
void fix_diff(const char *path, const char *a, size_t alen, const char *b, size_t blen,
	      struct strbuf *out);
/* "N insertions(+), M deletions(-)" counts of a diff text. */
void fix_diff_counts(const char *diff, int *added, int *removed);

/* Apply a one-file git diff to `text` with libgit2 (in an in-memory
 * repository; nothing touches the disk).  0 with out filled; GA_EINVAL with
 * err_last() saying why when the diff does not parse, names another file
 * or does not apply; GA_ETOOL when libgit2 fails otherwise. */
int fix_patch_apply(const char *diff, size_t difflen, const char *path,
		    const char *text, size_t len, struct strbuf *out);

/* ---- shapes --------------------------------------------------------- */

const char *fix_kind_name(enum fix_kind k);

/* What a shape reads.  `site` byte ranges index `text`. */
struct factbase;
struct fix_ctx {
	const char *text;
	size_t len;
	const struct site *site;
	int costly_order;  /* PAGE_ALLOC_COSTLY_ORDER of the tree (3) */
	int cap;           /* cap-order: the highest order kept (costly_order, or 1
			    * for __GFP_NOFAIL); ignored by other shapes */
	const struct factbase *facts; /* the tree's joined facts (frees.h), or NULL */
};

/* Build the edits of shape `k` for c->site.  0 with `out` filled and a
 * one-line description in `note` (what the edit does and what the caller
 * must keep in mind); GA_ENOTFOUND when the shape does not fit this site,
 * with the reason in `note` (lowercase, no period). */
int fix_shape(enum fix_kind k, const struct fix_ctx *c, struct fix_edits *out, struct strbuf *note);

/* The shapes worth trying for a finding of `rule` at `c->site`, best
 * first, each with a one-line reason why it ranks there: the steps of the
 * rule's plan (struct check.fixes) whose conditions hold here.  Returns how
 * many were written (at most max); 0 for rules without a fix shape. */
struct fix_plan {
	enum fix_kind kind;
	int cap;
	char reason[200];
};
size_t fix_rank(const char *rule, const struct fix_ctx *c, struct fix_plan *out, size_t max);

/* ---- candidates ----------------------------------------------------- */

/* Re-analysis for verification: analyze `text` (len bytes) as the new
 * contents of the file the findings came from.  0 with *out filled (the
 * caller frees it; analyzed, skipped or failed alike), or a negative code
 * when the analysis itself cannot go on.  The fix stage does not know the
 * engine: whoever runs it passes this in (pipeline.h). */
typedef int (*fix_reanalyze_fn)(void *data, const char *text, size_t len, struct file_result **out);

struct fix_opts {
	int verbose;          /* > 0: say on stderr why candidates were dropped */
	int costly_order;     /* 0: PAGE_ALLOC_COSTLY_ORDER_DEFAULT */
	size_t max_per_finding; /* 0: no limit */
	/* NULL: no re-analysis (the diff still has to apply with libgit2 and
	 * give the edited text); it must not compute fixes itself. */
	fix_reanalyze_fn reanalyze;
	void *reanalyze_data;
	const struct factbase *facts; /* the tree's joined facts, or NULL (frees.h) */
};

/* Compute, verify and attach (finding_add_fix) the candidate fixes of every
 * finding in r, which holds the result of analyzing the file whose text is
 * text[0..len) (the file as the engine read it; `path` is where it was
 * read, the diffs name r->file, else path).  Returns 0, or a negative code
 * only when re-analysis fails; findings without a verified candidate are
 * left without fixes. */
int fix_file(const char *path, const char *text, size_t len, struct file_result *r,
	     const struct fix_opts *o);
/* The same for one finding f of r. */
int fix_candidates(const char *path, const char *text, size_t len, const struct file_result *r,
		   struct finding *f, const struct fix_opts *o);

/* ---- mails ---------------------------------------------------------- */

struct fix_mail_opts {
	const char *tree;   /* root the reported paths are relative to, or NULL */
	const char *from;   /* "Name <mail>"; NULL: git config of the repo, else gfpaudit */
	long long date;     /* seconds since the epoch; < 0: $SOURCE_DATE_EPOCH or now */
	bool no_blame;      /* never look up Fixes: */
};

/* The subsystem prefix of a path as upstream writes it: "mm/filemap",
 * "net", "iomap", "svcrdma"... (caller frees). */
char *fix_subject_prefix(const char *path);
/* One git format-patch style mail for fix x of finding f into out. */
int fix_mail_format(const struct fix_mail_opts *o, const struct finding *f, const struct fix *x,
		    struct strbuf *out);
/* The commit that last touched `line` of `path` (under o->tree or found
 * from the path): "<12 hex> (\"subject\")" into out.  GA_ENOTFOUND when the
 * file is not in a git repository or blame finds nothing. */
int fix_blame_line(const struct fix_mail_opts *o, const char *path, int line, struct strbuf *out);
/* Write one mail per fix of every finding of every result into dir
 * (created when missing), named "NNNN-<subject slug>.patch"; *count gets the
 * number written. */
int fix_mail_write_dir(const char *dir, const struct fix_mail_opts *o,
		       struct file_result *const *results, size_t n, size_t *count);

#endif
