/*
 * NORETRY on one path and NOFAIL on the other never meet in one request,
 * and NOFAIL with GFP_KERNEL at order 0 is legitimate.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct table {
	struct page *dir;
	struct page *leaf;
};

void table_init(struct table *t, bool may_fail)
{
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN;

	if (may_fail)
		gfp |= __GFP_NORETRY;
	else
		gfp |= __GFP_NOFAIL;
	t->dir = alloc_pages(gfp, 1); // ok // site: order=1..1 may=NORETRY|NOFAIL must=NOWARN
	t->leaf = alloc_page(GFP_KERNEL | __GFP_NOFAIL); // ok // site: order=0..0 must=NOFAIL|DIRECT_RECLAIM
}
/*
 * check-name: gfp-contradiction miss: flags on different paths, NOFAIL with reclaim
 *
 * check-output-start
 * check-output-end
 */
