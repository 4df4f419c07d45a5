/*
 * The mask is a parameter of an exported function: any bit may be set.
 * With no fallback the costly request is reported; with a lower-order
 * retry the caller's mask may allow direct reclaim without NORETRY.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct ring {
	struct page *page;
	unsigned int order;
};

int ring_alloc_fixed(struct ring *r, gfp_t gfp)
{
	r->page = alloc_pages(gfp, 4); // warn: costly-no-fallback // site: order=4..4 fallback=none may=DIRECT_RECLAIM|NORETRY
	if (!r->page)
		return -ENOMEM;
	r->order = 4;
	return 0;
}

int ring_alloc_flexible(struct ring *r, gfp_t gfp)
{
	r->order = 4;
	r->page = alloc_pages(gfp | __GFP_NOWARN, 4); // warn: costly-no-noretry // site: order=4..4 fallback=lower-order may=DIRECT_RECLAIM must=NOWARN
	if (!r->page) {
		r->order = 0;
		r->page = alloc_pages(gfp, 0); // ok // site: order=0..0
	}
	return r->page ? 0 : -ENOMEM;
}
/*
 * check-name: mask from a gfp_t parameter (unknown bits) with and without a fallback
 *
 * check-output-start
 * corpus/mask-param.c:17:12: warning: 'alloc_pages' can request order 4: no fallback [costly-no-fallback]
 * corpus/mask-param.c:17:12: note: gfp 0, maybe any other flag
 * corpus/mask-param.c:17:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/mask-param.c:17:12: note: proven: every path asks for more than order 3
 * corpus/mask-param.c:27:12: warning: 'alloc_pages' can request order 4: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/mask-param.c:27:12: note: gfp __GFP_NOWARN, maybe any other flag
 * corpus/mask-param.c:27:12: note: fallback lower-order: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/mask-param.c:27:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
