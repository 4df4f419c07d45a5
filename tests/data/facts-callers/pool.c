/* gfpaudit test fixture (t68): a pool allocator that hands every failure back. */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include "pool.h"

#define POOL_TABLE_BYTES	(64 * 1024)
#define POOL_TRACE_BYTES	(128 * 1024)
#define POOL_RING_BYTES		(256 * 1024)

int pool_fill_chunks(struct pool_set *ps, unsigned int unit)
{
	struct page *pg;

	while (ps->nchunks < 64) {
		pg = alloc_pages(GFP_KERNEL, get_order(unit << PAGE_SHIFT));
		if (!pg)
			return -ENOMEM;
		ps->chunk[ps->nchunks++] = pg;
	}
	return 0;
}

void *pool_table_alloc(void)
{
	return kmalloc(POOL_TABLE_BYTES, GFP_KERNEL);
}

int pool_trace_enable(struct pool_set *ps)
{
	ps->trace = kzalloc(POOL_TRACE_BYTES, GFP_KERNEL);
	if (!ps->trace)
		return -ENOMEM;
	ps->tracing = true;
	return 0;
}

int pool_ring_setup(struct pool_set *ps)
{
	ps->ring = kzalloc(POOL_RING_BYTES, GFP_KERNEL);
	if (!ps->ring)
		return -ENOMEM;
	return 0;
}

int pool_stage_alloc(struct pool_set *ps)
{
	ps->stage = kmalloc(POOL_TABLE_BYTES, GFP_KERNEL);
	if (!ps->stage)
		return -ENOMEM;
	return 0;
}

int pool_hook_alloc(struct pool_set *ps)
{
	ps->hook = kmalloc(POOL_TABLE_BYTES, GFP_KERNEL);
	if (!ps->hook)
		return -ENOMEM;
	return 0;
}

struct pool_ctx *pool_ctx_create(void)
{
	struct pool_ctx *pc = kzalloc(sizeof(*pc), GFP_KERNEL);

	if (!pc)
		return NULL;
	return pc;
}

void pool_ctx_destroy(struct pool_ctx **pc)
{
	kfree(*pc);
	*pc = NULL;
}
