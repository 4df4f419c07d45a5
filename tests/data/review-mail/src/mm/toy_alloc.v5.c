/*
 * A test input written for gfpaudit: a second slow path that reads the
 * mask's reclaim bit (the v4 shape of the seed thread's page allocator
 * change, made v5: costly __GFP_NORETRY requests skip reclaim and
 * compaction through the local flag while the mask keeps the bit).
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
	const bool costly = order > PAGE_ALLOC_COSTLY_ORDER;
	const bool cheap_fallback = costly && (gfp_mask & __GFP_NORETRY) &&
		!(gfp_mask & (__GFP_THISNODE | __GFP_NOFAIL));
	bool can_direct_reclaim = !cheap_fallback &&
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
