/*
 * Capping the order at PAGE_ALLOC_COSTLY_ORDER with min(): whatever the
 * length, the request is never costly.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/minmax.h>
#include <linux/mmzone.h>
#include <linux/errno.h>

struct bounce {
	struct page *page;
	int order;
};

int bounce_alloc(struct bounce *b, unsigned long len)
{
	int order = min(get_order(len), PAGE_ALLOC_COSTLY_ORDER);

	b->page = alloc_pages(GFP_KERNEL, order); // ok // site: order=0..3 fallback=none
	if (!b->page)
		return -ENOMEM;
	b->order = order;
	return 0;
}
/*
 * check-name: order capped with min(get_order(len), PAGE_ALLOC_COSTLY_ORDER)
 *
 * check-output-start
 * check-output-end
 */
