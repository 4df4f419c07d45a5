/* gfpaudit test fixture (t68): callers of pool.c, each coping with a failure its own way. */
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "pool.h"

#define USER_BIG_UNIT	512
#define USER_TABLE_BYTES	(64 * 1024)

int user_fill(struct pool_set *ps)
{
	unsigned int unit = USER_BIG_UNIT;
	int err;

	for (;;) {
		err = pool_fill_chunks(ps, unit);
		if (err == -ENOMEM && unit != 1) {
			unit = 1;
			continue;
		}
		return err;
	}
}

int user_table(struct pool_set *ps)
{
	void *t;

	t = pool_table_alloc();
	if (!t)
		t = vmalloc(USER_TABLE_BYTES);
	if (!t)
		return -ENOMEM;
	ps->table = t;
	return 0;
}

void user_trace(struct pool_set *ps)
{
	if (pool_trace_enable(ps))
		pool_note("no trace buffer: tracing stays off");
}

int user_ring(struct pool_set *ps)
{
	int err;

	err = pool_ring_setup(ps);
	if (err)
		return err;
	return 0;
}

void user_stage_try(struct pool_set *ps)
{
	if (pool_stage_alloc(ps))
		pool_note("no staging buffer");
}

int user_stage_must(struct pool_set *ps)
{
	int err = pool_stage_alloc(ps);

	if (err)
		return err;
	return 0;
}

static const struct pool_ops user_ops = {
	.grow = pool_hook_alloc,
};

const struct pool_ops *user_get_ops(void)
{
	return &user_ops;
}

void user_hook(struct pool_set *ps)
{
	if (pool_hook_alloc(ps))
		pool_note("no hook");
}

void user_ctx_drop(struct pool_ctx *ctx)
{
	kfree(ctx);
}
