/*
 * A goto to an error label is not a retry: the order-5 allocation has no
 * fallback.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/errno.h>

struct queue {
	struct page *ring;
	void *ctx;
};

struct queue *queue_create(void)
{
	struct queue *q;

	q = kmalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return ERR_PTR(-ENOMEM);
	q->ring = alloc_pages(GFP_KERNEL | __GFP_ZERO, 5); // warn: costly-no-fallback // site: order=5..5 fallback=none
	if (!q->ring)
		goto err_free;
	q->ctx = NULL;
	return q;

err_free:
	kfree(q);
	return ERR_PTR(-ENOMEM);
}
/*
 * check-name: goto to an error label after an order-5 allocation: no fallback
 *
 * check-output-start
 * corpus/fallback-none-goto-err.c:22:12: warning: 'alloc_pages' can request order 5: no fallback [costly-no-fallback]
 * corpus/fallback-none-goto-err.c:22:12: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/fallback-none-goto-err.c:22:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-none-goto-err.c:22:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
