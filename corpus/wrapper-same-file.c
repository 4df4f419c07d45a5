/*
 * A static function taking gfp and order that calls alloc_pages is an
 * allocator for its callers: each call is a site with the caller's order.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct ring {
	struct page *page;
	unsigned int order;
};

static struct page *ring_alloc_pages(gfp_t gfp, unsigned int order)
{
	return alloc_pages(gfp | __GFP_COMP, order); // ok
}

int ring_init_small(struct ring *r)
{
	r->page = ring_alloc_pages(GFP_KERNEL, 2); // ok // site: order=2..2 api=ring_alloc_pages
	if (!r->page)
		return -ENOMEM;
	r->order = 2;
	return 0;
}

int ring_init_big(struct ring *r)
{
	r->page = ring_alloc_pages(GFP_KERNEL, 6); // warn: costly-no-fallback // site: order=6..6 api=ring_alloc_pages fallback=none
	if (!r->page)
		return -ENOMEM;
	r->order = 6;
	return 0;
}
/*
 * check-name: same-file wrapper (gfp, order) -> alloc_pages: its callers are sites
 *
 * check-output-start
 * corpus/wrapper-same-file.c:30:12: warning: 'ring_alloc_pages' can request order 6: no fallback [costly-no-fallback]
 * corpus/wrapper-same-file.c:30:12: note: gfp GFP_KERNEL | __GFP_COMP
 * corpus/wrapper-same-file.c:30:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/wrapper-same-file.c:30:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
