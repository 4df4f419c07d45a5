/*
 * order_base_2() rounds up: a length checked against 256 KiB is at most 64
 * pages, so the order is 0..6.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct dma_pool_chunk {
	struct page *page;
	unsigned int order;
};

int chunk_alloc(struct dma_pool_chunk *c, size_t size)
{
	unsigned int order;

	if (size > SZ_256K)
		return -EINVAL;
	order = order_base_2(DIV_ROUND_UP(size, PAGE_SIZE));
	c->page = alloc_pages(GFP_KERNEL | __GFP_COMP, order); // site: order=0..6 fallback=none // note: costly-no-fallback
	if (!c->page)
		return -ENOMEM;
	c->order = order;
	return 0;
}
/*
 * check-name: order from order_base_2() of a guarded length (0..6)
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/order-order-base-2.c:24:12: note: 'alloc_pages' can request order 0..6: no fallback [costly-no-fallback]
 * corpus/order-order-base-2.c:24:12: note: gfp GFP_KERNEL | __GFP_COMP
 * corpus/order-order-base-2.c:24:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/order-order-base-2.c:24:12: note: possible: the order comes from parameter 'size' of chunk_alloc(), whose values are not known here
 * check-output-end
 */
