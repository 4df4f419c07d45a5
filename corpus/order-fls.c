/*
 * fls() of a bounded count: 1..16 pages, fls(nr - 1) is 0..4.  (The same
 * guard written with || is guard-or.c.)
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/bitops.h>
#include <linux/errno.h>

struct sg_chunk {
	struct page *page;
	int order;
};

int sg_chunk_alloc(struct sg_chunk *c, unsigned int nr)
{
	int order;

	if (!nr)
		return -EINVAL;
	if (nr > 16)
		return -EINVAL;
	order = fls(nr - 1);
	c->page = alloc_pages(GFP_KERNEL | __GFP_COMP, order); // site: order=0..4 fallback=none // note: costly-no-fallback
	if (!c->page)
		return -ENOMEM;
	c->order = order;
	return 0;
}
/*
 * check-name: order from fls() of a guarded count (0..4)
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/order-fls.c:24:12: note: 'alloc_pages' can request order 0..4: no fallback [costly-no-fallback]
 * corpus/order-fls.c:24:12: note: gfp GFP_KERNEL | __GFP_COMP
 * corpus/order-fls.c:24:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/order-fls.c:24:12: note: possible: the order comes from parameter 'nr' of sg_chunk_alloc(), whose values are not known here
 * check-output-end
 */
