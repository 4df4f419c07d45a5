/* Review a mailed patch series: find its base, apply it patch by patch in
 * memory, analyze the files each patch touches before and after it, and keep
 * only what the series changed (introduced / fixed findings).
 *
 * Untrusted input (README, "Reviewing mailed patch series"): the series is
 * parsed by mail/, applied by vcs/apply.c (no work tree, no index, no refs written), and the
 * patched files reach the engine only as in-memory unsaved files.  Nothing
 * from the series is built or run.
 */
#ifndef GFPAUDIT_REVIEW_H
#define GFPAUDIT_REVIEW_H
#include <stdbool.h>
#include <stdio.h>
#include "gfpaudit/apply.h"
#include "gfpaudit/engine.h"
#include "gfpaudit/isolate.h"
#include "gfpaudit/mail.h"
#include "gfpaudit/slowpath.h"

struct review_opts {
	const char *const *mboxes;   /* paths ("-" for stdin), read as one mbox */
	size_t nmboxes;
	const char *repo;            /* git repository (a prepared kernel tree or not) */
	const char *base;            /* --base REV, or NULL */
	const char *b4_tracking;     /* B4_TRACKING_FILE: a lone patch N is applied on
				      * top of patch N-1 of b4's review branch, whatever
				      * its base-commit trailer says; NULL: not used */
	struct engine_opts engine;   /* rules, allocator tables; .tree is set here */
	struct mail_limits limits;
	size_t max_file;             /* a file bigger than this is not analyzed */
	/* Introduced findings below this are not reported (a "possible" costly
	 * order is a note: noise on a list); fixed ones always are.  The zero
	 * value is SEV_NOTE: everything. */
	int min_severity;
	struct isolate_limits isolation; /* each analysis runs in a child with these (isolate.h) */
	int verbose;
	bool no_pch;                 /* never the precompiled kernel headers (else: with a
				      * prepared tree, when no patch touches a header) */
};
#define REVIEW_MAX_FILE_DEFAULT ((size_t)10 << 20)
/* A patch that changes only headers is analyzed through at most this many
 * of the .c files including each of them (stderr says when capped). */
#define REVIEW_HEADER_INCLUDERS 3

struct review_finding {
	struct finding f;            /* paths relative to the repository root */
	int fixed_by;                /* index (m) of the later patch that removes it, 0: none */
};

struct review_patch {
	int index;                   /* m of m/n */
	const struct mail_message *msg;
	bool applied;
	char *error;                 /* why it was not applied, NULL when applied */
	char *failed_file, *failed_hunk;
	struct apply_result ar;      /* files and hunks (for quoting) */
	struct review_finding *introduced, *fixed;
	size_t nintroduced, introduced_alloc, nfixed, fixed_alloc;
	size_t nbelow;               /* introduced findings below --severity: counted,
				      * never mailed (see README "Severity of a review") */
	char **notes;                /* files the engine skipped or could not analyze */
	size_t nnotes, notes_alloc;
	int analyzed;                /* files analyzed (before and after each count) */
	char *partial;               /* the first file the patch leaves partially
				      * analyzed (parse errors in a function that
				      * allocates): never a pass; NULL if none */
};

enum review_base_source { BASE_TRAILER, BASE_OPTION, BASE_HEAD };

struct review {
	struct mail_series series;
	char base[41];
	enum review_base_source base_source;
	char *base_note;             /* how the base was chosen, for stderr */
	char *root;                  /* repository root the paths are relative to */
	bool kbuild;                 /* analyzed with the repository's own kbuild flags */
	struct slowpath_model *model; /* the allocator model of the repository's tree
				       * (a built-in when it has no mm/page_alloc.c):
				       * what the mails say about the slow path */
	struct review_patch *patches;
	size_t npatches;
};

const char *review_base_source_name(enum review_base_source s);

/* Where patch `index` (m of m/n) of the series b4 tracks applies
 * (analyzer/review/tracking.c). */
struct review_tracking {
	char *rev;       /* a revision: the base-commit, or the commit of patch N-1 */
	char *note;      /* how it was found, for stderr */
	char *first;     /* series.first-patch-commit, to check `first_rev` against, or NULL */
	char *first_rev; /* where the branch should have patch 1, or NULL */
};
/* 0, or GA_EINVAL when the file cannot be read or does not say. */
int review_tracking_base(const char *path, int index, struct review_tracking *out);
void review_tracking_release(struct review_tracking *t);

/* Run a review.  Returns 0 with *out filled (patches that do not apply are
 * reported inside), or: GA_EINVAL (mbox over a cap, no patch in it),
 * GA_EIO (mbox unreadable), GA_ENOTFOUND (no repository, base not in it;
 * err_last() says what to do), GA_ETREE/GA_ETOOL from the engine. */
int review_run(const struct review_opts *o, struct review **out);
void review_free(struct review *r);

/* Classify one file: findings of `after` whose fingerprint has no partner in
 * `before` are introduced, those of `before` with no partner in `after` are
 * fixed (a multiset match, so two equal sites count twice).  Fills arrays of
 * indexes into before/after (caller frees). */
void review_classify(const struct finding *before, size_t nbefore,
		     const struct finding *after, size_t nafter,
		     size_t **introduced, size_t *nintroduced,
		     size_t **fixed, size_t *nfixed);

/* Printers (analyzer/review/print.c). */
struct review_print_opts {
	const char *from;    /* reply sender (required for mails) */
	const char *self_id; /* set by the printer: the reply's Message-Id, for Closes: */
};
/* review --format json (README, "Reviewing mailed patch series"). */
int review_print_json(const struct review *r, FILE *out);
/* An mbox of replies: one per patch with findings, one line on the cover. */
int review_print_email(const struct review *r, const struct review_print_opts *o, FILE *out);
/* b4 CI-check protocol: a JSON array of {tool, status, summary, details}. */
int review_print_b4(const struct review *r, FILE *out);
/* b4 prep/am/shazam --check: one line per finding, "ERROR:" only for error
 * severity, nothing when clean. */
int review_print_b4_check(const struct review *r, FILE *out);
/* b4 output when the series cannot be reviewed at all (one "warn" item). */
int review_print_b4_error(const char *summary, FILE *out);
/* The review text of one patch (what the reply says), for tests and b4. */
char *review_patch_text(const struct review *r, const struct review_patch *p);
/* Counts over the series: introduced findings still present at its end,
 * introduced and fixed again within it, and pre-existing ones it fixed. */
void review_counts(const struct review *r, size_t *open, size_t *transient, size_t *fixed);
/* Introduced findings below --severity, over the series. */
size_t review_below(const struct review *r);
/* How far back HEAD's first-parent line is searched for a lone patch that is
 * already committed (b4 prep --check). */
#define REVIEW_APPLIED_DEPTH 64

#endif
