/* Who handles a function's failure: its callers, through the fact base.
 *
 * Every function of an analyzed file publishes, for each function it calls
 * (facts.h observation "fails:F", "fails:FILE:F" for a static F), how it
 * handles that call's failure (a NULL, an error code, a zero count):
 *   CALLER_PROPAGATES   the failure goes on (returned, `goto err`, an
 *                       error code not looked at, or F's address is taken:
 *                       callers unseen);
 *   CALLER_FEATURE_OFF  the failure branch goes on (no return, not even
 *                       `return 0`; no goto, no -E code; a warning, a flag
 *                       cleared): the result was optional;
 *   CALLER_OTHER_PATH   the failure branch allocates or computes the same
 *                       thing another way (another allocator, another
 *                       function into the same variable);
 *   CALLER_SMALLER      the failure branch lowers an argument of the call and
 *                       calls again (a loop, a goto back, a second call), or
 *                       returns THP's `*_FALLBACK` (the fault is retried
 *                       with base pages), itself or after a goto.
 * The observations are constants (the kind's number), so the join of a
 * function's callers is an interval: its low end is the weakest caller.  A
 * site whose failure leaves its function by a return has a fallback when
 * every caller the tree shows copes (low end above CALLER_PROPAGATES); the
 * best caller (the largest constant, facts.h cmax) names the kind and the
 * place.
 */
#ifndef GFPAUDIT_CALLERS_H
#define GFPAUDIT_CALLERS_H
#include <stdbool.h>
#include <clang-c/Index.h>
#include "gfpaudit/alloc_table.h"
#include "gfpaudit/fn.h"
#include "gfpaudit/result.h"

enum caller_handling {
	CALLER_PROPAGATES = 0,
	CALLER_FEATURE_OFF = 1,
	CALLER_OTHER_PATH = 2,
	CALLER_SMALLER = 3,
};
const char *caller_handling_name(enum caller_handling h);

/* The fact-base key of function `fn` ("fails:F" or "fails:FILE:F" for a
 * static function of `file`), new string; NULL for a null cursor. */
char *callers_key(CXCursor fn, const char *file);

/* Publish into `out` how the n functions f of the file handle the failures
 * of the functions they call (allocator APIs of `tab` are sites, not facts),
 * and that the functions whose address they take have callers the tree
 * does not show.  A static function that hands a callee's failure back
 * (`return helper(x);`, `if (!helper(x)) return false;`) publishes nothing
 * for it: its own callers' handling (all in this file) is published for
 * the callee too, a few levels down (radeon's igp_read_bios_from_vram(),
 * returned by radeon_read_disabled_bios(), whose caller tries the next
 * BIOS source).  A non-static function that hands back the failure of a
 * static one publishes nothing for it either: the static function's one
 * reader, in this file, follows the other's key (callers_cope).  A call
 * whose pointer result is discarded (`get_ref(x);`) publishes nothing. */
void callers_publish(const struct tu *t, struct fn_model *const *f, size_t n, const char *file,
		     const struct alloc_table *tab, struct file_result *out);

/* Does a failure of `call` (its result stored to `lv`, or NULL) leave the
 * function by a return or a goto: the callers see it? */
bool callers_failure_returns(const struct tu *t, const struct node *call, const char *lv);

/* Does a failure of `call` end its function, which returns void, without
 * storing an errno on the way (`if (!buf) { pr_err(...); return; }`): the
 * callers cannot see it, they go on without the memory (a feature off)?
 * `fn` is the function that makes the call.  The line of that return (or
 * goto), 0 if not. */
int callers_failure_ends_void(const struct tu *t, const struct node *call, CXCursor fn);

struct factbase;
struct caller_fallback {
	enum caller_handling how; /* the best caller's */
	char *file;               /* where: "file" and line of that caller */
	int line;
	unsigned ncallers;        /* observations joined */
	char *via;                /* the exported function of this file whose
				   * callers the best one is (it hands fn's
				   * failure on), or NULL; new */
};
/* Do all the callers of fn that the tree shows cope with its failure? On
 * true *out is filled (out->file, out->via are new).  A static fn whose
 * failure a non-static function g of the file hands back (directly or
 * through static functions of the file: t, the file's n functions f, the
 * allocators tab) is followed there: g's callers (fails:g, in any file)
 * must cope too, and g must have one the tree shows (mm/huge_memory.c's
 * get_huge_zero_page() through mm_get_huge_zero_folio() to its callers in
 * huge_memory.c and fs/dax.c, which return VM_FAULT_FALLBACK).  t NULL:
 * fn's own key only. */
bool callers_cope(const struct factbase *fb, const struct tu *t, struct fn_model *const *f, size_t n,
		  const struct alloc_table *tab, CXCursor fn, const char *file, struct caller_fallback *out);

#endif
