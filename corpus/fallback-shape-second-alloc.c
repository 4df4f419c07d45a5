/*
 * A second allocator tried on NULL: a smaller kmalloc, a single page.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sizes.h>

struct stash {
	void *big;
	unsigned int len;
};

int stash_alloc(struct stash *st)
{
	st->big = kmalloc(SZ_64K, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN); // ok // site: order=4..4 fallback=lower-order fbat=19 api=kmalloc
	st->len = SZ_64K;
	if (!st->big) {
		st->big = kmalloc(SZ_4K, GFP_KERNEL);
		st->len = SZ_4K;
	}
	return st->big ? 0 : -12;
}

struct page *ring_page(void)
{
	struct page *page;

	page = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, 4); // ok // site: order=4..4 fallback=lower-order fbat=31
	if (!page)
		page = alloc_page(GFP_KERNEL); // ok // site: order=0..0 api=alloc_page
	return page;
}
/*
 * check-name: a second, smaller allocator tried on NULL
 *
 * check-output-start
 * check-output-end
 */
