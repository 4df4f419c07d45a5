/*
 * A mask of allowed orders, highest first: each failed order is cleared
 * from the mask and the next highest is tried (the THP/mTHP shape).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/bits.h>
#include <linux/bitops.h>

struct folio *anon_grab_folio(gfp_t gfp, unsigned long orders)
{
	struct folio *folio;
	unsigned int order;

	orders &= BIT(9) | BIT(6) | BIT(4) | BIT(2);
	while (orders) {
		order = __fls(orders);
		folio = folio_alloc(GFP_TRANSHUGE_LIGHT, order); // ok // site: fallback=order-loop fbat=21 stall=no mustnot=DIRECT_RECLAIM
		if (folio)
			return folio;
		orders &= ~BIT(order);
	}
	return folio_alloc(GFP_KERNEL, 0); // ok // site: order=0..0 fallback=none
}
/*
 * check-name: a mask of allowed orders, highest first
 *
 * check-output-start
 * check-output-end
 */
