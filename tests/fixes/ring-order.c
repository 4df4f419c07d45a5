// a test input written for gfpaudit
/*
 * An event ring sized from a module parameter: the order is a local that
 * the ring remembers, so a fallback loop, a cap or order 0 keep the size
 * math right (costly-no-fallback).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct evt_ring {
	struct page *pages;
	unsigned int order;
	unsigned long size;
};

int evt_ring_alloc(struct evt_ring *r, unsigned int nr_events)
{
	unsigned int order;

	if (!nr_events || nr_events > 4096)
		return -EINVAL;
	order = get_order(nr_events * 64);
	r->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, order);
	if (!r->pages)
		return -ENOMEM;
	r->order = order;
	r->size = PAGE_SIZE << order;
	return 0;
}

void evt_ring_free(struct evt_ring *r)
{
	__free_pages(r->pages, r->order);
}
