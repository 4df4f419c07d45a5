/*
 * NORETRY at order 0 fails rarely enough that a splat is useful; NOWARN
 * that some paths add is enough to stay quiet.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct tx_buf {
	struct page *page;
	struct page *spare;
};

int tx_buf_alloc(struct tx_buf *tx, bool quiet)
{
	gfp_t gfp = GFP_KERNEL | __GFP_NORETRY;

	tx->spare = alloc_page(GFP_KERNEL | __GFP_NORETRY); // ok // site: order=0..0 must=NORETRY
	if (!tx->spare)
		return -ENOMEM;
	if (quiet)
		gfp |= __GFP_NOWARN;
	tx->page = alloc_pages(gfp, 2); // ok // site: order=2..2 must=NORETRY may=NOWARN
	if (!tx->page)
		tx->page = tx->spare;
	return 0;
}
/*
 * check-name: noretry-without-nowarn miss: order 0, and NOWARN on some paths
 *
 * check-output-start
 * check-output-end
 */
