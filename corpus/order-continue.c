/*
 * Filling a ring with the largest chunks that work: on failure lower the
 * order and `continue`.  No NORETRY, so each costly attempt may compact
 * and reclaim before the loop moves on.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/minmax.h>
#include <linux/errno.h>

struct chunk_ring {
	struct page *pages[64];
	unsigned int nr;
};

int chunk_ring_fill(struct chunk_ring *r, unsigned int nr_pages)
{
	unsigned int order = 6;

	while (nr_pages && r->nr < 64) {
		struct page *page;

		page = alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_NOWARN, order); // warn: costly-no-noretry // site: order=0..6 fallback=order-loop must=NOWARN mustnot=NORETRY
		if (!page) {
			if (!order)
				return -ENOMEM;
			order--;
			continue;
		}
		r->pages[r->nr++] = page;
		nr_pages -= min(nr_pages, 1U << order);
	}
	return 0;
}
/*
 * check-name: while loop lowering the order with `order--; continue;` after a NULL check
 *
 * check-output-start
 * corpus/order-continue.c:23:10: warning: 'alloc_pages' can request order 0..6: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/order-continue.c:23:10: note: gfp GFP_KERNEL | __GFP_NOWARN | __GFP_COMP
 * corpus/order-continue.c:23:10: note: fallback order-loop: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/order-continue.c:23:10: note: proven: constants give the order
 * check-output-end
 */
