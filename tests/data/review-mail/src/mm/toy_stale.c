/*
 * A test input written for gfpaudit: a retry loop that raises the mask's
 * priority but keeps the alloc_flags it derived from the old mask.
 */
#include <linux/gfp.h>

#define ALLOC_KSWAPD		0x800

struct page;
struct alloc_context;

unsigned int gfp_to_alloc_flags(gfp_t gfp_mask, unsigned int order);
struct page *get_page_from_freelist(gfp_t gfp_mask, unsigned int order,
				    int alloc_flags, const struct alloc_context *ac);
void wake_all_kswapds(unsigned int order, gfp_t gfp_mask,
		      const struct alloc_context *ac);
bool toy_should_retry(const struct alloc_context *ac);

struct page *toy_stale_retry(gfp_t gfp_mask, unsigned int order,
			     struct alloc_context *ac)
{
	unsigned int alloc_flags;
	struct page *page;

	alloc_flags = gfp_to_alloc_flags(gfp_mask, order);
retry:
	if (alloc_flags & ALLOC_KSWAPD)
		wake_all_kswapds(order, gfp_mask, ac);
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (page)
		return page;
	if (toy_should_retry(ac)) {
		gfp_mask |= __GFP_HIGH;
		goto retry;
	}
	return NULL;
}
