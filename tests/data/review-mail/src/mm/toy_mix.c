/*
 * A test input written for gfpaudit: a quiet request that passes a gfp bit
 * on as alloc_flags, and an ALLOC_* bit put into a mask.
 */
#include <linux/gfp.h>

#define ALLOC_WMARK_MIN		0x00
#define ALLOC_CPUSET		0x40
#define ALLOC_HIGHATOMIC	0x200

struct page;
struct alloc_context;

struct page *get_page_from_freelist(gfp_t gfp_mask, unsigned int order,
				    int alloc_flags, const struct alloc_context *ac);

struct page *toy_quiet(gfp_t gfp_mask, unsigned int order,
		       struct alloc_context *ac)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN | ALLOC_CPUSET;

	alloc_flags |= (__force int)(gfp_mask & __GFP_NOWARN);
	if (order > 0)
		gfp_mask |= (__force gfp_t)ALLOC_HIGHATOMIC;
	return get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
}
