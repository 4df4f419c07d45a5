/*
 * The two aliases the allocator asserts with BUILD_BUG_ON may cross between
 * the bit spaces; a mask bounded by them may too, and gfp tests that only
 * decide which ALLOC_* flag to set are not mixing.  No finding.
 */
#include <linux/gfp.h>
#include <linux/build_bug.h>

#define ALLOC_WMARK_MIN		0x00
#define ALLOC_NON_BLOCK		0x10
#define ALLOC_MIN_RESERVE	0x20
#define ALLOC_CPUSET		0x40
#define ALLOC_HIGHATOMIC	0x200
#define ALLOC_KSWAPD		0x800

unsigned int toy_gfp_to_alloc_flags(gfp_t gfp_mask, unsigned int order)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN | ALLOC_CPUSET;

	BUILD_BUG_ON(__GFP_HIGH != (__force gfp_t) ALLOC_MIN_RESERVE);
	BUILD_BUG_ON(__GFP_KSWAPD_RECLAIM != (__force gfp_t) ALLOC_KSWAPD);

	alloc_flags |= (__force int)
		(gfp_mask & (__GFP_HIGH | __GFP_KSWAPD_RECLAIM));
	if (!(gfp_mask & __GFP_DIRECT_RECLAIM)) {
		if (!(gfp_mask & __GFP_NOMEMALLOC)) {
			alloc_flags |= ALLOC_NON_BLOCK;
			if (order > 0 && (alloc_flags & ALLOC_MIN_RESERVE))
				alloc_flags |= ALLOC_HIGHATOMIC;
		}
		if (alloc_flags & ALLOC_MIN_RESERVE)
			alloc_flags &= ~ALLOC_CPUSET;
	}
	return alloc_flags;
}

unsigned int toy_kswapd_only(gfp_t gfp_mask)
{
	unsigned int alloc_flags;

	alloc_flags = (__force int) (gfp_mask & __GFP_KSWAPD_RECLAIM);
	return alloc_flags;
}
/*
 * check-name: asserted gfp/ALLOC aliases, and masks bounded by them, do not mix
 *
 * check-output-start
 * check-output-end
 */
