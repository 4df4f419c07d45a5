/*
 * Quiet: __GFP_RETRY_MAYFAIL in a page-allocator order loop that handles
 * failure by going down an order, kvmalloc without the flag, and a small
 * kvmalloc with it (the kmalloc attempt is not costly).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sizes.h>

struct page *huge_try(unsigned int *got)
{
	struct page *page;
	int order;

	for (order = 9; order >= 0; order--) {
		page = alloc_pages(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN, order); // warn: costly-no-noretry // site: order=0..9 fallback=order-loop must=RETRY_MAYFAIL
		if (page) {
			*got = order;
			return page;
		}
	}
	return NULL;
}

void *tables_alloc(void)
{
	return kvmalloc(SZ_1M, GFP_KERNEL); // ok // site: order=8..8 fallback=kvmalloc
}

void *small_alloc(void)
{
	return kvzalloc(SZ_16K, GFP_KERNEL | __GFP_RETRY_MAYFAIL); // ok // site: order=2..2 api=kvzalloc must=RETRY_MAYFAIL
}
/*
 * check-name: no costly-retry-mayfail on order loops, flagless or small kvmalloc
 *
 * check-output-start
 * corpus/rule-costly-retry-mayfail-miss.c:17:10: warning: 'alloc_pages' can request order 0..9: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/rule-costly-retry-mayfail-miss.c:17:10: note: gfp GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL
 * corpus/rule-costly-retry-mayfail-miss.c:17:10: note: fallback order-loop: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/rule-costly-retry-mayfail-miss.c:17:10: note: proven: constants give the order
 * check-output-end
 */
