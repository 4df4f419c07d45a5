/*
 * The same fault with GFP_TRANSHUGE (defrag=always): the order-9 attempt
 * has a fallback (VM_FAULT_FALLBACK) yet runs direct compaction and
 * reclaim without NORETRY first.
 */
#include <linux/mm.h>
#include <linux/huge_mm.h>

vm_fault_t anon_huge_fault_defrag(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	unsigned long haddr = vmf->address & HPAGE_PMD_MASK;
	struct folio *folio;

	folio = vma_alloc_folio(GFP_TRANSHUGE, HPAGE_PMD_ORDER, vma, haddr, true); // warn: costly-no-noretry // site: order=9..9 fallback=lower-order must=DIRECT_RECLAIM|COMP mustnot=NORETRY
	if (unlikely(!folio))
		return VM_FAULT_FALLBACK;
	vmf->page = folio_page(folio, 0);
	return 0;
}
/*
 * check-name: THP fault with GFP_TRANSHUGE (direct reclaim, no NORETRY) and VM_FAULT_FALLBACK
 *
 * check-output-start
 * corpus/fallback-thp-defrag.c:15:10: warning: 'vma_alloc_folio' can request order 9: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/fallback-thp-defrag.c:15:10: note: gfp __GFP_HIGHMEM | __GFP_MOVABLE | __GFP_IO | __GFP_FS | __GFP_DIRECT_RECLAIM | __GFP_NOWARN | __GFP_COMP | __GFP_NOMEMALLOC | __GFP_HARDWALL
 * corpus/fallback-thp-defrag.c:15:10: note: fallback lower-order: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/fallback-thp-defrag.c:15:10: note: proven: every path asks for more than order 3
 * check-output-end
 */
