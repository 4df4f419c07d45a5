/*
 * A static helper's gfp parameter takes what the callers in this file pass.
 * rx_refill() is only called with GFP_NOWAIT masks, so its order-4 attempt
 * cannot direct-reclaim and, with the order-0 retry, is a clean opportunistic
 * attempt.  tx_refill() is also called with GFP_KERNEL: direct reclaim is
 * "may" there, without NORETRY, so it can stall.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

static struct page *rx_refill(gfp_t gfp)
{
	struct page *page = alloc_pages(gfp | __GFP_COMP, 4); // ok // site: order=4..4 fallback=lower-order mustnot=DIRECT_RECLAIM must=COMP
	if (!page)
		page = alloc_page(gfp); // ok // site: order=0..0
	return page;
}

static struct page *tx_refill(gfp_t gfp)
{
	struct page *page = alloc_pages(gfp | __GFP_COMP, 4); // warn: costly-no-noretry // site: order=4..4 fallback=lower-order may=DIRECT_RECLAIM
	if (!page)
		page = alloc_page(gfp); // ok // site: order=0..0
	return page;
}

int queue_poll(void)
{
	return rx_refill(GFP_NOWAIT) ? 0 : -ENOMEM;
}

int queue_irq(void)
{
	return rx_refill(GFP_NOWAIT | __GFP_NOWARN) ? 0 : -ENOMEM;
}

int queue_open(void)
{
	if (!tx_refill(GFP_NOWAIT))
		return -ENOMEM;
	return tx_refill(GFP_KERNEL) ? 0 : -ENOMEM;
}
/*
 * check-name: a static helper's mask is the join of its callers' masks
 *
 * check-output-start
 * corpus/mask-callers-bind.c:22:22: warning: 'alloc_pages' can request order 4: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/mask-callers-bind.c:22:22: note: gfp GFP_NOWAIT | __GFP_COMP, maybe __GFP_IO | __GFP_FS | __GFP_DIRECT_RECLAIM | __GFP_NOWARN
 * corpus/mask-callers-bind.c:22:22: note: fallback lower-order: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/mask-callers-bind.c:22:22: note: proven: every path asks for more than order 3
 * check-output-end
 */
