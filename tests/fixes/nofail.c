// a test input written for gfpaudit
/*
 * A journal header taken with __GFP_NOFAIL at order 2: the allocator does
 * not promise NOFAIL above order 1 (nofail-high-order).  The caller checks
 * the result anyway.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct jhdr {
	struct page *page;
};

int jhdr_init(struct jhdr *j)
{
	j->page = alloc_pages(GFP_NOFS | __GFP_NOFAIL, 2);
	if (!j->page)
		return -ENOMEM;
	return 0;
}
