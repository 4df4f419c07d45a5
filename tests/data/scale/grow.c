// a test input written for gfpaudit
/* gfpaudit test input (scale suite): a buffer that grows with a costly
 * high-order attempt and falls back to order 0. */
#include <linux/gfp.h>
#include <linux/mm.h>

struct ring {
	struct page *pages;
	unsigned int order;
};

static int ring_grow(struct ring *r, unsigned int want)
{
	unsigned int order = want;
	struct page *page;

	while (order > 0) {
		page = alloc_pages(GFP_KERNEL, order);
		if (page)
			break;
		order--;
	}
	if (!order)
		page = alloc_pages(GFP_KERNEL, 0);
	if (!page)
		return -12;
	r->pages = page;
	r->order = order;
	return 0;
}

int ring_init(struct ring *r)
{
	return ring_grow(r, 5);
}
