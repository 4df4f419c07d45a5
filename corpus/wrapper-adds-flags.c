/*
 * A wrapper that adds NORETRY|NOWARN itself: a caller looping over orders
 * through it gets opportunistic attempts, so no costly-no-noretry.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

static struct page *try_block(gfp_t gfp, unsigned int order)
{
	return alloc_pages(gfp | __GFP_NORETRY | __GFP_NOWARN, order); // ok
}

struct page *grab_largest(unsigned int *got)
{
	struct page *page;
	int order;

	for (order = 5; order >= 0; order--) {
		page = try_block(GFP_KERNEL, order); // ok // site: order=0..5 api=try_block fallback=order-loop must=NORETRY|NOWARN|DIRECT_RECLAIM
		if (page) {
			*got = order;
			return page;
		}
	}
	return NULL;
}
/*
 * check-name: wrapper adding NORETRY|NOWARN, called in an order loop
 *
 * check-output-start
 * check-output-end
 */
