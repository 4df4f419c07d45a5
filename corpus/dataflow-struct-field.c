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
	rq->page = alloc_pages(GFP_KERNEL, rq->order); // site: order=2..6 fallback=none // note: costly-no-fallback
	if (!rq->page)
		return -ENOMEM;
	return 0;
}

int rq_data_init(struct rq_buf *rq)
{
	if (rq->len > SZ_1M)
		return -EINVAL;
	rq->data = kmalloc(rq->len, GFP_KERNEL); // site: order=0..8 api=kmalloc fallback=none // note: costly-no-fallback
	if (!rq->data)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: order and size stored in a struct field, then read back
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/dataflow-struct-field.c:22:13: note: 'alloc_pages' can request order 2..6: no fallback [costly-no-fallback]
 * corpus/dataflow-struct-field.c:22:13: note: gfp GFP_KERNEL
 * corpus/dataflow-struct-field.c:22:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/dataflow-struct-field.c:22:13: note: possible: the order comes from parameter 'want' of rq_buf_init(), whose values are not known here
 * corpus/dataflow-struct-field.c:32:13: note: 'kmalloc' can request order 0..8 (up to 1 MiB): no fallback [costly-no-fallback]
 * corpus/dataflow-struct-field.c:32:13: note: gfp GFP_KERNEL
 * corpus/dataflow-struct-field.c:32:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/dataflow-struct-field.c:32:13: note: possible: the size comes from field 'rq_buf.len', whose values are not known here
 * check-output-end
 */
