/*
 * alloc_flags derived from a mask that changes afterwards, used without
 * being derived again: straight-line, and around a retry label.
 */
#include <linux/gfp.h>

#define ALLOC_WMARK_MIN		0x00
#define ALLOC_NON_BLOCK		0x10
#define ALLOC_MIN_RESERVE	0x20
#define ALLOC_CPUSET		0x40
#define ALLOC_KSWAPD		0x800

struct page;
struct alloc_context;

unsigned int gfp_to_alloc_flags(gfp_t gfp_mask, unsigned int order);
struct page *get_page_from_freelist(gfp_t gfp_mask, unsigned int order,
				    int alloc_flags, const struct alloc_context *ac);
void wake_all_kswapds(unsigned int order, gfp_t gfp_mask,
		      const struct alloc_context *ac);
bool toy_should_retry(const struct alloc_context *ac);

struct page *toy_stale_straight(gfp_t gfp_mask, unsigned int order,
				struct alloc_context *ac, bool quiet)
{
	unsigned int alloc_flags = gfp_to_alloc_flags(gfp_mask, order);

	if (quiet)
		gfp_mask &= ~__GFP_DIRECT_RECLAIM;
	return get_page_from_freelist(gfp_mask, order, alloc_flags, ac);	// warn: stale-alloc-flags
}

struct page *toy_stale_retry(gfp_t gfp_mask, unsigned int order,
			     struct alloc_context *ac)
{
	unsigned int alloc_flags;
	struct page *page;

	alloc_flags = gfp_to_alloc_flags(gfp_mask, order);
retry:
	if (alloc_flags & ALLOC_KSWAPD)		// warn: stale-alloc-flags
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
/*
 * check-name: alloc_flags used after their mask changed, straight-line and around a retry label
 *
 * check-output-start
 * corpus/mm-stale-alloc-flags.c:30:49: warning: 'alloc_flags' was derived from 'gfp_mask' (gfp_to_alloc_flags, line 26),... [stale-alloc-flags]
 * corpus/mm-stale-alloc-flags.c:30:49: note: 'alloc_flags' was derived from 'gfp_mask' (gfp_to_alloc_flags, line 26), 'gfp_mask' changed at line 29, and the old 'alloc_flags' is used here without being derived again: derive it again from the new mask
 * corpus/mm-stale-alloc-flags.c:41:6: warning: 'alloc_flags' was derived from 'gfp_mask' (gfp_to_alloc_flags, line 39),... [stale-alloc-flags]
 * corpus/mm-stale-alloc-flags.c:41:6: note: 'alloc_flags' was derived from 'gfp_mask' (gfp_to_alloc_flags, line 39), 'gfp_mask' changed at line 47, and the old 'alloc_flags' is used here without being derived again: derive it again from the new mask
 * check-output-end
 */
