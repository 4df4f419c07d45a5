/* gfpaudit test fixture (t68-facts-forwarded): the callers of zero.c's
 * exported functions. */
#include <linux/errno.h>
#include <linux/gfp.h>
#include "zero.h"

struct page *user_map(struct zctx *c)
{
	struct page *p;

	p = zero_get(c);
	if (!p)
		p = alloc_page(GFP_KERNEL);
	return p;
}

enum zfault user_fault(struct zctx *c, bool write)
{
	struct page *p;

	if (write)
		return ZF_OOM;
	p = zero_get(c);
	if (!p)
		goto fallback;
	c->big = p;
	return ZF_DONE;

fallback:
	zero_note("no huge zero page");
	return ZF_FALLBACK;
}

void user_deep(struct zctx *c)
{
	if (!zero_deep_get(c))
		zero_note("no deep page: going on without it");
	else
		c->have_deep = true;
}

int user_ring(struct zctx *c)
{
	if (!zero_ring_get(c))
		return -ENOMEM;
	return 0;
}
