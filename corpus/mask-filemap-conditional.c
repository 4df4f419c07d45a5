/*
 * The page-cache folio loop: NORETRY|NOWARN only for the attempts above the
 * mapping's minimum order, which are exactly the attempts with a fallback.
 * The caller's mask may allow direct reclaim; that is fine for the floor.
 */
#include <linux/pagemap.h>
#include <linux/errno.h>

struct folio *cache_get_folio(struct address_space *mapping, pgoff_t index,
			      fgf_t fgp_flags, gfp_t gfp)
{
	unsigned int min_order = mapping_min_folio_order(mapping);
	unsigned int order = max(min_order, FGF_GET_ORDER(fgp_flags));
	struct folio *folio;

	if (order > mapping_max_folio_order(mapping))
		order = mapping_max_folio_order(mapping);
	order = min_t(unsigned int, order, MAX_PAGECACHE_ORDER);

	do {
		gfp_t alloc_gfp = gfp;

		if (order > min_order)
			alloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;
		folio = filemap_alloc_folio(alloc_gfp, order); // ok // site: order=0..9 fallback=order-loop fbmust=NORETRY|NOWARN api=filemap_alloc_folio
		if (!folio)
			continue;
		if (filemap_add_folio(mapping, folio, index, gfp)) {
			folio_put(folio);
			continue;
		}
		return folio;
	} while (order-- > min_order);
	return ERR_PTR(-ENOMEM);
}
/*
 * check-name: NORETRY|NOWARN added when order > min_order inside the loop (filemap shape)
 *
 * check-output-start
 * check-output-end
 */
