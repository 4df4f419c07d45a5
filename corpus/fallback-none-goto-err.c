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
 * check-output-end
 */
