/*
 * clamp() of a caller's request to 2..6, and max() of a parameter with a
 * floor: both can be costly, and nothing catches a failure.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/minmax.h>
#include <linux/errno.h>

struct frame_pool {
	struct page *frames;
	struct page *meta;
	unsigned int order;
};

int frame_pool_init(struct frame_pool *fp, unsigned int req_order, u8 meta_order)
{
	unsigned int order = clamp(req_order, 2U, 6U);

	fp->frames = alloc_pages(GFP_KERNEL, order); // site: order=2..6 fallback=none // note: costly-no-fallback
	if (!fp->frames)
		return -ENOMEM;
	fp->order = order;
	fp->meta = alloc_pages(GFP_KERNEL, max_t(unsigned int, meta_order & 0x3, 1)); // ok // site: order=1..3 fallback=none
	if (!fp->meta)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: order from clamp() (2..6) and max_t() of a masked value (1..3)
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/order-clamp.c:20:15: note: 'alloc_pages' can request order 2..6: no fallback [costly-no-fallback]
 * corpus/order-clamp.c:20:15: note: gfp GFP_KERNEL
 * corpus/order-clamp.c:20:15: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/order-clamp.c:20:15: note: possible: the order comes from parameter 'req_order' of frame_pool_init(), whose values are not known here
 * check-output-end
 */
