/*
 * mapping_gfp_constraint() can only remove bits from GFP_KERNEL: no NORETRY
 * can come out of it, so the order loop's costly attempts may stall.
 */
#include <linux/pagemap.h>

struct folio *meta_grab(struct address_space *mapping)
{
	gfp_t gfp = mapping_gfp_constraint(mapping, GFP_KERNEL);
	struct folio *folio;
	int order;

	for (order = 4; order >= 0; order--) {
		folio = filemap_alloc_folio(gfp, order); // warn: costly-no-noretry // site: order=0..4 fallback=order-loop mustnot=NORETRY|NOWARN|HIGHMEM may=DIRECT_RECLAIM
		if (folio)
			return folio;
	}
	return NULL;
}
/*
 * check-name: mask from mapping_gfp_constraint(mapping, GFP_KERNEL) in an order loop
 *
 * check-output-start
 * check-output-end
 */
