/*
 * The page-frag cache refill idiom: an order-3 (32 KiB) attempt with direct
 * reclaim cleared and NORETRY|NOWARN|NOMEMALLOC, then one page.  Order 3 is
 * not costly, and the attempt could not stall anyway.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/mm_types.h>

struct page *frag_cache_refill(struct page_frag_cache *nc, gfp_t gfp_mask)
{
	struct page *page = NULL;
	gfp_t gfp = gfp_mask;

	gfp_mask = (gfp_mask & ~__GFP_DIRECT_RECLAIM) | __GFP_COMP |
		   __GFP_NOWARN | __GFP_NORETRY | __GFP_NOMEMALLOC;
	page = alloc_pages_node(NUMA_NO_NODE, gfp_mask, PAGE_FRAG_CACHE_MAX_ORDER); // ok // site: order=3..3 fallback=lower-order api=alloc_pages_node mustnot=DIRECT_RECLAIM must=NORETRY|NOWARN|NOMEMALLOC|COMP
	if (unlikely(!page))
		page = alloc_pages_node(NUMA_NO_NODE, gfp, 0); // ok // site: order=0..0 api=alloc_pages_node
	nc->va = page ? page_address(page) : NULL;
	return page;
}
/*
 * check-name: page-frag refill idiom at PAGE_FRAG_CACHE_MAX_ORDER (3) with an order-0 retry
 *
 * check-output-start
 * check-output-end
 */
