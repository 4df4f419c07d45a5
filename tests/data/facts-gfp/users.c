/* Users set the mask differently: one may retry hard, one not, one passes
 * its caller's mask through. */
#include "pool.h"

void pool_setup_retrying(struct pool *p)
{
	pool_set_gfp(p, GFP_KERNEL | __GFP_RETRY_MAYFAIL);
}

void pool_setup_plain(struct pool *p)
{
	pool_set_gfp(p, GFP_HIGHUSER);
}

void pool_setup_with(struct pool *p, gfp_t gfp)
{
	pool_set_gfp(p, gfp);
}
