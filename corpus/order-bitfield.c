/*
 * Orders packed in a descriptor word: three bits (0..7) can be costly, two
 * bits (0..3) cannot.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

#define DESC_ORDER_SHIFT	8
#define DESC_ORDER_MASK		0x7
#define CFG_ORDER_SHIFT		4
#define CFG_ORDER_MASK		0x3

struct hw_desc {
	u32 flags;
	struct page *buf;
};

int hw_desc_map(struct hw_desc *d)
{
	unsigned int order = (d->flags >> DESC_ORDER_SHIFT) & DESC_ORDER_MASK;

	d->buf = alloc_pages(GFP_KERNEL, order); // site: order=0..7 fallback=none // note: costly-no-fallback
	if (!d->buf)
		return -ENOMEM;
	return 0;
}

int hw_cfg_map(struct hw_desc *d, u32 cfg)
{
	d->buf = alloc_pages(GFP_KERNEL, (cfg >> CFG_ORDER_SHIFT) & CFG_ORDER_MASK); // ok // site: order=0..3 fallback=none
	if (!d->buf)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: order from bit-field extraction (flags >> S) & MASK
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/order-bitfield.c:23:11: note: 'alloc_pages' can request order 0..7: no fallback [costly-no-fallback]
 * corpus/order-bitfield.c:23:11: note: gfp GFP_KERNEL
 * corpus/order-bitfield.c:23:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/order-bitfield.c:23:11: note: possible: the order comes from field 'hw_desc.flags', whose values are not known here
 * check-output-end
 */
