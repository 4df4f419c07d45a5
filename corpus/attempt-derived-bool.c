/*
 * The cost is computed once into a flag and tested later (the shape the
 * rejected v5 page-allocator patch used for its own local): the costly
 * attempts clear direct reclaim through the flag.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *pool_refill(gfp_t gfp, unsigned int max_order, unsigned int min_order)
{
	unsigned int order = min(max_order, 9U);
	struct page *page;

	for (; order >= min_order; order--) {
		bool costly = order > PAGE_ALLOC_COSTLY_ORDER;
		gfp_t g = gfp | __GFP_NOWARN;

		if (order > min_order)
			g |= __GFP_NORETRY;
		if (costly)
			g &= ~__GFP_DIRECT_RECLAIM;
		page = alloc_pages(g, order); // ok // site: fallback=order-loop att=4..9/fallback/+NOWARN/-DIRECT_RECLAIM att=1..3/fallback/+NORETRY|NOWARN
		if (page)
			return page;
		if (!order)
			break;
	}
	return NULL;
}
/*
 * check-name: a derived boolean (costly = order > 3) decides the mask
 * check-command: gfpaudit audit --allocator-model 6.12 $file
 *
 * check-output-start
 * check-output-end
 */
