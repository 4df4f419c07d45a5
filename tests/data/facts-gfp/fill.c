/* The filler asks opportunistically, as readahead does: the pool's mask
 * with __GFP_NORETRY.  The tree's stores are a range of masks, not one
 * mask, so they say nothing of which bits are set here. */
#include <linux/mm.h>
#include <linux/errno.h>
#include "pool.h"

int pool_fill(struct pool_ctl *ctl, struct page **out)
{
	struct pool *p = ctl->pool;
	gfp_t gfp = pool_gfp_opportunistic(p);

	*out = alloc_pages(gfp, 4);
	if (!*out)
		return -ENOMEM;
	return 0;
}
