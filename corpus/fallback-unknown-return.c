/*
 * The allocation's result is returned unchecked: what happens on failure
 * is the caller's business (fallback unknown), so no rule fires.
 *
 * Known to fail: the engine classifies a result returned unchecked as fallback
 * "none" (and reports costly-no-fallback) instead of "unknown".
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *big_scratch_page(void)
{
	return alloc_pages(GFP_KERNEL | __GFP_COMP, 5); // ok // site: order=5..5 fallback=unknown
}
/*
 * check-name: result returned unchecked: fallback unknown, no finding
 * check-known-to-fail
 *
 * check-output-start
 * check-output-end
 */
