/*
 * Bounds from types: a u16 length is at most 65535 bytes (get_order 0..4),
 * a u8 page count shifted into bytes is at most 255 pages (order 0..8).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct msg {
	struct page *body;
	struct page *pages;
};

int msg_alloc(struct msg *m, u16 len, u8 nr_pages)
{
	m->body = alloc_pages(GFP_KERNEL, get_order(len)); // site: order=0..4 fallback=none // note: costly-no-fallback
	if (!m->body)
		return -ENOMEM;
	m->pages = alloc_pages(GFP_KERNEL, get_order((unsigned long)nr_pages << PAGE_SHIFT)); // site: order=0..8 fallback=none // note: costly-no-fallback
	if (!m->pages)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: orders bounded by u16 and u8 types through get_order()
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/order-type-bound.c:16:12: note: 'alloc_pages' can request order 0..4: no fallback [costly-no-fallback]
 * corpus/order-type-bound.c:16:12: note: gfp GFP_KERNEL
 * corpus/order-type-bound.c:16:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/order-type-bound.c:16:12: note: possible: the order comes from parameter 'len' of msg_alloc(), whose values are not known here
 * corpus/order-type-bound.c:19:13: note: 'alloc_pages' can request order 0..8: no fallback [costly-no-fallback]
 * corpus/order-type-bound.c:19:13: note: gfp GFP_KERNEL
 * corpus/order-type-bound.c:19:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/order-type-bound.c:19:13: note: possible: the order comes from parameter 'nr_pages' of msg_alloc(), whose values are not known here
 * check-output-end
 */
