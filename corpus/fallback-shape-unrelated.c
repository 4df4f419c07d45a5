/*
 * Not fallbacks: a later allocation of another buffer, even into the same
 * local, after the first one's failure already returned.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/errno.h>

struct two_rings {
	struct page *tx, *rx;
	void *ctx;
};

int two_rings_init(struct two_rings *r)
{
	struct page *page;

	page = alloc_pages(GFP_KERNEL, 5); // warn: costly-no-fallback // site: order=5..5 fallback=none stall=yes
	if (!page)
		return -ENOMEM;
	r->tx = page;
	page = alloc_page(GFP_KERNEL); // ok // site: order=0..0
	if (!page)
		return -ENOMEM;
	r->rx = page;
	return 0;
}

int ring_and_ctx(struct two_rings *r)
{
	r->tx = alloc_pages(GFP_KERNEL, 4); // warn: costly-no-fallback // site: order=4..4 fallback=none
	r->ctx = kzalloc(128, GFP_KERNEL);
	if (!r->tx || !r->ctx)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: later allocations of other buffers are no fallback
 *
 * check-output-start
 * corpus/fallback-shape-unrelated.c:19:9: warning: 'alloc_pages' can request order 5: no fallback [costly-no-fallback]
 * corpus/fallback-shape-unrelated.c:19:9: note: gfp GFP_KERNEL
 * corpus/fallback-shape-unrelated.c:19:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-shape-unrelated.c:19:9: note: proven: every path asks for more than order 3
 * corpus/fallback-shape-unrelated.c:32:10: warning: 'alloc_pages' can request order 4: no fallback [costly-no-fallback]
 * corpus/fallback-shape-unrelated.c:32:10: note: gfp GFP_KERNEL
 * corpus/fallback-shape-unrelated.c:32:10: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-shape-unrelated.c:32:10: note: proven: every path asks for more than order 3
 * check-output-end
 */
