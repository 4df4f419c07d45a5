/* gfpaudit test fixture (t68-facts-forwarded): costly attempts in static
 * functions, handed back by exported ones. */
#include <linux/errno.h>
#include <linux/gfp.h>
#include "zero.h"

#define ZERO_ORDER	9
#define ZERO_RING_ORDER	5

static bool zero_alloc_big(struct zctx *c)
{
	c->big = alloc_pages(GFP_KERNEL | __GFP_ZERO, ZERO_ORDER);
	if (!c->big)
		return false;
	return true;
}

struct page *zero_get(struct zctx *c)
{
	if (!c->big && !zero_alloc_big(c))
		return NULL;
	return c->big;
}

/* the reference only: the result is not looked at */
void zero_ref(struct zctx *c)
{
	zero_get(c);
}

static int zero_alloc_deep(struct zctx *c)
{
	c->deep = alloc_pages(GFP_KERNEL, ZERO_ORDER);
	if (!c->deep)
		return -ENOMEM;
	return 0;
}

static int zero_deep_fill(struct zctx *c)
{
	return zero_alloc_deep(c);
}

struct page *zero_deep_get(struct zctx *c)
{
	if (zero_deep_fill(c))
		return NULL;
	return c->deep;
}

static bool zero_alloc_ring(struct zctx *c)
{
	c->ring = alloc_pages(GFP_KERNEL, ZERO_RING_ORDER);
	return c->ring != NULL;
}

struct page *zero_ring_get(struct zctx *c)
{
	if (!zero_alloc_ring(c))
		return NULL;
	return c->ring;
}

static bool zero_alloc_spare(struct zctx *c)
{
	c->spare = alloc_pages(GFP_KERNEL, ZERO_RING_ORDER);
	return c->spare != NULL;
}

struct page *zero_spare_get(struct zctx *c)
{
	if (!zero_alloc_spare(c))
		return NULL;
	return c->spare;
}
