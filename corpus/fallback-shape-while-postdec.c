/*
 * `while (order-- > min)`: the condition lowers the order before each
 * attempt, the loop ends at the floor.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

#define RX_BUF_ORDER	5

struct page *rx_buf_grab(unsigned int *got)
{
	unsigned int order = RX_BUF_ORDER + 1;
	struct page *page;

	while (order-- > 0) {
		page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN | __GFP_COMP, order); // ok // site: order=0..5 fallback=order-loop fbat=15 stall=no
		if (page) {
			*got = order;
			return page;
		}
	}
	return NULL;
}
/*
 * check-name: while (order-- > 0) around the attempt
 *
 * check-output-start
 * check-output-end
 */
