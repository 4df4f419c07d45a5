/*
 * The order is a parameter of an exported function with no caller in the
 * file: nothing is known, and unknown is a legitimate answer (no finding).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct dev_buf {
	struct page *page;
};

int dev_buf_alloc(struct dev_buf *b, unsigned int order)
{
	b->page = alloc_pages(GFP_KERNEL, order); // ok // site: order=? fallback=none
	if (!b->page)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: unknown order from a parameter: a site with order ?, no finding
 *
 * check-output-start
 * check-output-end
 */
