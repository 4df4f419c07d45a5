// a test input written for gfpaudit
/*
 * A receive ring that takes the largest chunk it can get: the loop walks
 * the order down from the ring's preferred order, but every costly attempt
 * may still stall in direct compaction first (costly-no-noretry).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct rx_ring {
	struct page *chunk;
	unsigned int order;
	unsigned int max_order;
};

int rx_ring_fill(struct rx_ring *ring, gfp_t gfp)
{
	struct page *page;
	int order;

	for (order = min(ring->max_order, 5U); order >= 0; order--) {
		page = alloc_pages(gfp | __GFP_COMP, order);
		if (page)
			break;
	}
	if (!page)
		return -ENOMEM;
	ring->chunk = page;
	ring->order = order;
	return 0;
}
