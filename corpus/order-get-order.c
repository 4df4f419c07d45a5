/*
 * get_order() of known sizes: 64 KiB is order 4, 16 KiB is order 2.
 * get_order is a function for clang, not a constant expression.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/errno.h>

#define LOG_BUF_BYTES	(64 * 1024)

struct logbuf {
	unsigned long big;
	unsigned long small;
};

int logbuf_init(struct logbuf *lb)
{
	lb->big = __get_free_pages(GFP_KERNEL | __GFP_ZERO, get_order(LOG_BUF_BYTES)); // warn: costly-no-fallback // site: order=4..4 api=__get_free_pages fallback=none must=ZERO
	if (!lb->big)
		return -ENOMEM;
	lb->small = __get_free_pages(GFP_KERNEL, get_order(SZ_16K)); // ok // site: order=2..2 api=__get_free_pages
	if (!lb->small) {
		free_pages(lb->big, get_order(LOG_BUF_BYTES));
		return -ENOMEM;
	}
	return 0;
}
/*
 * check-name: order from get_order() of constant sizes (64K: 4, 16K: 2)
 *
 * check-output-start
 * corpus/order-get-order.c:19:12: warning: '__get_free_pages' can request order 4: no fallback [costly-no-fallback]
 * corpus/order-get-order.c:19:12: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/order-get-order.c:19:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/order-get-order.c:19:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
