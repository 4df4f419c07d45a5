/*
 * NORETRY added on one path only: when `opportunistic` is false the
 * costly attempts of the loop still stall in reclaim.  The mask is "may"
 * NORETRY, picked among known ones: the code chose where to stall, as
 * the THP defrag policy does (judged on 6.12: none of 8 such rows worth a
 * change), so a note, not a warning.
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
		page = alloc_pages(gfp, order); // note: costly-no-noretry // site: order=0..5 fallback=order-loop may=NORETRY|NOWARN must=DIRECT_RECLAIM
		if (page) {
			*got = order;
			return page;
		}
	}
	return NULL;
}
/*
 * check-name: NORETRY on some paths only is "may": the loop can still stall, as the code chose (a note)
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/mask-some-paths.c:20:10: note: 'alloc_pages' can request order 0..5: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/mask-some-paths.c:20:10: note: gfp GFP_KERNEL | __GFP_COMP, maybe __GFP_NOWARN | __GFP_NORETRY
 * corpus/mask-some-paths.c:20:10: note: fallback order-loop: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/mask-some-paths.c:20:10: note: a note: the mask may carry __GFP_NORETRY already, as the policy that picks it decides
 * corpus/mask-some-paths.c:20:10: note: proven: constants give the order
 * check-output-end
 */
