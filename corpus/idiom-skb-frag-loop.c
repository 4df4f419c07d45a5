/*
 * The skb frag loop idiom: orders from 4 down to 1 with direct reclaim
 * cleared, lowering the order after each failure and giving up on high
 * orders after the first one; order-0 pages with the caller's mask last.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/errno.h>

#define FRAG_MAX_ORDER	4

int skb_fill_frags(struct sk_buff *skb, unsigned long data_len, gfp_t gfp_mask)
{
	int max_page_order = FRAG_MAX_ORDER;
	int nfrags = 0;

	while (data_len && nfrags < MAX_SKB_FRAGS) {
		int order = max_page_order;
		unsigned long npages = DIV_ROUND_UP(data_len, PAGE_SIZE);
		struct page *page = NULL;

		while (order) {
			if (npages >= 1UL << order) {
				page = alloc_pages((gfp_mask & ~__GFP_DIRECT_RECLAIM) | __GFP_COMP | __GFP_NOWARN, order); // ok // site: order=1..4 fallback=order-loop mustnot=DIRECT_RECLAIM must=COMP|NOWARN
				if (page)
					break;
				order = 1;
				max_page_order = 0;
			}
			order--;
		}
		if (!page) {
			page = alloc_page(gfp_mask); // ok // site: order=0..0 api=alloc_page
			if (!page)
				return -ENOMEM;
		}
		skb_fill_page_desc(skb, nfrags++, page, 0, PAGE_SIZE << order);
		data_len -= min_t(unsigned long, data_len, PAGE_SIZE << order);
	}
	return 0;
}
/*
 * check-name: skb frag loop idiom: orders 4..1 without direct reclaim, then order 0
 *
 * check-output-start
 * check-output-end
 */
