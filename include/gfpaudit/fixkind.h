/* The kinds of candidate fix, and the plan a rule gives (struct check.fixes):
 * which kinds to try at a finding, in what order and why.  The rules (checks/)
 * say what to try; fix/ builds and verifies the edits. */
#ifndef GFPAUDIT_FIXKIND_H
#define GFPAUDIT_FIXKIND_H

#define FIX_KIND_LIST(X) \
	X(ADD_NORETRY, "add-noretry") \
	X(STRIP_DIRECT_RECLAIM, "strip-direct-reclaim") \
	X(CAP_ORDER, "cap-order") \
	X(KVMALLOC, "kvmalloc") \
	X(FALLBACK_LOOP, "fallback-loop") \
	X(ORDER_ZERO, "order-zero") \
	X(ADD_NOWARN, "add-nowarn") \
	X(DROP_NOFAIL, "drop-nofail")

enum fix_kind {
#define X(e, s) FIX_##e,
	FIX_KIND_LIST(X)
#undef X
	FIX__COUNT
};

/* Conditions on the site and its function under which a plan step
 * applies (all the bits of `when` must hold; 0: always). */
enum {
	FIXW_SLAB = 1 << 0,          /* a kmalloc-family (slab) call */
	FIXW_NOT_SLAB = 1 << 1,      /* a page API or a wrapper */
	/* the function already uses __GFP_NORETRY for its opportunistic
	 * attempts and never clears __GFP_DIRECT_RECLAIM, and the order is
	 * not always above the costly one */
	FIXW_NORETRY_IDIOM = 1 << 2,
	FIXW_NOT_NORETRY_IDIOM = 1 << 3,
	FIXW_FN_STRIPS = 1 << 4,     /* the function names __GFP_DIRECT_RECLAIM */
	FIXW_NOT_FN_STRIPS = 1 << 5,
};

/* cap-order's cap: the tree's PAGE_ALLOC_COSTLY_ORDER */
#define FIX_CAP_COSTLY (-1)

/* One step of a rule's plan; a rule's list ends with a NULL reason. */
struct fix_step {
	enum fix_kind kind;
	int cap;            /* cap-order: the highest order kept, or FIX_CAP_COSTLY */
	unsigned when;      /* FIXW_* */
	const char *reason; /* why it ranks here (the fix's note) */
};

#endif
