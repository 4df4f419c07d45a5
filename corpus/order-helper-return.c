/*
 * The order comes from a helper in the same file that returns 5 or 1.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

#define POOL_LARGE	0x1

struct pool {
	unsigned long flags;
	struct page *chunk;
};

static unsigned int pool_chunk_order(const struct pool *pool)
{
	if (pool->flags & POOL_LARGE)
		return 5;
	return 1;
}

int pool_grow(struct pool *pool)
{
	pool->chunk = alloc_pages(GFP_KERNEL, pool_chunk_order(pool)); // warn: costly-no-fallback // site: order=1..5 fallback=none
	if (!pool->chunk)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: order from a same-file helper that returns 5 or 1
 *
 * check-output-start
 * corpus/order-helper-return.c:24:16: warning: 'alloc_pages' can request order 1..5: no fallback [costly-no-fallback]
 * corpus/order-helper-return.c:24:16: note: gfp GFP_KERNEL
 * corpus/order-helper-return.c:24:16: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/order-helper-return.c:24:16: note: proven: constants give the order
 * check-output-end
 */
