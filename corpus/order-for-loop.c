/*
 * for (order = X; order >= Y; order--) with a floor above 0: the orders are
 * 2..7 and folio_alloc is the entry point.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

#define BLK_MAX_ORDER	7
#define BLK_MIN_ORDER	2

struct folio *blk_grab_folio(void)
{
	struct folio *folio = NULL;
	int order;

	for (order = BLK_MAX_ORDER; order >= BLK_MIN_ORDER; order--) {
		folio = folio_alloc(GFP_USER | __GFP_NORETRY | __GFP_NOWARN, order); // ok // site: order=2..7 fallback=order-loop api=folio_alloc must=NORETRY|NOWARN|HARDWALL
		if (folio)
			break;
	}
	return folio;
}
/*
 * check-name: for order loop from 7 down to 2 with folio_alloc
 *
 * check-output-start
 * check-output-end
 */
