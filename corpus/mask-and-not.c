/*
 * Direct reclaim cleared with &= ~ before an order loop: the costly
 * attempts only wake kswapd and fail fast.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *scratch_grab(unsigned int *got)
{
	gfp_t gfp = GFP_KERNEL | __GFP_COMP | __GFP_NOWARN;
	struct page *page;
	int order;

	gfp &= ~__GFP_DIRECT_RECLAIM;
	for (order = 5; order >= 0; order--) {
		page = alloc_pages(gfp, order); // ok // site: order=0..5 fallback=order-loop mustnot=DIRECT_RECLAIM must=KSWAPD_RECLAIM|NOWARN|COMP
		if (page) {
			*got = order;
			return page;
		}
	}
	return NULL;
}
/*
 * check-name: mask with &= ~__GFP_DIRECT_RECLAIM before an order loop
 *
 * check-output-start
 * check-output-end
 */
