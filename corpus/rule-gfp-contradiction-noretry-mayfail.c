/*
 * __GFP_NORETRY with __GFP_RETRY_MAYFAIL: one flag says give up after one
 * round, the other says retry hard; the result depends on the version.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct cache_slot {
	unsigned long addr;
};

int cache_slot_fill(struct cache_slot *slot)
{
	slot->addr = __get_free_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_RETRY_MAYFAIL | __GFP_NOWARN, 1); // warn: gfp-contradiction // site: order=1..1 api=__get_free_pages must=NORETRY|RETRY_MAYFAIL|NOWARN
	if (!slot->addr)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: gfp-contradiction: NORETRY with RETRY_MAYFAIL
 *
 * check-output-start
 * corpus/rule-gfp-contradiction-noretry-mayfail.c:15:15: error: '__get_free_pages' can request order 1: contradictory gfp flags [gfp-contradiction]
 * corpus/rule-gfp-contradiction-noretry-mayfail.c:15:15: note: gfp GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL | __GFP_NORETRY
 * corpus/rule-gfp-contradiction-noretry-mayfail.c:15:15: note: fallback none: '__GFP_NORETRY' with '__GFP_RETRY_MAYFAIL': one asks to give up early, the other to retry
 * check-output-end
 */
