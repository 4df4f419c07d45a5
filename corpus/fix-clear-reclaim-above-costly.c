/*
 * The fix discussed upstream for the buffered-write regression, at the
 * caller: costly attempts clear __GFP_DIRECT_RECLAIM, the non-costly high
 * orders get NORETRY, only the floor keeps the caller's mask.  No costly
 * attempt can stall, so nothing to report.
 */
#include <linux/pagemap.h>
#include <linux/errno.h>

struct folio *write_get_folio(struct address_space *mapping, unsigned int order,
			      unsigned int min_order, gfp_t gfp)
{
	struct folio *folio;

	order = min_t(unsigned int, order, MAX_PAGECACHE_ORDER);
	min_order = min(min_order, order);
	do {
		gfp_t alloc_gfp = gfp;

		if (order > PAGE_ALLOC_COSTLY_ORDER)
			alloc_gfp &= ~__GFP_DIRECT_RECLAIM;
		else if (order > min_order)
			alloc_gfp |= __GFP_NORETRY;
		if (order > min_order)
			alloc_gfp |= __GFP_NOWARN;
		folio = filemap_alloc_folio(alloc_gfp, order); // ok // site: order=0..9 fallback=order-loop fbmust=NOWARN
		if (folio)
			return folio;
	} while (order-- > min_order);
	return ERR_PTR(-ENOMEM);
}
/*
 * check-name: the upstream fix: no direct reclaim above PAGE_ALLOC_COSTLY_ORDER, NORETRY below
 *
 * check-output-start
 * check-output-end
 */
