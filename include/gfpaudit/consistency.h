/* gfp mask <-> alloc_flags consistency in allocator-internal code (mm/).
 *
 * The page allocator derives its internal state (alloc_flags, local
 * capabilities such as can_direct_reclaim) from the gfp mask.  Three ways
 * to make them disagree, one rule each:
 *
 *   gfp-derived-divergence  a local capability derived from the mask is
 *       combined with a condition that is not in the mask, while the mask
 *       still flows to code that derives state from it (the rejected v5 of
 *       "avoid direct compaction for costly __GFP_NORETRY allocations");
 *   stale-alloc-flags  alloc_flags derived from a mask, the mask changes,
 *       and the old alloc_flags are used without being derived again;
 *   gfp-alloc-flags-mix  __GFP_* bits flowing into alloc_flags or ALLOC_*
 *       bits into a gfp mask, except the aliases the tree asserts with
 *       BUILD_BUG_ON (read from the tree's mm/page_alloc.c, or the file).
 *       sparse's "restricted gfp_t" warnings are one more input; this rule
 *       also sees the __force casts sparse cannot.
 *
 * The analysis reads the file as written (csrc.h): it is about the names the
 * programmer used, and needs no prepared tree.  Each finding carries the
 * lines that justify it.
 */
#ifndef GFPAUDIT_CONSISTENCY_H
#define GFPAUDIT_CONSISTENCY_H
#include <stdbool.h>
#include <stddef.h>

struct slowpath_model;

enum cons_rule {
	CONS_DIVERGENCE = 1 << 0,
	CONS_STALE = 1 << 1,
	CONS_MIX = 1 << 2,
};
/* "gfp-derived-divergence", "stale-alloc-flags", "gfp-alloc-flags-mix" */
const char *cons_rule_id(enum cons_rule r);

struct cons_evidence {
	int line;
	char *note;
};

struct cons_finding {
	enum cons_rule rule;
	int line, col;
	char *function;
	char *subject;  /* the variable or constant the finding is about */
	char *expr;     /* normalized offending expression (stable, for fingerprints) */
	char *message;  /* lowercase, no trailing period */
	struct cons_evidence *ev;
	size_t nev, ev_alloc;
	bool sparse;    /* reported (or confirmed) by sparse */
};

struct cons_result {
	struct cons_finding *f;
	size_t n, alloc;
	char *sparse_note; /* why sparse did not run, or NULL */
};

struct cons_opts {
	unsigned rules;                     /* enum cons_rule bits */
	const struct slowpath_model *model; /* aliases and values; may be NULL */
	bool sparse;                        /* run sparse for gfp-alloc-flags-mix (reads `path` from disk) */
	const char *tree;                   /* prepared tree for sparse flags, or NULL */
	const char *include_dir;            /* without a tree: headers for sparse (kmodel) */
};

/* Analyze `path` (contents, when given, replace the file on disk).
 * 0, or GA_EIO / GA_ETOOL from reading and lexing. */
int consistency_check(const char *path, const char *contents, size_t len,
		      const struct cons_opts *o, struct cons_result *out);
void cons_result_release(struct cons_result *r);


#endif
