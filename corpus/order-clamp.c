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
	fp->order = clamp(req_order, 2U, 6U);
	fp->frames = alloc_pages(GFP_KERNEL, fp->order); // warn: costly-no-fallback // site: order=2..6 fallback=none
	if (!fp->frames)
		return -ENOMEM;
	fp->meta = alloc_pages(GFP_KERNEL, max_t(unsigned int, meta_order & 0x3, 1)); // ok // site: order=1..3 fallback=none
	if (!fp->meta)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: order from clamp() (2..6) and max_t() of a masked value (1..3)
 *
 * check-output-start
 * check-output-end
 */
