/*
 * A ternary on the order picks the mask: costly attempts without direct
 * reclaim, the others with NORETRY; the loop stops at order 0, which keeps
 * the plain mask.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *ring_alloc(gfp_t gfp, unsigned int order)
{
	struct page *page;

	if (order > 8)
		order = 8;
	for (;;) {
		gfp_t g = order > PAGE_ALLOC_COSTLY_ORDER ? (gfp & ~__GFP_DIRECT_RECLAIM) | __GFP_NOWARN :
			  order ? gfp | __GFP_NORETRY | __GFP_NOWARN : gfp;

		page = alloc_pages(g, order); // ok // site: order=0..8 fallback=order-loop att=4..8/fallback/+NOWARN/-DIRECT_RECLAIM att=1..3/fallback/+NORETRY att=0..0/last
		if (page || !order)
			return page;
		order--;
	}
}
/*
 * check-name: ternary on the order: costly attempts lose direct reclaim
 * check-command: gfpaudit audit --allocator-model 6.12 $file
 *
 * check-output-start
 * check-output-end
 */
