/*
 * The ways that keep flag and mask in step: clear the bit in the mask
 * before anything is derived from it (in the slow path, or in the caller),
 * or clear it together with the flag.  No finding.
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

/* The mask is changed first; the capability follows it. */
struct page *toy_slowpath_mask(gfp_t gfp_mask, unsigned int order,
			       struct alloc_context *ac)
{
	unsigned int alloc_flags;
	struct page *page;
	bool can_direct_reclaim;
	int result;

	if (order > PAGE_ALLOC_COSTLY_ORDER && (gfp_mask & __GFP_NORETRY))
		gfp_mask &= ~__GFP_DIRECT_RECLAIM;
	can_direct_reclaim = gfp_mask & __GFP_DIRECT_RECLAIM;

	alloc_flags = gfp_to_alloc_flags(gfp_mask, order);
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (page || !can_direct_reclaim)
		return page;
	return __alloc_pages_direct_compact(gfp_mask, order, alloc_flags, ac,
					    0, &result);
}

/* The flag and the bit are cleared together. */
struct page *toy_slowpath_both(gfp_t gfp_mask, unsigned int order,
			       struct alloc_context *ac)
{
	bool can_direct_reclaim = gfp_mask & __GFP_DIRECT_RECLAIM;
	unsigned int alloc_flags;
	struct page *page;
	int result;

	if (order > PAGE_ALLOC_COSTLY_ORDER && (gfp_mask & __GFP_NORETRY)) {
		gfp_mask &= ~__GFP_DIRECT_RECLAIM;
		can_direct_reclaim = false;
	}
	alloc_flags = gfp_to_alloc_flags(gfp_mask, order);
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (page || !can_direct_reclaim)
		return page;
	return __alloc_pages_direct_compact(gfp_mask, order, alloc_flags, ac,
					    0, &result);
}

/* The caller makes the costly attempts opportunistic; the slow path derives
 * everything from the mask it is given. */
struct page *toy_folio_alloc(gfp_t gfp, unsigned int order,
			     struct alloc_context *ac)
{
	if (order > PAGE_ALLOC_COSTLY_ORDER)
		gfp &= ~__GFP_DIRECT_RECLAIM;
	else if (order)
		gfp |= __GFP_NORETRY;
	return toy_slowpath_mask(gfp | __GFP_NOWARN, order, ac);
}

/* Derived from two mask bits: still a function of the mask alone. */
bool toy_may_retry(gfp_t gfp_mask)
{
	bool retry = (gfp_mask & __GFP_DIRECT_RECLAIM) &&
		     !(gfp_mask & __GFP_NORETRY);

	return retry;
}
/*
 * check-name: clearing the bit in the mask, with the flag, or at the caller keeps them in step
 *
 * check-output-start
 * check-output-end
 */
