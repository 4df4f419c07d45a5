/*
 * Page-cache folio orders.  The order a caller encodes in its fgp flags
 * (fgf_set_order() of a write's length) is the user's pick; capped at the
 * mapping's largest folio order (MAX_PAGECACHE_ORDER) any user writing a
 * large enough buffer reaches the cap: proven, even though the floor is
 * the mapping's smallest order (on-disk data).  Capped by data nobody
 * controls instead, the top is not the user's: no more than possible.
 * An unaligned index lowers the order below the aligned one: __ffs() of an
 * index with a bit set below bit n is below n.
 */
#include <linux/pagemap.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/bitops.h>

struct folio *pc_get(struct address_space *mapping, fgf_t fgp_flags, gfp_t gfp)
{
	unsigned int min_order = mapping_min_folio_order(mapping);
	unsigned int order = max(min_order, FGF_GET_ORDER(fgp_flags));

	if (order > mapping_max_folio_order(mapping))
		order = mapping_max_folio_order(mapping);
	return filemap_alloc_folio(gfp, order); // warn: costly-no-fallback // site: order=0..9 conf=proven
}

struct folio *pc_capped(struct address_space *mapping, unsigned int want, gfp_t gfp)
{
	unsigned int order = min(mapping_max_folio_order(mapping), want);

	return filemap_alloc_folio(gfp, order); // note: costly-no-fallback // site: order=0..9 conf=possible
}

struct page *pc_unaligned(unsigned long index)
{
	unsigned int order = 2;

	if (index & ((1UL << order) - 1))
		order = __ffs(index);
	return alloc_pages(GFP_KERNEL, order); // ok // site: order=0..2
}

struct page *pc_unaligned_ffs(int index)
{
	unsigned int order = 3;

	if (index & ((1 << order) - 1))
		order = ffs(index);
	return alloc_pages(GFP_KERNEL, order); // ok // site: order=1..3
}
/*
 * check-name: page-cache folio orders: the user's write length up to MAX_PAGECACHE_ORDER is proven; __ffs of an unaligned index is below the aligned order
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/prov-user-pagecache.c:23:9: warning: 'filemap_alloc_folio' can request order 0..9: no fallback [costly-no-fallback]
 * corpus/prov-user-pagecache.c:23:9: note: gfp 0, maybe any other flag
 * corpus/prov-user-pagecache.c:23:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-user-pagecache.c:23:9: note: proven: the order comes from the folio order callers encode in fgp flags (fgf_set_order() of a write's length) (line 19), which users set, up to the kernel's limit
 * corpus/prov-user-pagecache.c:30:9: note: 'filemap_alloc_folio' can request order 0..9: no fallback [costly-no-fallback]
 * corpus/prov-user-pagecache.c:30:9: note: gfp 0, maybe any other flag
 * corpus/prov-user-pagecache.c:30:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-user-pagecache.c:30:9: note: possible: the order comes from parameter 'want' of pc_capped(), whose values are not known here
 * check-output-end
 */
