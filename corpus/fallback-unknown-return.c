/*
 * The allocation's result is returned unchecked: what happens on failure
 * is the caller's business (fallback unknown), so no rule fires.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *big_scratch_page(void)
{
	return alloc_pages(GFP_KERNEL | __GFP_COMP, 5); // ok // site: order=5..5 fallback=unknown
}
/*
 * check-name: result returned unchecked: fallback unknown, no finding
 *
 * check-output-start
 * check-output-end
 */
