/*
 * __GFP_NOFAIL at order 2: the allocator warns above order 1 and may loop
 * in reclaim forever when no order-2 block can be made.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct journal {
	struct page *hdr;
};

void journal_init(struct journal *j)
{
	j->hdr = alloc_pages(GFP_NOFS | __GFP_NOFAIL, 2); // warn: nofail-high-order // site: order=2..2 must=NOFAIL|DIRECT_RECLAIM
}
/*
 * check-name: nofail-high-order: __GFP_NOFAIL at order 2
 *
 * check-output-start
 * corpus/rule-nofail-high-order-hit.c:14:11: error: 'alloc_pages' can request order 2: __GFP_NOFAIL above order 1 [nofail-high-order]
 * corpus/rule-nofail-high-order-hit.c:14:11: note: gfp GFP_NOFS | __GFP_NOFAIL
 * corpus/rule-nofail-high-order-hit.c:14:11: note: fallback none: '__GFP_NOFAIL' above order 1 warns in the allocator and can loop in reclaim forever
 * check-output-end
 */
