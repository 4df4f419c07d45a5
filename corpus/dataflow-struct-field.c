/*
 * Values stored in a field and read back before any call: the order and
 * the size are as bounded as the locals they came from.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct rq_buf {
	unsigned int order;
	size_t len;
	struct page *page;
	void *data;
};

int rq_buf_init(struct rq_buf *rq, unsigned int want)
{
	rq->order = clamp(want, 2U, 6U);
	rq->page = alloc_pages(GFP_KERNEL, rq->order); // warn: costly-no-fallback // site: order=2..6 fallback=none
	if (!rq->page)
		return -ENOMEM;
	return 0;
}

int rq_data_init(struct rq_buf *rq)
{
	if (rq->len > SZ_1M)
		return -EINVAL;
	rq->data = kmalloc(rq->len, GFP_KERNEL); // warn: costly-no-fallback // site: order=0..8 api=kmalloc fallback=none
	if (!rq->data)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: order and size stored in a struct field, then read back
 *
 * check-output-start
 * corpus/dataflow-struct-field.c:22:13: warning: 'alloc_pages' can request order 2..6; gfp must __GFP_IO|__GFP_FS|__GFP_DIRECT_RECLAIM|__GFP_KSWAPD_RECLAIM; fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation [costly-no-fallback]
 * corpus/dataflow-struct-field.c:32:13: warning: 'kmalloc' can request order 0..8 (size 0..1048576); gfp must __GFP_IO|__GFP_FS|__GFP_DIRECT_RECLAIM|__GFP_KSWAPD_RECLAIM; fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation [costly-no-fallback]
 * check-output-end
 */
