/*
 * The split written the other way round: `<=` on PAGE_ALLOC_COSTLY_ORDER,
 * the costly attempts in the else branch.  Same verdict as `>`.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *buf_alloc(unsigned int order)
{
	struct page *page;

	if (order > 7)
		return NULL;
	while (order) {
		gfp_t g = GFP_KERNEL | __GFP_NOWARN;

		if (order <= PAGE_ALLOC_COSTLY_ORDER)
			g |= __GFP_NORETRY;
		else
			g &= ~__GFP_DIRECT_RECLAIM;
		page = alloc_pages(g, order); // ok // site: order=1..7 fallback=order-loop att=4..7/fallback/-DIRECT_RECLAIM att=2..3/fallback/+NORETRY
		if (page)
			return page;
		order--;
	}
	return alloc_pages(GFP_KERNEL, 0); // ok
}
/*
 * check-name: else branch with <=: costly attempts lose direct reclaim
 *
 * check-output-start
 * check-output-end
 */
