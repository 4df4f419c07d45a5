/*
 * Short-circuit conditions on the order: `&&` picks the costly attempts
 * above the floor, `||` the rest.  Costly attempts lose direct reclaim.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *frag_refill(unsigned int order, unsigned int min_order)
{
	struct page *page;

	if (order > 10)
		order = 10;
	do {
		gfp_t g = GFP_KERNEL;

		if (order > min_order && order > PAGE_ALLOC_COSTLY_ORDER)
			g = (g & ~__GFP_DIRECT_RECLAIM) | __GFP_NOWARN;
		else if (order <= min_order || order <= 1)
			g |= __GFP_NOWARN;
		else
			g |= __GFP_NORETRY | __GFP_NOWARN;
		page = alloc_pages(g, order); // ok // site: fallback=order-loop att=4..10/fallback/+NOWARN/-DIRECT_RECLAIM att=2..3/fallback/+NORETRY|NOWARN
		if (page)
			return page;
	} while (order-- > min_order);
	return NULL;
}
/*
 * check-name: && and || on the order split the classes
 * check-command: gfpaudit audit --allocator-model 6.12 $file
 *
 * check-output-start
 * check-output-end
 */
