/*
 * Orders spelled as macros: a driver's own constant, and HPAGE_PMD_ORDER
 * (PMD_SHIFT - PAGE_SHIFT, 9 on x86_64).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/huge_mm.h>
#include <linux/errno.h>

#define EVT_RING_ORDER	5

struct evt_ring {
	struct page *ring;
	struct page *huge;
};

int evt_ring_init(struct evt_ring *r, int nid)
{
	r->ring = alloc_pages_node(nid, GFP_KERNEL | __GFP_ZERO, EVT_RING_ORDER); // warn: costly-no-fallback // site: order=5..5 fallback=none api=alloc_pages_node
	if (!r->ring)
		return -ENOMEM;
	r->huge = alloc_pages(GFP_KERNEL | __GFP_COMP, HPAGE_PMD_ORDER); // warn: costly-no-fallback // site: order=9..9 fallback=none api=alloc_pages must=COMP
	if (!r->huge) {
		__free_pages(r->ring, EVT_RING_ORDER);
		return -ENOMEM;
	}
	return 0;
}
/*
 * check-name: order from macros: EVT_RING_ORDER 5 and HPAGE_PMD_ORDER 9
 *
 * check-output-start
 * corpus/order-macro.c:19:12: warning: 'alloc_pages_node' can request order 5: no fallback [costly-no-fallback]
 * corpus/order-macro.c:19:12: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/order-macro.c:19:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/order-macro.c:19:12: note: proven: every path asks for more than order 3
 * corpus/order-macro.c:22:12: warning: 'alloc_pages' can request order 9: no fallback [costly-no-fallback]
 * corpus/order-macro.c:22:12: note: gfp GFP_KERNEL | __GFP_COMP
 * corpus/order-macro.c:22:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/order-macro.c:22:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
