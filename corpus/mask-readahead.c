/*
 * Readahead allocations take their mask from readahead_gfp_mask(), a
 * static inline that adds NORETRY|NOWARN to the mapping's mask; the order
 * is capped at MAX_PAGECACHE_ORDER (9) and lowered on failure.
 */
#include <linux/pagemap.h>
#include <linux/errno.h>

int ra_alloc_large(struct readahead_control *ractl, unsigned int new_order,
		   struct folio **out)
{
	struct address_space *mapping = ractl->mapping;
	gfp_t gfp = readahead_gfp_mask(mapping);
	unsigned int order = min_t(unsigned int, new_order, MAX_PAGECACHE_ORDER);
	struct folio *folio;

	for (;;) {
		folio = filemap_alloc_folio(gfp, order); // ok // site: order=0..9 fallback=order-loop api=filemap_alloc_folio must=NORETRY|NOWARN
		if (folio)
			break;
		if (!order)
			return -ENOMEM;
		order--;
	}
	*out = folio;
	return 0;
}
/*
 * check-name: mask from readahead_gfp_mask() in an order loop capped at MAX_PAGECACHE_ORDER
 *
 * check-output-start
 * check-output-end
 */
