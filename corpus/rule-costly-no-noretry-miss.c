/*
 * The same order loop done right: every attempt carries __GFP_NORETRY and
 * __GFP_NOWARN, so a costly attempt gives up instead of stalling.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *buf_alloc_chunk(unsigned int *out_order)
{
	struct page *page;
	int order;

	for (order = 6; order >= 0; order--) {
		page = alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_NORETRY | __GFP_NOWARN, order); // ok // site: order=0..6 fallback=order-loop must=NORETRY|NOWARN|COMP fbmust=NORETRY
		if (page) {
			*out_order = order;
			return page;
		}
	}
	return NULL;
}
/*
 * check-name: costly-no-noretry miss: order loop with NORETRY|NOWARN
 *
 * check-output-start
 * check-output-end
 */
