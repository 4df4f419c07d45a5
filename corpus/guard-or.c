/*
 * One guard with || bounds the count from both sides: after it nr is 1..16,
 * so fls(nr - 1) is 0..4.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/bitops.h>
#include <linux/errno.h>

struct sg_chunk {
	struct page *page;
};

int sg_chunk_alloc(struct sg_chunk *c, unsigned int nr)
{
	if (!nr || nr > 16)
		return -EINVAL;
	c->page = alloc_pages(GFP_KERNEL | __GFP_COMP, fls(nr - 1)); // warn: costly-no-fallback // site: order=0..4 fallback=none
	if (!c->page)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: guard `if (!nr || nr > 16) return` bounds the order (0..4)
 *
 * check-output-start
 * corpus/guard-or.c:18:12: warning: 'alloc_pages' can request order 0..4; gfp must __GFP_IO|__GFP_FS|__GFP_DIRECT_RECLAIM|__GFP_KSWAPD_RECLAIM|__GFP_COMP; fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation [costly-no-fallback]
 * check-output-end
 */
