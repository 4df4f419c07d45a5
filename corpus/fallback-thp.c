/*
 * A PMD-sized folio for an anonymous fault with GFP_TRANSHUGE_LIGHT: no
 * direct reclaim, and returning VM_FAULT_FALLBACK makes the fault path
 * retry with small pages, which is a fallback by design.
 */
#include <linux/mm.h>
#include <linux/huge_mm.h>

vm_fault_t anon_huge_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	unsigned long haddr = vmf->address & HPAGE_PMD_MASK;
	struct folio *folio;

	folio = vma_alloc_folio(GFP_TRANSHUGE_LIGHT, HPAGE_PMD_ORDER, vma, haddr, true); // ok // site: order=9..9 fallback=lower-order api=vma_alloc_folio mustnot=DIRECT_RECLAIM must=COMP|NOWARN
	if (unlikely(!folio)) {
		count_vm_event(THP_FAULT_FALLBACK);
		return VM_FAULT_FALLBACK;
	}
	count_vm_event(THP_FAULT_ALLOC);
	vmf->page = folio_page(folio, 0);
	return 0;
}
/*
 * check-name: THP fault with GFP_TRANSHUGE_LIGHT returning VM_FAULT_FALLBACK
 *
 * check-output-start
 * check-output-end
 */
