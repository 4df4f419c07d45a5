/*
 * The socket page-frag refill idiom at order 4: the high-order attempt is
 * (gfp & ~__GFP_DIRECT_RECLAIM) | NORETRY | NOWARN, then one page with the
 * caller's mask.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

#define FRAG_ORDER	4

bool frag_refill(struct page_frag *pfrag, gfp_t gfp)
{
	pfrag->offset = 0;
	pfrag->page = alloc_pages((gfp & ~__GFP_DIRECT_RECLAIM) | __GFP_COMP | __GFP_NOWARN | __GFP_NORETRY, FRAG_ORDER); // ok // site: order=4..4 fallback=lower-order mustnot=DIRECT_RECLAIM must=COMP|NOWARN|NORETRY
	if (likely(pfrag->page)) {
		pfrag->size = PAGE_SIZE << FRAG_ORDER;
		return true;
	}
	pfrag->page = alloc_page(gfp); // ok // site: order=0..0 api=alloc_page
	if (likely(pfrag->page)) {
		pfrag->size = PAGE_SIZE;
		return true;
	}
	return false;
}
/*
 * check-name: gfp & ~__GFP_DIRECT_RECLAIM inline, then an order-0 retry (sock refill idiom)
 *
 * check-output-start
 * check-output-end
 */
