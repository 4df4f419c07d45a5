/* gfpaudit test input (scale suite): one order-5 attempt with no fallback. */
#include "alloc.h"

struct ring {
	struct page *pages;
	unsigned int order;
};

int ring_fill(struct ring *r)
{
	r->pages = alloc_pages(GFP_KERNEL, 5);
	if (!r->pages)
		return -12;
	r->order = 5;
	return 0;
}
