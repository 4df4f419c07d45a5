/*
 * An order loop from order 5 under GFP_NOIO (a block driver's I/O path):
 * without __GFP_IO the allocator cannot compact, and a costly order gives up
 * after one round of direct reclaim with or without __GFP_NORETRY, so the
 * flag would change nothing and the rule stays quiet.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *journal_buf_alloc(unsigned int *out_order)
{
	struct page *page;
	int order;

	for (order = 5; order >= 0; order--) {
		page = alloc_pages(GFP_NOIO | __GFP_NOWARN, order); // site: order=0..5 fallback=order-loop must=DIRECT_RECLAIM mustnot=NORETRY|IO
		if (page) {
			*out_order = order;
			return page;
		}
	}
	return NULL;
}
/*
 * check-name: costly-no-noretry: no finding for a GFP_NOIO order loop
 *
 * check-output-start
 * check-output-end
 */
