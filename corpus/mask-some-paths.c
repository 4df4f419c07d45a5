/*
 * NORETRY added on one path only: when `opportunistic` is false the
 * costly attempts of the loop still stall in reclaim.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *cache_grab(bool opportunistic, unsigned int *got)
{
	gfp_t gfp = GFP_KERNEL | __GFP_COMP;
	struct page *page;
	int order;

	if (opportunistic)
		gfp |= __GFP_NORETRY | __GFP_NOWARN;
	for (order = 5; order >= 0; order--) {
		page = alloc_pages(gfp, order); // warn: costly-no-noretry // site: order=0..5 fallback=order-loop may=NORETRY|NOWARN must=DIRECT_RECLAIM
		if (page) {
			*got = order;
			return page;
		}
	}
	return NULL;
}
/*
 * check-name: NORETRY on some paths only is "may": the loop can still stall
 *
 * check-output-start
 * corpus/mask-some-paths.c:17:10: warning: 'alloc_pages' can request order 0..5: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/mask-some-paths.c:17:10: note: gfp GFP_KERNEL | __GFP_COMP, maybe __GFP_NOWARN | __GFP_NORETRY
 * corpus/mask-some-paths.c:17:10: note: fallback order-loop: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/mask-some-paths.c:17:10: note: proven: constants give the order
 * check-output-end
 */
