/*
 * ilog2(): a constant argument folds (128 KiB of pages: ilog2(32) = 5); a
 * clamped variable goes through __ilog2_u32() (1..8 pages: order 0..3).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/errno.h>

#define RX_BUF_BYTES	SZ_128K

struct rx_queue {
	struct page *buf;
	struct page *hdr;
};

int rx_queue_init(struct rx_queue *q, unsigned int want_pages)
{
	unsigned int nr = clamp_t(unsigned int, want_pages, 1, 8);

	q->buf = alloc_pages(GFP_KERNEL, ilog2(RX_BUF_BYTES >> PAGE_SHIFT)); // warn: costly-no-fallback // site: order=5..5 fallback=none
	if (!q->buf)
		return -ENOMEM;
	q->hdr = alloc_pages(GFP_KERNEL, ilog2(nr)); // ok // site: order=0..3
	if (!q->hdr)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: order from ilog2() of a constant (5) and of a clamped count (0..3)
 *
 * check-output-start
 * corpus/order-ilog2.c:23:11: warning: 'alloc_pages' can request order 5: no fallback [costly-no-fallback]
 * corpus/order-ilog2.c:23:11: note: gfp GFP_KERNEL
 * corpus/order-ilog2.c:23:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/order-ilog2.c:23:11: note: proven: every path asks for more than order 3
 * check-output-end
 */
