/*
 * Flags added with |= before an opportunistic order-4 attempt; the order-0
 * retry keeps the plain mask.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct frag_cache {
	struct page *page;
	unsigned int size;
};

int frag_cache_refill(struct frag_cache *fc)
{
	gfp_t gfp = GFP_KERNEL | __GFP_COMP;

	gfp |= __GFP_NORETRY | __GFP_NOWARN;
	fc->page = alloc_pages(gfp, 4); // ok // site: order=4..4 fallback=lower-order must=NORETRY|NOWARN|COMP|DIRECT_RECLAIM
	fc->size = PAGE_SIZE << 4;
	if (!fc->page) {
		fc->page = alloc_page(GFP_KERNEL); // ok // site: order=0..0 api=alloc_page mustnot=NORETRY
		fc->size = PAGE_SIZE;
	}
	return fc->page ? 0 : -ENOMEM;
}
/*
 * check-name: mask built with |= (NORETRY|NOWARN) before a lower-order retry
 *
 * check-output-start
 * check-output-end
 */
