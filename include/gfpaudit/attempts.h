/* Attempt classes: the mask each attempt of a call really gets.
 *
 * A call such as the page cache's folio loop asks for many orders, and the
 * mask it passes depends on the order through conditions written around it:
 * `if (order > min_order) { if (order > PAGE_ALLOC_COSTLY_ORDER) clear
 * direct reclaim; else add NORETRY; }`, ternaries, switches, derived
 * booleans (`bool costly = order > 3`).  A single join over every path
 * loses that split.  So the order range is cut at every constant the
 * function compares the order with (plus PAGE_ALLOC_COSTLY_ORDER and the
 * loop's floor), and by a symbolic floor (`order > min_order` vs
 * `order == min_order`); the interpreter then runs once per class with the
 * reads of the order that see the value the call passes ("tied" reads)
 * narrowed to the class.  A loop that lowers the order is run once for its
 * body, from the state the normal run had at the body's entry, so a class
 * that an early iteration cannot be in does not cut the later iterations.
 *
 * Each class gets the mask seen at the call and a role: an attempt with a
 * fallback after it, or the last attempt.  Rules judge classes; explain
 * prints them; JSON carries them as "attempts".
 */
#ifndef GFPAUDIT_ATTEMPTS_H
#define GFPAUDIT_ATTEMPTS_H
#include "gfpaudit/eval.h"
#include "gfpaudit/site.h"

/* What the caller knows about the call. */
struct attempt_plan {
	struct node *call;
	int var;                 /* the local the call passes as its order; -1: none */
	int costly;              /* PAGE_ALLOC_COSTLY_ORDER of the tree */
	int floor_var;           /* a loop's symbolic floor (`order-- > min_order`), or -1 */
	bool has_floor_k;        /* a loop's constant floor */
	int64_t floor_k;
	const struct aval *args; /* parameter bindings the site's run used */
	unsigned nargs;
};

/* How to run the interpreter and read what the call saw.  `cx` is a
 * template (tu, fn, on_call, data, cache, is_allocator); `reset` forgets
 * what the previous run recorded; `probe` returns false when the call was
 * not reached, else its mask and order. */
struct attempt_env {
	struct eval_ctx cx;
	void (*reset)(void *data);
	bool (*probe)(void *data, const struct node *call, struct gfp_bits *g, struct order_range *o);
};

/* Fill s->att for a site whose order range, fallback and gfp are set.
 * Without a class variable or any condition on it the classes are
 * site_default_attempts().  Returns 0. */
int attempts_build(const struct attempt_env *env, const struct attempt_plan *p, struct site *s);

#endif
