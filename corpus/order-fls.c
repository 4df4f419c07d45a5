/*
 * fls() of a bounded count: 1..16 pages, fls(nr - 1) is 0..4.
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
	if (!nr || nr > 16)
		return -EINVAL;
	c->order = fls(nr - 1);
	c->page = alloc_pages(GFP_KERNEL | __GFP_COMP, c->order); // warn: costly-no-fallback // site: order=0..4 fallback=none
	if (!c->page)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: order from fls() of a guarded count (0..4)
 *
 * check-output-start
 * check-output-end
 */
