/*
 * The allocation's result is returned unchecked.  That is the same as
 * `if (!page) return NULL; return page;`: a failure becomes an error return
 * for the caller, and the order is fixed here, so no caller can retry
 * smaller through this function: fallback none, costly-no-fallback.
 * (Decided by the lead: an earlier version of this case expected
 * "unknown"; a function with a parameter order would be a wrapper instead.)
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *big_scratch_page(void)
{
	return alloc_pages(GFP_KERNEL | __GFP_COMP, 5); // warn: costly-no-fallback // site: order=5..5 fallback=none
}
/*
 * check-name: result returned unchecked: an error return, fallback none
 *
 * check-output-start
 * corpus/fallback-unknown-return.c:14:9: warning: 'alloc_pages' can request order 5: no fallback [costly-no-fallback]
 * corpus/fallback-unknown-return.c:14:9: note: gfp GFP_KERNEL | __GFP_COMP
 * corpus/fallback-unknown-return.c:14:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-unknown-return.c:14:9: note: proven: every path asks for more than order 3
 * check-output-end
 */
