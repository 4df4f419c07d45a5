/* The abstract interpreter over a function model: for every local variable,
 * an integer interval and a gfp must/may mask, flow-sensitive (branches
 * join, loops iterate to a fixpoint, guards refine), with summaries of
 * static inline helpers and the kernel's order helpers (get_order, ilog2,
 * order_base_2, fls, min/max through their statement expressions).
 *
 * A value can also remember that it is a parameter of the function with
 * bits set/cleared on top (how same-file wrappers are recognized).  The mask
 * each attempt of a call gets is found by running the interpreter once per
 * attempt class (eval_assume, attempts.h), not by tracking conditions in
 * the values. */
#ifndef GFPAUDIT_EVAL_H
#define GFPAUDIT_EVAL_H
#include "gfpaudit/fn.h"
#include "gfpaudit/gfp.h"
#include "gfpaudit/order.h"
#include "gfpaudit/provenance.h"

#define EV_MAX 6


struct aval {
	struct interval iv;
	struct gfp_bits g;
	int param;                    /* value is parameter #param transformed, or -1 */
	uint64_t pset_must, pset_may; /* bits the transform sets */
	uint64_t pclr;                /* bits the transform clears on every path */
	uint64_t pclr_may;            /* bits it clears on some path */
	uint32_t pdep;                /* parameters (bit = index) the value depends on */
	int gparam;                   /* value is get_order(parameter #gparam), or -1 */
	unsigned evl[EV_MAX];         /* lines that set this value */
	int nev;
	/* provenance (provenance.h): the kinds of data the value is made of,
	 * and what the most telling one is (interned text, its line or 0) */
	unsigned src;
	const char *src_why;
	int src_why_kind;             /* the kind src_why is about, or -1 */
	unsigned src_line;
	/* A user makes the value reach the top of its range at will: the top
	 * is a kernel-wide limit on data any user chooses (an xattr value's
	 * size, a page-cache folio order up to the mapping's largest).  Kept
	 * only while the top stays that data's: a join keeps it from the side
	 * that reaches the higher top, a guard that lowers the top keeps it
	 * only when the bound is such a limit too, arithmetic only when the
	 * other operands are constants (provenance.h, SRC_TOP_USER). */
	bool top_user;
	/* Some bit below position ffs_hi + 1 is set (the path passed
	 * `if (x & ((1UL << n) - 1))`): __ffs(x) <= ffs_hi.  ffs_var is n's
	 * variable + 1 (0: no such fact), whose data the bound is. */
	int ffs_var;
	int64_t ffs_hi;
};

struct state {
	struct aval *v;
	int n;
	bool dead;
};

/* An attempt class (see attempts.h): what one run of the interpreter
 * assumes about the order a call requests.  Reads of `var` that see the
 * value the call passes (the `tied` uses) are narrowed to `iv`; a path on
 * which that is impossible does not reach the call in this class.  With
 * `rel_var` >= 0, the same reads also compare with that variable as `rel`
 * says (a symbolic floor such as min_order). */
enum eval_rel { REL_NONE, REL_GT, REL_EQ, REL_LT };
struct eval_assume {
	int var;
	struct interval iv;
	int rel_var;
	enum eval_rel rel;
	const struct node *const *tied; /* sorted by address */
	size_t ntied;
};

struct eval_ctx;
/* Called for every call expression reached in the analyzed function (not in
 * summarized helpers), with the state before the call and its arguments'
 * values. */
typedef void (*eval_call_fn)(struct eval_ctx *cx, struct node *call,
			     const struct aval *args, unsigned nargs, const struct state *st);

struct summary_cache;
struct factbase;

struct eval_ctx {
	const struct tu *tu;
	struct fn_model *fn;
	eval_call_fn on_call;
	void *data;
	int depth;
	struct summary_cache *cache;
	/* names that are sites, not helpers to summarize */
	bool (*is_allocator)(void *data, const char *name);
	/* results */
	struct aval ret;
	bool has_ret;
	struct loop_frame *loops;
	struct label_state *labels;    /* states that gotos carry to each label */
	int nlabels, labels_alloc;
	bool backward_changed;         /* a goto back changed a label seen earlier */
	int budget; /* statements left; the walk stops (soundly: unknown) at 0 */
	const struct eval_assume *assume; /* NULL: no attempt class */
	/* When set, the state at each entry to this loop body is joined into
	 * *captured (has_captured tells whether any was). */
	const struct node *capture_at;
	struct state *captured;
	bool has_captured;
	/* The tree-wide fact base (facts.h): observations (a store into a
	 * field, a function whose address is taken, a struct filled from user
	 * memory) go to on_fact when set; reads of fields and parameters
	 * nothing here bounds consult `facts` when set.  `file` is the reported
	 * path (the key of a static function's parameters). */
	void (*on_fact)(void *data, const char *key, const struct aval *v, unsigned line);
	const struct factbase *facts;
	const char *file;
	/* Inside the summary of a helper defined in a header (a static
	 * inline): what its calls pass are observations too, as if written at
	 * the analyzed function's call on line `inline_line` (0: not inside). */
	unsigned inline_line;
	/* When set, the states at the function's exits (its returns and the
	 * end of its body) are joined into *exits: what a summarized helper
	 * stored through its pointer parameters, for the caller (eval.c,
	 * callee_stores). */
	struct state *exits;
	/* Module parameters read as their defaults (module_param's variable's
	 * initializer): the run that says what the code asks for when nobody
	 * sets them (sites.c).  No observation, no summary cache. */
	bool at_defaults;
};

/* The fact-base key of a field ("field:S.f"; NULL for an anonymous record)
 * and of a function's parameter i ("param:F#i", "param:FILE:F#i" when F is
 * static; i < 0: "#*"); owned by the caller. */
char *eval_field_key(CXCursor field);
char *eval_param_key(CXCursor fn, const char *file, int i);

struct summary_cache *summary_cache_new(void);
void summary_cache_free(struct summary_cache *c);
/* Forget the helpers' answers to particular arguments (eval.c's memo):
 * the allocator table changed, so a helper may now call an allocator. */
void summary_cache_forget_calls(struct summary_cache *c);

/* Run the interpreter over cx->fn with parameters unknown (or bound to
 * `args` when non-NULL).  Returns 0. */
int eval_function(struct eval_ctx *cx, const struct aval *args, unsigned nargs);

/* Run the interpreter over one statement (a loop body) from `entry`, once:
 * break, continue and gotos out of it end the path.  Returns 0. */
int eval_region(struct eval_ctx *cx, struct node *stmt, const struct state *entry);
void eval_state_free(struct state *s);

/* Helpers for users of the values. */
struct aval aval_unknown(void);
/* An unknown value of source `kind` with its note (interned here). */
struct aval aval_source(enum src_kind kind, const char *why, unsigned line);
/* Add the provenance of `b` to `a` (kinds joined, the more telling note kept). */
void aval_src_merge(struct aval *a, const struct aval *b);
struct aval aval_join(struct aval a, struct aval b);
uint64_t aval_canon(const struct tu *t, long long v);
/* The order value of an aval as a reported range (clamped to max_order). */
struct order_range aval_order(const struct aval *a, int max_order);

#endif
