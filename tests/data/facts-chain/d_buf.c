/* Unrelated to the chain: a field this file bounds itself. */
#include <linux/slab.h>

struct d_ctx {
	u32 sz;
	void *buf;
};

void d_init(struct d_ctx *d)
{
	d->sz = 128;
}

int d_alloc(struct d_ctx *d)
{
	d->buf = kmalloc(d->sz, GFP_KERNEL);
	return d->buf ? 0 : -1;
}
