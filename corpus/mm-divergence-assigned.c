/*
 * The same disagreement made by a later assignment: the capability starts
 * out derived from the mask and is then switched off for costly NORETRY
 * requests, while the mask still goes to gfp_to_alloc_flags() on the retry
 * path and to direct compaction.
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
bool zonelist_changed(struct alloc_context *ac);

struct page *toy_slowpath_assigned(gfp_t gfp_mask, unsigned int order,
				   struct alloc_context *ac)
{
	bool may_reclaim = gfp_mask & __GFP_DIRECT_RECLAIM;
	bool may_compact = gfp_compaction_allowed(gfp_mask);
	unsigned int alloc_flags;
	struct page *page;
	int result;

	if (order > PAGE_ALLOC_COSTLY_ORDER && (gfp_mask & __GFP_NORETRY))
		may_reclaim = false;			// warn: gfp-derived-divergence
restart:
	alloc_flags = gfp_to_alloc_flags(gfp_mask, order);
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (page)
		return page;
	if (may_reclaim && may_compact) {
		page = __alloc_pages_direct_compact(gfp_mask, order, alloc_flags,
						    ac, 0, &result);
		if (page)
			return page;
	}
	if (zonelist_changed(ac))
		goto restart;
	return NULL;
}
/*
 * check-name: a mask-derived capability switched off later while the mask still reaches gfp_to_alloc_flags()
 *
 * check-output-start
 * corpus/mm-divergence-assigned.c:32:3: warning: 'may_reclaim' is derived from 'gfp_mask' ('__GFP_DIRECT_RECLAIM') but... [gfp-derived-divergence]
 * corpus/mm-divergence-assigned.c:32:3: note: 'may_reclaim' is derived from 'gfp_mask' ('__GFP_DIRECT_RECLAIM') but combined with 'false', which is not in the mask, while 'gfp_mask' still flows to 'gfp_to_alloc_flags' (line 34), '__alloc_pages_direct_compact' (line 39): the flag and the mask now disagree
 * corpus/mm-divergence-assigned.c:32:3: note: change the mask (clear the bit) or the caller instead
 * check-output-end
 */
