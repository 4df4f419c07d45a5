/*
 * gfp bits used as alloc_flags and ALLOC_* bits used as gfp bits, outside
 * the aliases the allocator asserts.
 */
#include <linux/gfp.h>

#define ALLOC_WMARK_MIN		0x00
#define ALLOC_NON_BLOCK		0x10
#define ALLOC_MIN_RESERVE	0x20
#define ALLOC_CPUSET		0x40
#define ALLOC_HIGHATOMIC	0x200
#define ALLOC_KSWAPD		0x800

struct page;
struct alloc_context;

struct page *get_page_from_freelist(gfp_t gfp_mask, unsigned int order,
				    int alloc_flags, const struct alloc_context *ac);

struct page *toy_mix(gfp_t gfp_mask, unsigned int order,
		     struct alloc_context *ac)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN | ALLOC_CPUSET;

	alloc_flags |= (__force int)(gfp_mask & __GFP_NOWARN);	// warn: gfp-alloc-flags-mix
	if (order > 0)
		gfp_mask |= (__force gfp_t)ALLOC_HIGHATOMIC;	// warn: gfp-alloc-flags-mix
	if (alloc_flags & __GFP_DIRECT_RECLAIM)			// warn: gfp-alloc-flags-mix
		alloc_flags |= ALLOC_NON_BLOCK;
	return get_page_from_freelist(gfp_mask, order,
				      alloc_flags | (__force int)gfp_mask, ac);	// warn: gfp-alloc-flags-mix
}

struct page *toy_mix_args(gfp_t gfp_mask, unsigned int order,
			  struct alloc_context *ac)
{
	return get_page_from_freelist((__force gfp_t)ALLOC_CPUSET, order,	// warn: gfp-alloc-flags-mix
				      ALLOC_WMARK_MIN, ac);
}
/*
 * check-name: gfp bits used as alloc_flags and ALLOC_* bits used as gfp bits
 *
 * check-output-start
 * corpus/mm-alloc-flags-mix.c:25:2: warning: gfp bit '__GFP_NOWARN' is used as alloc_flags (in 'alloc_flags') [gfp-alloc-flags-mix]
 * corpus/mm-alloc-flags-mix.c:25:2: note: __GFP_* and ALLOC_* are different bit spaces and they share only the aliases '__GFP_HIGH' == 'ALLOC_MIN_RESERVE', '__GFP_KSWAPD_RECLAIM' == 'ALLOC_KSWAPD' (built-in allocator model)
 * corpus/mm-alloc-flags-mix.c:27:3: warning: 'ALLOC_HIGHATOMIC' is used in a gfp mask (in 'gfp_mask') [gfp-alloc-flags-mix]
 * corpus/mm-alloc-flags-mix.c:27:3: note: ALLOC_* and __GFP_* are different bit spaces and they share only the aliases '__GFP_HIGH' == 'ALLOC_MIN_RESERVE', '__GFP_KSWAPD_RECLAIM' == 'ALLOC_KSWAPD' (built-in allocator model)
 * corpus/mm-alloc-flags-mix.c:28:6: warning: gfp bit '__GFP_DIRECT_RECLAIM' is used as alloc_flags [gfp-alloc-flags-mix]
 * corpus/mm-alloc-flags-mix.c:28:6: note: __GFP_* and ALLOC_* are different bit spaces and they share only the aliases '__GFP_HIGH' == 'ALLOC_MIN_RESERVE', '__GFP_KSWAPD_RECLAIM' == 'ALLOC_KSWAPD' (built-in allocator model)
 * corpus/mm-alloc-flags-mix.c:31:11: warning: the whole gfp mask 'gfp_mask' flows into alloc_flags (in argument... [gfp-alloc-flags-mix]
 * corpus/mm-alloc-flags-mix.c:31:11: note: the whole gfp mask 'gfp_mask' flows into alloc_flags (in argument 'alloc_flags' of 'get_page_from_freelist()'): only the aliased bits may
 * corpus/mm-alloc-flags-mix.c:31:11: note: they share only the aliases '__GFP_HIGH' == 'ALLOC_MIN_RESERVE', '__GFP_KSWAPD_RECLAIM' == 'ALLOC_KSWAPD' (built-in allocator model)
 * corpus/mm-alloc-flags-mix.c:37:32: warning: 'ALLOC_CPUSET' is used in a gfp mask (in argument 'gfp_mask' of... [gfp-alloc-flags-mix]
 * corpus/mm-alloc-flags-mix.c:37:32: note: 'ALLOC_CPUSET' is used in a gfp mask (in argument 'gfp_mask' of 'get_page_from_freelist()'): ALLOC_* and __GFP_* are different bit spaces and they share only the aliases '__GFP_HIGH' == 'ALLOC_MIN_RESERVE', '__GFP_KSWAPD_RECLAIM' == 'ALLOC_KSWAPD' (built-in allocator model)
 * check-output-end
 */
