/*
 * goto-retry one order lower until order 0.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct log_area {
	struct page *pages;
	unsigned int order;
};

int log_area_alloc(struct log_area *la)
{
	unsigned int order = 6;
	struct page *page;

again:
	page = alloc_pages(order ? GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN : GFP_KERNEL, order); // ok // site: fallback=order-loop fbat=21 stall=yes
	if (!page) {
		if (order--)
			goto again;
		return -ENOMEM;
	}
	la->pages = page;
	la->order = order;
	return 0;
}
/*
 * check-name: goto-retry one order lower
 *
 * check-output-start
 * check-output-end
 */
