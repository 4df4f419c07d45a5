/*
 * Every 6.10+ page-allocator macro reported by the name written here, not
 * by the *_noprof function the call expands to.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct bufs {
	struct page *one;
	unsigned long zeroed;
	unsigned long single;
	unsigned long dma;
	void *exact;
	struct folio *folio;
	struct folio *node_folio;
};

int bufs_init(struct bufs *b, int nid)
{
	b->one = alloc_page(GFP_KERNEL); // ok // site: order=0..0 api=alloc_page
	b->zeroed = get_zeroed_page(GFP_KERNEL); // ok // site: order=0..0 api=get_zeroed_page
	b->single = __get_free_page(GFP_KERNEL); // ok // site: order=0..0 api=__get_free_page
	if (!b->one || !b->zeroed || !b->single)
		return -ENOMEM;
	b->dma = __get_dma_pages(GFP_KERNEL, 4); // warn: costly-no-fallback // site: order=4..4 api=__get_dma_pages must=DMA fallback=none
	if (!b->dma)
		return -ENOMEM;
	b->exact = alloc_pages_exact(SZ_128K, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 api=alloc_pages_exact fallback=none
	if (!b->exact)
		return -ENOMEM;
	b->folio = folio_alloc(GFP_KERNEL, 6); // warn: costly-no-fallback // site: order=6..6 api=folio_alloc fallback=none
	if (!b->folio)
		return -ENOMEM;
	b->node_folio = __folio_alloc_node(GFP_KERNEL | __GFP_THISNODE, 4, nid); // warn: costly-no-fallback // site: order=4..4 api=__folio_alloc_node must=THISNODE fallback=none
	if (!b->node_folio)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: page-allocator macros over *_noprof reported by the name as written
 *
 * check-output-start
 * corpus/api-page-names.c:27:11: warning: '__get_dma_pages' can request order 4: no fallback [costly-no-fallback]
 * corpus/api-page-names.c:27:11: note: gfp GFP_KERNEL | __GFP_DMA
 * corpus/api-page-names.c:27:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/api-page-names.c:27:11: note: proven: every path asks for more than order 3
 * corpus/api-page-names.c:30:13: warning: 'alloc_pages_exact' can request order 5: no fallback [costly-no-fallback]
 * corpus/api-page-names.c:30:13: note: gfp GFP_KERNEL
 * corpus/api-page-names.c:30:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/api-page-names.c:30:13: note: proven: every path asks for more than order 3
 * corpus/api-page-names.c:33:13: warning: 'folio_alloc' can request order 6: no fallback [costly-no-fallback]
 * corpus/api-page-names.c:33:13: note: gfp GFP_KERNEL | __GFP_COMP
 * corpus/api-page-names.c:33:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/api-page-names.c:33:13: note: proven: every path asks for more than order 3
 * corpus/api-page-names.c:36:18: warning: '__folio_alloc_node' can request order 4: no fallback [costly-no-fallback]
 * corpus/api-page-names.c:36:18: note: gfp GFP_KERNEL | __GFP_COMP | __GFP_THISNODE
 * corpus/api-page-names.c:36:18: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/api-page-names.c:36:18: note: proven: every path asks for more than order 3
 * check-output-end
 */
