/*
 * A switch on the order: order 0 keeps the mask, 1..3 get NORETRY, the
 * default (costly) ones lose direct reclaim.  A fallback to order 0 follows.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *sw_alloc(unsigned int order)
{
	struct page *page;
	gfp_t g = GFP_KERNEL | __GFP_NOWARN;

	if (order > 6)
		order = 6;
	switch (order) {
	case 0:
		break;
	case 1:
	case 2:
	case 3:
		g |= __GFP_NORETRY;
		break;
	default:
		g &= ~__GFP_DIRECT_RECLAIM;
		break;
	}
	page = alloc_pages(g, order); // ok // site: order=0..6 fallback=lower-order att=4..6/fallback/-DIRECT_RECLAIM att=1..3/fallback/+NORETRY
	if (!page)
		page = alloc_pages(GFP_KERNEL, 0); // ok
	return page;
}
/*
 * check-name: switch on the order: cases and default each get their mask
 * check-command: gfpaudit audit --allocator-model 6.12 $file
 *
 * check-output-start
 * check-output-end
 */
