/*
 * __GFP_NOFAIL without __GFP_DIRECT_RECLAIM: the allocator cannot make
 * progress by itself and spins until someone else frees memory.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct irq_buf {
	struct page *page;
};

void irq_buf_get(struct irq_buf *b)
{
	b->page = alloc_page(GFP_NOWAIT | __GFP_NOFAIL); // warn: gfp-contradiction // site: order=0..0 must=NOFAIL|KSWAPD_RECLAIM mustnot=DIRECT_RECLAIM
}
/*
 * check-name: gfp-contradiction: NOFAIL with GFP_NOWAIT (no direct reclaim)
 *
 * check-output-start
 * corpus/rule-gfp-contradiction-nofail-noreclaim.c:14:12: error: 'alloc_page' can request order 0: contradictory gfp flags [gfp-contradiction]
 * corpus/rule-gfp-contradiction-nofail-noreclaim.c:14:12: note: gfp GFP_NOWAIT | __GFP_NOWARN | __GFP_NOFAIL
 * corpus/rule-gfp-contradiction-nofail-noreclaim.c:14:12: note: fallback none: '__GFP_NOFAIL' without '__GFP_DIRECT_RECLAIM': the allocator cannot make progress and busy-loops
 * check-output-end
 */
