// a test input written for gfpaudit
/*
 * A fragment cache refill in the shape of the socket page-frag code: an
 * opportunistic order-4 attempt, then a single page.  The order-4 attempt
 * keeps direct reclaim (costly-no-noretry).
 */
#include <linux/gfp.h>
#include <linux/mm.h>

#define FRAG_CACHE_ORDER	4

struct frag_cache {
	struct page *page;
	unsigned int size;
};

bool frag_cache_refill(struct frag_cache *fc, gfp_t gfp)
{
	fc->page = alloc_pages(gfp | __GFP_COMP, FRAG_CACHE_ORDER);
	if (likely(fc->page)) {
		fc->size = PAGE_SIZE << FRAG_CACHE_ORDER;
		return true;
	}
	fc->page = alloc_page(gfp);
	if (likely(fc->page)) {
		fc->size = PAGE_SIZE;
		return true;
	}
	return false;
}
