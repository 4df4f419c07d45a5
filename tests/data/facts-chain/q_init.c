/* Publishes a constant: field:q_cfg.depth. */
#include "q.h"

void q_init(struct q_cfg *c)
{
	c->depth = 4096;
}
