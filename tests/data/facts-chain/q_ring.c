/* Allocates with the parameter: 4096 entries of 64 bytes is 256 KiB, an
 * order-6 page-allocator request, once the chain is followed. */
#include <linux/slab.h>
#include <linux/errno.h>
#include "q.h"

int q_ring_alloc(struct q_cfg *c, unsigned int n)
{
	c->ring = kmalloc_array(n, 64, GFP_KERNEL);
	return c->ring ? 0 : -ENOMEM;
}
