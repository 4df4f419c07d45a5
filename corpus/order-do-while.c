/*
 * The page-cache loop shape: try the largest order, step down with
 * `while (order-- > min_order)`.  Every attempt is NORETRY|NOWARN.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *grab_block(unsigned int *got_order)
{
	unsigned int order = 4, min_order = 0;
	struct page *page;

	do {
		page = alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_NORETRY | __GFP_NOWARN, order); // ok // site: order=0..4 fallback=order-loop must=NORETRY|NOWARN
		if (page) {
			*got_order = order;
			return page;
		}
	} while (order-- > min_order);
	return NULL;
}
/*
 * check-name: do-while order loop with order-- > min_order
 *
 * check-output-start
 * check-output-end
 */
