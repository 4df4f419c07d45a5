/*
 * A test input written for gfpaudit: a page allocator slow path with the
 * decisions of Linux 6.12's (not its code), as much as gfpaudit's allocator
 * model reads.  The review mails of tests/t51-review-mail.sh cite its lines.
 */
#include <linux/gfp.h>
#include <linux/mmzone.h>
#include "internal.h"

static struct page *__alloc_pages_may_oom(gfp_t gfp_mask, unsigned int order,
					  const struct alloc_context *ac, unsigned long *progress)
{
	*progress = 0;
	if (order > PAGE_ALLOC_COSTLY_ORDER)
		return NULL;
	if (gfp_mask & (__GFP_RETRY_MAYFAIL | __GFP_THISNODE))
		return NULL;
	*progress = toy_oom_kill(ac);
	return NULL;
}

static struct page *__alloc_pages_direct_reclaim(gfp_t gfp_mask, unsigned int order,
						 unsigned int alloc_flags, const struct alloc_context *ac,
						 unsigned long *progress)
{
	struct page *page;

	*progress = toy_reclaim(ac, order, gfp_mask);
	if (!*progress)
		return NULL;
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (!page) {
		drain_all_pages(NULL);
		page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	}
	return page;
}

static inline unsigned int gfp_to_alloc_flags(gfp_t gfp_mask, unsigned int order)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN | ALLOC_CPUSET;

	BUILD_BUG_ON(__GFP_HIGH != (__force gfp_t) ALLOC_MIN_RESERVE);
	BUILD_BUG_ON(__GFP_KSWAPD_RECLAIM != (__force gfp_t) ALLOC_KSWAPD);
	alloc_flags |= (__force int)(gfp_mask & (__GFP_HIGH | __GFP_KSWAPD_RECLAIM));
	if (!(gfp_mask & __GFP_DIRECT_RECLAIM) && !(gfp_mask & __GFP_NOMEMALLOC)) {
		alloc_flags |= ALLOC_NON_BLOCK;
		if (order > 0 && (alloc_flags & ALLOC_MIN_RESERVE))
			alloc_flags |= ALLOC_HIGHATOMIC;
	}
	return alloc_flags;
}

static inline struct page *
__alloc_pages_slowpath(gfp_t gfp_mask, unsigned int order, struct alloc_context *ac)
{
	bool can_direct_reclaim = gfp_mask & __GFP_DIRECT_RECLAIM;
	bool can_compact = gfp_compaction_allowed(gfp_mask);
	bool nofail = gfp_mask & __GFP_NOFAIL;
	const bool costly_order = order > PAGE_ALLOC_COSTLY_ORDER;
	struct page *page = NULL;
	unsigned int alloc_flags;
	unsigned long progress;
	enum compact_priority compact_priority;
	enum compact_result compact_result;

	if (nofail) {
		WARN_ON_ONCE(order > 1);
		WARN_ON_ONCE(!can_direct_reclaim);
	}
restart:
	compact_result = COMPACT_SKIPPED;
	compact_priority = DEF_COMPACT_PRIORITY;
	alloc_flags = gfp_to_alloc_flags(gfp_mask, order);
	if (alloc_flags & ALLOC_KSWAPD)
		wake_all_kswapds(order, gfp_mask, ac);
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (page)
		goto got_pg;

	if (can_direct_reclaim && can_compact &&
	    (costly_order || (order > 0 && ac->migratetype != MIGRATE_MOVABLE)) &&
	    !gfp_pfmemalloc_allowed(gfp_mask)) {
		page = __alloc_pages_direct_compact(gfp_mask, order, alloc_flags, ac,
						    INIT_COMPACT_PRIORITY, &compact_result);
		if (page)
			goto got_pg;
		if (costly_order && (gfp_mask & __GFP_NORETRY)) {
			if (compact_result == COMPACT_SKIPPED ||
			    compact_result == COMPACT_DEFERRED)
				goto nopage;
			if (gfp_mask & __GFP_THISNODE)
				goto nopage;
			compact_priority = INIT_COMPACT_PRIORITY;
		}
	}
retry:
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (page)
		goto got_pg;
	if (!can_direct_reclaim)
		goto nopage;
	page = __alloc_pages_direct_reclaim(gfp_mask, order, alloc_flags, ac, &progress);
	if (page)
		goto got_pg;
	page = __alloc_pages_direct_compact(gfp_mask, order, alloc_flags, ac,
					    compact_priority, &compact_result);
	if (page)
		goto got_pg;
	if (gfp_mask & __GFP_NORETRY)
		goto nopage;
	if (costly_order && (!can_compact || !(gfp_mask & __GFP_RETRY_MAYFAIL)))
		goto nopage;
	if (should_reclaim_retry(gfp_mask, order, ac, alloc_flags, progress > 0))
		goto retry;
	if (progress > 0 && can_compact &&
	    should_compact_retry(ac, order, alloc_flags, compact_result, &compact_priority))
		goto retry;
	page = __alloc_pages_may_oom(gfp_mask, order, ac, &progress);
	if (page)
		goto got_pg;
	if (progress)
		goto retry;
nopage:
	if (nofail) {
		if (!can_direct_reclaim)
			goto fail;
		goto retry;
	}
fail:
	toy_warn_alloc(gfp_mask, order);
got_pg:
	return page;
}
