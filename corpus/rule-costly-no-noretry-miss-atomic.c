/*
 * Atomic and non-blocking masks never enter direct reclaim, so an
 * opportunistic costly attempt with them cannot stall there.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct rx_ring {
	struct page *page;
	unsigned int order;
};

int rx_refill_atomic(struct rx_ring *rx)
{
	rx->order = 4;
	rx->page = alloc_pages(GFP_ATOMIC | __GFP_COMP | __GFP_NOWARN, 4); // ok // site: order=4..4 fallback=lower-order mustnot=DIRECT_RECLAIM|NORETRY must=HIGH|KSWAPD_RECLAIM
	if (rx->page)
		return 0;
	rx->order = 0;
	rx->page = alloc_page(GFP_ATOMIC); // ok // site: order=0..0 api=alloc_page
	return rx->page ? 0 : -ENOMEM;
}

struct page *rx_grab_nowait(unsigned int *out_order)
{
	struct page *page;
	unsigned int order = 5;

	do {
		page = alloc_pages(GFP_NOWAIT | __GFP_COMP, order); // ok // site: order=0..5 fallback=order-loop mustnot=DIRECT_RECLAIM must=NOWARN
		if (page) {
			*out_order = order;
			return page;
		}
	} while (order-- > 0);
	return NULL;
}
/*
 * check-name: costly-no-noretry miss: GFP_ATOMIC and GFP_NOWAIT never direct-reclaim
 *
 * check-output-start
 * check-output-end
 */
