/*
 * Order 3 is PAGE_ALLOC_COSTLY_ORDER itself: not costly, so no fallback is
 * needed.  Order 2 through a different entry point, same answer.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/errno.h>

struct desc_ring {
	struct page *ring;
	unsigned long stats;
};

int desc_ring_init(struct desc_ring *r)
{
	r->ring = alloc_pages(GFP_KERNEL | __GFP_ZERO, PAGE_ALLOC_COSTLY_ORDER); // ok // site: order=3..3 fallback=none must=ZERO
	if (!r->ring)
		return -ENOMEM;
	r->stats = __get_free_pages(GFP_KERNEL, 2); // ok // site: order=2..2 api=__get_free_pages
	if (!r->stats) {
		__free_pages(r->ring, PAGE_ALLOC_COSTLY_ORDER);
		return -ENOMEM;
	}
	return 0;
}
/*
 * check-name: costly-no-fallback miss: orders 3 and 2 are not costly
 *
 * check-output-start
 * check-output-end
 */
