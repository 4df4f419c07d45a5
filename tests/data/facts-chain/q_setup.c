/* Passes the field on: param:q_ring_alloc#1 is what field:q_cfg.depth is. */
#include <linux/slab.h>
#include "q.h"

int q_setup(struct q_cfg *c)
{
	return q_ring_alloc(c, c->depth);
}
