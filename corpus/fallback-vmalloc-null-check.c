/*
 * The plain vmalloc fallback: a NULL check, then vmalloc/vzalloc of the
 * same size into the same pointer.
 */
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct hist {
	void *bins;
	void *ring;
};

int hist_init(struct hist *h)
{
	struct page *page;

	h->bins = kmalloc(SZ_64K, GFP_KERNEL | __GFP_NOWARN); // warn: costly-no-noretry // site: order=4..4 fallback=vmalloc api=kmalloc mustnot=NORETRY
	if (!h->bins)
		h->bins = vmalloc(SZ_64K);
	if (!h->bins)
		return -ENOMEM;
	page = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, 5); // ok // site: order=5..5 fallback=vmalloc must=NORETRY|NOWARN
	if (page)
		h->ring = page_address(page);
	else
		h->ring = vzalloc(SZ_128K);
	if (!h->ring)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: vmalloc/vzalloc fallback after a NULL check (kmalloc 64K without NORETRY, pages with)
 *
 * check-output-start
 * corpus/fallback-vmalloc-null-check.c:20:12: warning: 'kmalloc' can request order 4 (64 KiB): no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/fallback-vmalloc-null-check.c:20:12: note: gfp GFP_KERNEL | __GFP_NOWARN
 * corpus/fallback-vmalloc-null-check.c:20:12: note: fallback vmalloc: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/fallback-vmalloc-null-check.c:20:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
