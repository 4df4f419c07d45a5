/*
 * vmalloc fallbacks after a NULL check.  The kmalloc attempt keeps direct
 * reclaim without NORETRY (it may stall before the fallback runs); the
 * page attempt is NORETRY|NOWARN and fine.
 */
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/mm.h>
#include <linux/sizes.h>

void *table_alloc(size_t size)
{
	void *buf;

	if (size > SZ_4M)
		return NULL;
	buf = kmalloc(size, GFP_KERNEL | __GFP_NOWARN); // site: order=0..10 fallback=vmalloc api=kmalloc // note: costly-no-noretry
	if (!buf)
		buf = vmalloc(size);
	return buf;
}

void *ring_alloc(size_t size)
{
	struct page *page;

	if (size > SZ_1M)
		return NULL;
	page = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, get_order(size)); // ok // site: order=0..8 fallback=vmalloc must=NORETRY
	if (page)
		return page_address(page);
	return vzalloc(size);
}
/*
 * check-name: vmalloc fallback after a NULL check (kmalloc without NORETRY; pages with NORETRY)
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/fallback-vmalloc.c:17:8: note: 'kmalloc' can request order 0..10 (up to 4 MiB) [costly-no-noretry]
 * corpus/fallback-vmalloc.c:17:8: note: gfp GFP_KERNEL | __GFP_NOWARN
 * corpus/fallback-vmalloc.c:17:8: note: fallback vmalloc: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/fallback-vmalloc.c:17:8: note: possible: the size comes from parameter 'size' of table_alloc(), whose values are not known here
 * check-output-end
 */
