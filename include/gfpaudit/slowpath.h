/* What the page allocator's slow path does with a (gfp, order) request, on
 * the analyzed tree.
 *
 * Whether a costly __GFP_NORETRY request still enters direct compaction, at
 * what priority, whether it reclaims, retries or may OOM, changed across
 * releases.  The model reads those switches from the tree's own
 * mm/page_alloc.c: it recognizes the statements of __alloc_pages_slowpath()
 * (the compaction attempted before reclaim for costly orders, the
 * `costly_order && __GFP_NORETRY` block and its skipped/deferred exits, the
 * NORETRY and costly exits, the retry calls, OOM, NOFAIL) and interprets
 * gfp_to_alloc_flags() with the tree's __GFP_* (include/linux/gfp_types.h
 * or gfp.h) and ALLOC_* (mm/internal.h) values, so every statement of the
 * model carries the file:line it was read from.
 *
 * When the tree has no mm/page_alloc.c, or its slow path is not recognized,
 * a named built-in model is used ("6.1", "6.12", "later"; "later" is the
 * upstream proposal where a costly __GFP_NORETRY request skips direct
 * compaction and reclaim).  `--allocator-model NAME` forces a built-in.
 * The model always says which one is in use and why.
 */
#ifndef GFPAUDIT_SLOWPATH_H
#define GFPAUDIT_SLOWPATH_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "gfpaudit/gfp.h"

/* Recognized statements of the tree (or of the built-in model: line 0). */
#define SP_FACT_LIST(X) \
	X(CAN_DIRECT_RECLAIM, "can_direct_reclaim derived from the mask") \
	X(CAN_COMPACT, "compaction allowed by the mask (gfp_compaction_allowed)") \
	X(COMPACTION_IO, "compaction needs __GFP_IO") \
	X(KSWAPD, "kswapd woken when ALLOC_KSWAPD") \
	X(COMPACT_FIRST, "direct compaction tried before reclaim for costly orders") \
	X(COSTLY_NORETRY, "costly __GFP_NORETRY checks after the first compaction") \
	X(CN_BAIL_SKIPPED, "costly __GFP_NORETRY gives up when compaction was skipped or deferred") \
	X(CN_BAIL_THISNODE, "costly __GFP_NORETRY|__GFP_THISNODE gives up after compaction") \
	X(CN_ASYNC, "costly __GFP_NORETRY keeps async compaction") \
	X(CN_SKIP, "costly __GFP_NORETRY skips direct compaction") \
	X(RECLAIM_NEEDS_DR, "no direct reclaim: give up") \
	X(RECLAIM, "direct reclaim") \
	X(DRAIN, "per-cpu lists drained after a failed reclaim attempt") \
	X(COMPACT_AFTER, "direct compaction after reclaim") \
	X(NORETRY_EXIT, "__GFP_NORETRY: no retries") \
	X(COSTLY_EXIT, "costly orders retry only with __GFP_RETRY_MAYFAIL and compaction") \
	X(RECLAIM_RETRY, "reclaim retries (should_reclaim_retry)") \
	X(COMPACT_RETRY, "compaction retries (should_compact_retry)") \
	X(OOM, "OOM killer path") \
	X(OOM_NOT_COSTLY, "no OOM killer for costly orders") \
	X(OOM_NOT_MAYFAIL, "no OOM killer for __GFP_RETRY_MAYFAIL|__GFP_THISNODE") \
	X(NOFAIL_WARN, "__GFP_NOFAIL warning on order") \
	X(NOFAIL_NO_RECLAIM, "__GFP_NOFAIL without direct reclaim fails") \
	X(NOFAIL_LOOP, "__GFP_NOFAIL retries forever") \
	X(ALLOC_FLAGS, "gfp_to_alloc_flags()") \
	X(ALLOC_FLAGS_CALL, "alloc_flags derived in the slow path")

enum sp_fact_id {
#define X(n, d) SPF_##n,
	SP_FACT_LIST(X)
#undef X
	SPF__COUNT
};

struct sp_fact {
	bool present;
	const char *file; /* relative to the tree ("mm/page_alloc.c"); NULL: built-in */
	int line;
};

/* How costly __GFP_NORETRY requests avoid compaction, when they do. */
enum sp_cn_skip {
	CN_SKIP_NONE,   /* they compact (6.1 .. 6.12) */
	CN_SKIP_MASK,   /* __GFP_DIRECT_RECLAIM cleared from the mask at entry */
	CN_SKIP_BAIL,   /* give up before the first compaction */
	CN_SKIP_GUARD,  /* the first compaction's guard excludes them (reclaim still runs) */
	CN_SKIP_FLAG,   /* folded into can_direct_reclaim (the rejected v5 shape) */
};

struct sp_alias {
	char *gfp, *alloc; /* "__GFP_HIGH", "ALLOC_MIN_RESERVE" */
	int line;
};

struct sp_alloc_flag {
	char *name;
	uint64_t value;
	int line; /* in mm/internal.h, 0 built-in */
};

struct slowpath_model {
	char *name;         /* "tree", or a built-in: "6.1", "6.12", "later" */
	char *tree;         /* tree root, or NULL */
	char *reason;       /* why a built-in is used (NULL when read from the tree) */
	bool assumed;       /* no tree and no --allocator-model: a default, not a fact about a tree */
	char *version;      /* "6.12.117" from the tree's Makefile, or NULL */
	int costly_order;
	bool compaction;    /* CONFIG_COMPACTION */
	char *config_source;
	struct sp_fact facts[SPF__COUNT];
	enum sp_cn_skip cn_skip;
	bool cn_skip_exempt_thisnode, cn_skip_exempt_nofail;
	int nofail_warn_order; /* warns when order > this */
	char *first_compact_prio, *after_compact_prio; /* "INIT_COMPACT_PRIORITY" … */
	struct sp_alias *aliases;
	size_t naliases;
	/* the tree's values (gfp_known/alloc_known false for built-ins) */
	bool gfp_known;
	struct gfp_table gfp;
	char *gfp_source;
	struct sp_alloc_flag *alloc;
	size_t nalloc;
	char *alloc_source;
	struct slowpath_tree *t; /* parsed sources kept for interpretation */
};

/* Load the model for `tree` (NULL: no tree).  `choice` NULL or "auto": read
 * the tree, fall back to the built-in nearest its version; "6.1", "6.12",
 * "later": that built-in.  GA_EINVAL for an unknown choice. */
int slowpath_model_load(const char *tree, const char *choice, struct slowpath_model **out);
void slowpath_model_free(struct slowpath_model *m);
/* Built-in names, NULL-terminated. */
const char *const *slowpath_builtin_names(void);
/* "mm/page_alloc.c (6.12.117, read from the tree)" or "built-in 6.12 (…reason)" */
char *slowpath_model_describe(const struct slowpath_model *m);
/* One line per recognized fact: "  direct reclaim: mm/page_alloc.c:4485". */
void slowpath_model_print(const struct slowpath_model *m, FILE *f);

enum sp_tri { SP_NO, SP_MAYBE, SP_YES };

/* One thing the slow path does, in order. */
struct sp_step {
	enum sp_fact_id fact; /* where it was read from */
	enum sp_tri when;     /* always, depending on flags or runtime, never */
	char *text;           /* "direct compaction (async, INIT_COMPACT_PRIORITY) before reclaim" */
};

struct sp_outcome {
	struct sp_step *steps;
	size_t nsteps, alloc;
	enum sp_tri kswapd, compacts, reclaims, retries, oom, fails;
	bool nofail_warns;
	char *summary; /* short, for grouping orders: "async compaction, then …" */
};


/* What the slow path does for a request with `g` at `order`.  Step texts
 * carry no source reference: the step's fact (m->facts[id]) has it. */
void slowpath_simulate(const struct slowpath_model *m, struct gfp_bits g, int order,
		       struct sp_outcome *out);
void sp_outcome_release(struct sp_outcome *o);

/* Does a costly __GFP_NORETRY request (with direct reclaim and __GFP_IO) still
 * enter direct compaction on this model?  *where: the fact that says so. */
bool slowpath_costly_noretry_compacts(const struct slowpath_model *m, const struct sp_fact **where);

/* alloc_flags that gfp_to_alloc_flags() derives for (g, order). */
struct sp_flag_out {
	char *name;
	enum sp_tri set;
	const char *file; /* where it is set, NULL built-in */
	int line;
};
struct sp_flags {
	struct sp_flag_out *f;
	size_t n, alloc;
	bool from_tree; /* interpreted from the tree's gfp_to_alloc_flags() */
	char *note;     /* why it was not interpreted, or NULL */
};
void slowpath_alloc_flags(const struct slowpath_model *m, struct gfp_bits g, int order, struct sp_flags *out);
void sp_flags_release(struct sp_flags *f);

/* The gfp/ALLOC aliases the tree asserts (BUILD_BUG_ON), for the mixing rule:
 * true if `gfp_name` and `alloc_name` are asserted equal. */
bool slowpath_is_alias(const struct slowpath_model *m, const char *gfp_name, const char *alloc_name);

#endif
