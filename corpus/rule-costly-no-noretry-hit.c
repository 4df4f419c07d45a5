/*
 * An order loop that walks down from order 6 with plain GFP_KERNEL: every
 * costly attempt has a smaller order to fall back to, yet may stall in
 * direct compaction and reclaim first.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct page *buf_alloc_chunk(unsigned int *out_order)
{
	struct page *page;
	int order;

	for (order = 6; order >= 0; order--) {
		page = alloc_pages(GFP_KERNEL | __GFP_COMP, order); // warn: costly-no-noretry // site: order=0..6 fallback=order-loop must=DIRECT_RECLAIM|COMP mustnot=NORETRY
		if (page) {
			*out_order = order;
			return page;
		}
	}
	return NULL;
}
/*
 * check-name: costly-no-noretry: for order loop from 6 to 0 with GFP_KERNEL
 *
 * check-output-start
 * corpus/rule-costly-no-noretry-hit.c:15:10: warning: 'alloc_pages' can request order 0..6: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/rule-costly-no-noretry-hit.c:15:10: note: gfp GFP_KERNEL | __GFP_COMP
 * corpus/rule-costly-no-noretry-hit.c:15:10: note: fallback order-loop: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/rule-costly-no-noretry-hit.c:15:10: note: proven: constants give the order
 * check-output-end
 */
