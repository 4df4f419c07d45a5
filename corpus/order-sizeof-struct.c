/*
 * The order comes from the size of a record: 5000 u64 slots plus two
 * indexes is 40008 bytes, which needs an order-4 block.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct slot_table {
	unsigned int head;
	unsigned int tail;
	u64 slots[5000];
};

struct owner {
	struct slot_table *tbl;
	struct page *page;
};

int owner_init(struct owner *o)
{
	o->page = alloc_pages(GFP_KERNEL | __GFP_ZERO, get_order(sizeof(struct slot_table))); // warn: costly-no-fallback // site: order=4..4 fallback=none
	if (!o->page)
		return -ENOMEM;
	o->tbl = page_address(o->page);
	return 0;
}
/*
 * check-name: order from get_order(sizeof(struct)) of a 40008-byte record
 *
 * check-output-start
 * corpus/order-sizeof-struct.c:22:12: warning: 'alloc_pages' can request order 4: no fallback [costly-no-fallback]
 * corpus/order-sizeof-struct.c:22:12: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/order-sizeof-struct.c:22:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/order-sizeof-struct.c:22:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
