/* A pool whose allocation mask its users set, through the header's
 * setter and getters, as the page cache's mapping_set_gfp_mask(),
 * mapping_gfp_mask() and readahead_gfp_mask() do. */
#include <linux/gfp.h>

struct pool {
	gfp_t gfp_mask;
	unsigned int order;
};

struct pool_ctl {
	struct pool *pool;
	unsigned long index;
};

static inline void pool_set_gfp(struct pool *p, gfp_t mask)
{
	p->gfp_mask = mask;
}

static inline gfp_t pool_gfp(const struct pool *p)
{
	return p->gfp_mask & ((1u << 26) - 1);
}

static inline gfp_t pool_gfp_opportunistic(const struct pool *p)
{
	return pool_gfp(p) | __GFP_NORETRY | __GFP_NOWARN;
}
