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
	c->page = alloc_pages(GFP_KERNEL | __GFP_COMP, fls(nr - 1)); // site: order=0..4 fallback=none // note: costly-no-fallback
	if (!c->page)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: guard `if (!nr || nr > 16) return` bounds the order (0..4)
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/guard-or.c:18:12: note: 'alloc_pages' can request order 0..4: no fallback [costly-no-fallback]
 * corpus/guard-or.c:18:12: note: gfp GFP_KERNEL | __GFP_COMP
 * corpus/guard-or.c:18:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/guard-or.c:18:12: note: possible: the order comes from parameter 'nr' of sg_chunk_alloc(), whose values are not known here
 * check-output-end
 */
