/*
 * A chunking loop: each chunk asks for min(order, get_order(remaining)),
 * and a failed order is lowered for the next try.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/minmax.h>
#include <linux/errno.h>

#define CHUNK_MAX_ORDER	8

struct chunk_list {
	struct page *pg[64];
	unsigned int ord[64];
	unsigned int n;
};

int chunks_fill(struct chunk_list *cl, size_t size)
{
	unsigned int order = CHUNK_MAX_ORDER;
	size_t remaining = size;
	struct page *page;

	while (remaining && cl->n < 64) {
		order = min_t(unsigned int, order, get_order(remaining));
		page = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, order); // ok // site: order=0..8 fallback=order-loop fbat=30 stall=yes
		if (!page) {
			if (!order)
				return -ENOMEM;
			order--;
			continue;
		}
		cl->pg[cl->n] = page;
		cl->ord[cl->n++] = order;
		remaining -= remaining < (PAGE_SIZE << order) ? remaining : (PAGE_SIZE << order);
	}
	return 0;
}
/*
 * check-name: chunking loop with min(order, get_order(remaining))
 *
 * check-output-start
 * check-output-end
 */
