/* Publishes a constant: field:ring.depth. */
#include "ring.h"

void cfg_init(struct ring *r)
{
	r->depth = 16;
}
