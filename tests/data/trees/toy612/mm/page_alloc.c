// a test input written for gfpaudit
/*
 * A toy page allocator slow path for gfpaudit's unit tests, written in the
 * shape of Linux 6.12's mm/page_alloc.c (same decisions, not the same code).
 * The @marker comments let the tests find the lines the model must report.
 */
#include <linux/gfp.h>
#include <linux/mmzone.h>
#include "internal.h"

static inline unsigned int gfp_to_alloc_flags_cma(gfp_t gfp_mask, unsigned int alloc_flags)
{
#ifdef CONFIG_CMA
	if (gfp_migratetype(gfp_mask) == MIGRATE_MOVABLE)
		alloc_flags |= ALLOC_CMA;	/* @cma */
#endif
	return alloc_flags;
}

static struct page *__alloc_pages_may_oom(gfp_t gfp_mask, unsigned int order,
					  const struct alloc_context *ac, unsigned long *progress)
{
	struct page *page = NULL;

	*progress = 0;
	if (order > PAGE_ALLOC_COSTLY_ORDER)	/* @oom_costly */
		goto out;
	if (gfp_mask & (__GFP_RETRY_MAYFAIL | __GFP_THISNODE))	/* @oom_mayfail */
		goto out;
	if (toy_out_of_memory(ac))
		*progress = 1;
out:
	return page;
}

static struct page *__alloc_pages_direct_reclaim(gfp_t gfp_mask, unsigned int order,
						 unsigned int alloc_flags, const struct alloc_context *ac,
						 unsigned long *progress)
{
	struct page *page = NULL;
	bool drained = false;

	*progress = toy_try_to_free_pages(ac, order, gfp_mask);
	if (!*progress)
		return NULL;
again:
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (!page && !drained) {
		drain_all_pages(NULL);		/* @drain */
		drained = true;
		goto again;
	}
	return page;
}

static inline unsigned int gfp_to_alloc_flags(gfp_t gfp_mask, unsigned int order)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN | ALLOC_CPUSET;	/* @af_init */

	BUILD_BUG_ON(__GFP_HIGH != (__force gfp_t) ALLOC_MIN_RESERVE);	/* @alias_high */
	BUILD_BUG_ON(__GFP_KSWAPD_RECLAIM != (__force gfp_t) ALLOC_KSWAPD);

	alloc_flags |= (__force int)(gfp_mask & (__GFP_HIGH | __GFP_KSWAPD_RECLAIM));	/* @af_copy */
	if (!(gfp_mask & __GFP_DIRECT_RECLAIM)) {
		if (!(gfp_mask & __GFP_NOMEMALLOC)) {
			alloc_flags |= ALLOC_NON_BLOCK;		/* @af_nonblock */
			if (order > 0 && (alloc_flags & ALLOC_MIN_RESERVE))
				alloc_flags |= ALLOC_HIGHATOMIC;	/* @af_highatomic */
		}
		if (alloc_flags & ALLOC_MIN_RESERVE)
			alloc_flags &= ~ALLOC_CPUSET;
	} else if (unlikely(toy_rt_task(current)) && in_task())
		alloc_flags |= ALLOC_MIN_RESERVE;	/* @af_rt */

	alloc_flags = gfp_to_alloc_flags_cma(gfp_mask, alloc_flags);
	return alloc_flags;
}

static inline struct page *
__alloc_pages_slowpath(gfp_t gfp_mask, unsigned int order, struct alloc_context *ac)
{
	bool can_direct_reclaim = gfp_mask & __GFP_DIRECT_RECLAIM;	/* @can_dr */
	bool can_compact = gfp_compaction_allowed(gfp_mask);
	bool nofail = gfp_mask & __GFP_NOFAIL;
	const bool costly_order = order > PAGE_ALLOC_COSTLY_ORDER;
	struct page *page = NULL;
	unsigned int alloc_flags;
	unsigned long did_some_progress;
	enum compact_priority compact_priority;
	enum compact_result compact_result;

	if (unlikely(nofail)) {
		WARN_ON_ONCE(order > 1);	/* @nofail_warn */
		WARN_ON_ONCE(!can_direct_reclaim);
	}
restart:
	compact_result = COMPACT_SKIPPED;
	compact_priority = DEF_COMPACT_PRIORITY;
	alloc_flags = gfp_to_alloc_flags(gfp_mask, order);	/* @af_call */
	if (alloc_flags & ALLOC_KSWAPD)			/* @kswapd */
		wake_all_kswapds(order, gfp_mask, ac);
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (page)
		goto got_pg;

	if (can_direct_reclaim && can_compact &&
	    (costly_order || (order > 0 && ac->migratetype != MIGRATE_MOVABLE)) &&
	    !gfp_pfmemalloc_allowed(gfp_mask)) {
		page = __alloc_pages_direct_compact(gfp_mask, order, alloc_flags, ac,	/* @compact_first */
						    INIT_COMPACT_PRIORITY, &compact_result);
		if (page)
			goto got_pg;
		if (costly_order && (gfp_mask & __GFP_NORETRY)) {	/* @costly_noretry */
			if (compact_result == COMPACT_SKIPPED ||		/* @bail_skipped */
			    compact_result == COMPACT_DEFERRED)
				goto nopage;
			if (gfp_mask & __GFP_THISNODE)			/* @bail_thisnode */
				goto nopage;
			compact_priority = INIT_COMPACT_PRIORITY;	/* @async */
		}
	}
retry:
	if (alloc_flags & ALLOC_KSWAPD)
		wake_all_kswapds(order, gfp_mask, ac);
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (page)
		goto got_pg;
	if (!can_direct_reclaim)		/* @needs_dr */
		goto nopage;
	page = __alloc_pages_direct_reclaim(gfp_mask, order, alloc_flags, ac,	/* @reclaim */
					    &did_some_progress);
	if (page)
		goto got_pg;
	page = __alloc_pages_direct_compact(gfp_mask, order, alloc_flags, ac,	/* @compact_after */
					    compact_priority, &compact_result);
	if (page)
		goto got_pg;
	if (gfp_mask & __GFP_NORETRY)		/* @noretry_exit */
		goto nopage;
	if (costly_order && (!can_compact || !(gfp_mask & __GFP_RETRY_MAYFAIL)))	/* @costly_exit */
		goto nopage;
	if (should_reclaim_retry(gfp_mask, order, ac, alloc_flags, did_some_progress > 0))	/* @reclaim_retry */
		goto retry;
	if (did_some_progress > 0 && can_compact &&	/* @compact_retry */
	    should_compact_retry(ac, order, alloc_flags, compact_result, &compact_priority))
		goto retry;
	page = __alloc_pages_may_oom(gfp_mask, order, ac, &did_some_progress);	/* @oom */
	if (page)
		goto got_pg;
	if (did_some_progress)
		goto retry;
nopage:
	if (unlikely(nofail)) {
		if (!can_direct_reclaim)	/* @nofail_fail */
			goto fail;
		goto retry;			/* @nofail_loop */
	}
fail:
	toy_warn_alloc(gfp_mask, order);
got_pg:
	return page;
}
