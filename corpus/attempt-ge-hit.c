/*
 * `>=` spelling of the costly test, and a mistake in it: `order >= 5` and
 * `order < 3` leave orders 3 and 4 with direct reclaim and no NORETRY while
 * a fallback follows; order 4 is costly and is reported.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *ge_alloc(unsigned int order)
{
	struct page *page;

	if (order > 8)
		order = 8;
	for (; order > 0; order--) {
		gfp_t g = GFP_KERNEL | __GFP_NOWARN;

		if (order >= PAGE_ALLOC_COSTLY_ORDER + 2)
			g &= ~__GFP_DIRECT_RECLAIM;
		else if (order >= 2 && order < PAGE_ALLOC_COSTLY_ORDER)
			g |= __GFP_NORETRY;
		page = alloc_pages(g, order); // site: fallback=order-loop att=5..8/fallback/-DIRECT_RECLAIM att=4..4/fallback/-NORETRY att=2..2/fallback/+NORETRY // note: costly-no-noretry
		if (page)
			return page;
	}
	return alloc_pages(GFP_KERNEL, 0); // ok
}
/*
 * check-name: >= spelling; the class 4..4 keeps direct reclaim without NORETRY
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/attempt-ge-hit.c:22:10: note: 'alloc_pages' can request order 1..8: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/attempt-ge-hit.c:22:10: note: its attempts at order 4 (with a fallback after them) get gfp GFP_KERNEL | __GFP_NOWARN
 * corpus/attempt-ge-hit.c:22:10: note: fallback order-loop: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/attempt-ge-hit.c:22:10: note: possible: the order comes from parameter 'order' of ge_alloc(), whose values are not known here
 * check-output-end
 */
