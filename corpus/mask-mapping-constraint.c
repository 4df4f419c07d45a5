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
 * corpus/mask-mapping-constraint.c:14:11: warning: 'filemap_alloc_folio' can request order 0..4 [costly-no-noretry]
 * corpus/mask-mapping-constraint.c:14:11: note: gfp 0, maybe __GFP_IO | __GFP_FS | __GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM
 * corpus/mask-mapping-constraint.c:14:11: note: fallback order-loop: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/mask-mapping-constraint.c:14:11: note: proven: constants give the order
 * check-output-end
 */
