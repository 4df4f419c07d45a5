/*
 * A counted loop down to a floor the caller gives: every attempt above the
 * floor has a fallback (the next order), the floor is the last attempt.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

#define POOL_MAX_ORDER	6

struct page *pool_grab(gfp_t gfp, unsigned int min_order, unsigned int *got)
{
	struct page *page;
	int order;

	if (min_order > POOL_MAX_ORDER)
		return NULL;
	for (order = POOL_MAX_ORDER; order >= (int)min_order; order--) {
		page = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, order); // ok // site: order=0..6 fallback=order-loop fbat=17 stall=yes contig=unknown
		if (page) {
			*got = order;
			return page;
		}
	}
	return NULL;
}
/*
 * check-name: counted loop down to a floor the caller gives
 *
 * check-output-start
 * check-output-end
 */
