/*
 * The fix the buffered-write regression thread settled on (v2, in the page
 * cache's folio loop), in the shape of that loop: above the mapping's
 * minimum order the attempts get NOWARN, and then by cost: the costly ones
 * lose direct reclaim, the non-costly ones get NORETRY.  The last attempt
 * (order == min_order) keeps the caller's mask.  Nothing to report, even
 * against the 6.12 allocator model.
 */
#include <linux/pagemap.h>
#include <linux/errno.h>

struct folio *wb_get_folio(struct address_space *mapping, pgoff_t index,
			   fgf_t fgp_flags, gfp_t gfp)
{
	unsigned int min_order = mapping_min_folio_order(mapping);
	unsigned int order = max(min_order, FGF_GET_ORDER(fgp_flags));
	struct folio *folio;
	int err;

	if (order > mapping_max_folio_order(mapping))
		order = mapping_max_folio_order(mapping);
	if (index & ((1UL << order) - 1))
		order = __ffs(index);

	do {
		gfp_t alloc_gfp = gfp;

		err = -ENOMEM;
		if (order > min_order) {
			alloc_gfp |= __GFP_NOWARN;
			if (order > PAGE_ALLOC_COSTLY_ORDER)
				alloc_gfp &= ~__GFP_DIRECT_RECLAIM;
			else
				alloc_gfp |= __GFP_NORETRY;
		}
		folio = filemap_alloc_folio(alloc_gfp, order); // ok // site: fallback=order-loop att=4..9/fallback/+NOWARN/-DIRECT_RECLAIM att=1..3/fallback/+NOWARN|NORETRY
		if (!folio)
			continue;
		err = filemap_add_folio(mapping, folio, index, gfp);
		if (!err)
			break;
		folio_put(folio);
		folio = NULL;
	} while (order-- > min_order);
	return err ? ERR_PTR(err) : folio;
}
/*
 * check-name: seed v2 fix nested under order > min_order: costly attempts without direct reclaim
 * check-command: gfpaudit audit --allocator-model 6.12 $file
 *
 * check-output-start
 * check-output-end
 */
