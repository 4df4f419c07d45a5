/*
 * An allocator slow path that makes costly __GFP_NORETRY requests skip
 * reclaim and compaction by folding the condition into its local reclaim
 * capability, while the mask keeps __GFP_DIRECT_RECLAIM and still feeds
 * gfp_to_alloc_flags() and the direct compaction/reclaim helpers.  This is
 * the shape reviewers rejected: the flag and the mask disagree.
 */
#include <linux/gfp.h>
#include <linux/mmzone.h>

struct page;
struct alloc_context;

unsigned int gfp_to_alloc_flags(gfp_t gfp_mask, unsigned int order);
struct page *get_page_from_freelist(gfp_t gfp_mask, unsigned int order,
				    int alloc_flags, const struct alloc_context *ac);
struct page *__alloc_pages_direct_compact(gfp_t gfp_mask, unsigned int order,
					  unsigned int alloc_flags,
					  const struct alloc_context *ac,
					  int prio, int *result);
struct page *__alloc_pages_direct_reclaim(gfp_t gfp_mask, unsigned int order,
					  unsigned int alloc_flags,
					  const struct alloc_context *ac,
					  unsigned long *progress);

struct page *toy_slowpath(gfp_t gfp_mask, unsigned int order,
			  struct alloc_context *ac)
{
	const bool big = order > PAGE_ALLOC_COSTLY_ORDER;
	const bool cheap_fallback = big && (gfp_mask & __GFP_NORETRY) &&
		!(gfp_mask & (__GFP_THISNODE | __GFP_NOFAIL));
	bool can_direct_reclaim = !cheap_fallback &&		// warn: gfp-derived-divergence
		(gfp_mask & __GFP_DIRECT_RECLAIM);
	unsigned int alloc_flags;
	unsigned long progress;
	struct page *page;
	int result;

	alloc_flags = gfp_to_alloc_flags(gfp_mask, order);
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (page || !can_direct_reclaim)
		return page;

	page = __alloc_pages_direct_compact(gfp_mask, order, alloc_flags, ac,
					    0, &result);
	if (page)
		return page;
	return __alloc_pages_direct_reclaim(gfp_mask, order, alloc_flags, ac,
					    &progress);
}
/*
 * check-name: costly NORETRY folded into can_direct_reclaim (the rejected v5 shape)
 *
 * check-output-start
 * corpus/mm-divergence-folded.c:32:7: warning: 'can_direct_reclaim' is derived from 'gfp_mask'... [gfp-derived-divergence]
 * corpus/mm-divergence-folded.c:32:7: note: 'can_direct_reclaim' is derived from 'gfp_mask' ('__GFP_DIRECT_RECLAIM') but combined with 'cheap_fallback', which is not in the mask, while 'gfp_mask' still flows to 'gfp_to_alloc_flags' (line 39), '__alloc_pages_direct_compact' (line 44), '__alloc_pages_direct_reclaim' (line 48): the flag and the mask now disagree
 * corpus/mm-divergence-folded.c:32:7: note: change the mask (clear the bit) or the caller instead
 * check-output-end
 */
