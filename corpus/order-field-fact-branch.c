/*
 * A buffer's chunks are high-order only when the device's capabilities
 * ask for contiguous pages.  This file's only device stores a capability
 * without that bit, but drivers elsewhere set it: the joined stores of a
 * field bound values, they prove no branch dead.  The order reaches 10.
 */
#include <linux/gfp.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/errno.h>

#define CAP_NO_NMI	0x02
#define CAP_CONTIG	0x01

struct xdev {
	int caps;
};

static struct xdev soft_dev = { .caps = CAP_NO_NMI };

static struct page *chunk_alloc(int order)
{
	struct page *page;

	if (order > MAX_PAGE_ORDER)
		order = MAX_PAGE_ORDER;
	do {
		page = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, order); // site: order=0..10 fallback=order-loop
	} while (!page && order--);
	return page;
}

int buf_fill(struct xdev *d, int nr_pages)
{
	bool contig = d->caps & CAP_CONTIG;
	int max_order = 0, done;

	if (nr_pages <= 0 || nr_pages > 65536)
		return -EINVAL;
	if (contig)
		max_order = ilog2(nr_pages);
	for (done = 0; done < nr_pages; done++) {
		struct page *p = chunk_alloc(min(max_order, ilog2(nr_pages - done)));

		if (!p)
			return -ENOMEM;
	}
	return 0;
}

struct xdev *soft_get(void)
{
	return &soft_dev;
}
/*
 * check-name: a field's joined stores bound values but prove no branch dead
 * check-command: gfpaudit audit --sites --severity note $file
 *
 * check-output-start
 * corpus/order-field-fact-branch.c:28:10: site: 'alloc_pages' in 'chunk_alloc': orders 0..10, gfp GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY, fallback order-loop; attempts: orders 1..10 fallback: gfp GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY; order 0 last: gfp GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY
 * check-output-end
 */
