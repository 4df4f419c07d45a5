/* Allocates from struct ring_cfg's fields, stored in setup.c. */
#include <linux/slab.h>
#include <linux/errno.h>
#include "cfg.h"

struct desc {
	u64 addr, len;
	u32 flags, pad[3];
};

int ring_alloc_desc(struct ring_cfg *c)
{
	/* nr_desc is 8 wherever it is stored: 256 bytes, never costly */
	c->desc = kcalloc(c->nr_desc, sizeof(struct desc), GFP_KERNEL);
	return c->desc ? 0 : -ENOMEM;
}

void *ring_alloc_blob(const struct blob_desc *d)
{
	/* d->len comes from setup.c's blob_tbl: 4 KiB or 64 KiB (order 4) */
	return kmalloc(d->len, GFP_KERNEL);
}

int ring_stats_resize(struct ring_cfg *c, size_t n)
{
	/* n is what setup.c's ioctl read with get_user() */
	void *p = kcalloc(n, 256, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	kfree(c->stats);
	c->stats = p;
	return 0;
}
