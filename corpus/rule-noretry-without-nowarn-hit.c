/*
 * An order-2 attempt with __GFP_NORETRY but without __GFP_NOWARN: it is
 * expected to fail, and each failure prints an allocation-failure splat.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct tx_buf {
	struct page *page;
	unsigned int order;
};

int tx_buf_alloc(struct tx_buf *tx)
{
	tx->order = 2;
	tx->page = alloc_pages(GFP_KERNEL | __GFP_NORETRY, 2); // site: order=2..2 must=NORETRY mustnot=NOWARN // note: noretry-without-nowarn
	if (!tx->page) {
		tx->order = 0;
		tx->page = alloc_page(GFP_KERNEL); // ok // site: order=0..0
	}
	return tx->page ? 0 : -ENOMEM;
}
/*
 * check-name: noretry-without-nowarn: order-2 NORETRY attempt without NOWARN (a note)
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/rule-noretry-without-nowarn-hit.c:17:13: note: 'alloc_pages' can request order 2: __GFP_NORETRY without __GFP_NOWARN [noretry-without-nowarn]
 * corpus/rule-noretry-without-nowarn-hit.c:17:13: note: gfp GFP_KERNEL | __GFP_NORETRY
 * corpus/rule-noretry-without-nowarn-hit.c:17:13: note: fallback lower-order: a '__GFP_NORETRY' attempt is expected to fail
 * corpus/rule-noretry-without-nowarn-hit.c:17:13: note: add '__GFP_NOWARN'
 * check-output-end
 */
