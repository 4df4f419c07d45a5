/* Model of include/linux/huge_mm.h (CONFIG_TRANSPARENT_HUGEPAGE, x86_64). */
#ifndef _KMODEL_LINUX_HUGE_MM_H
#define _KMODEL_LINUX_HUGE_MM_H
#include <linux/mm.h>

#define HPAGE_PMD_SHIFT		PMD_SHIFT
#define HPAGE_PMD_ORDER		(HPAGE_PMD_SHIFT - PAGE_SHIFT)
#define HPAGE_PMD_NR		(1 << HPAGE_PMD_ORDER)
#define HPAGE_PMD_SIZE		((1UL) << HPAGE_PMD_SHIFT)
#define HPAGE_PMD_MASK		(~(HPAGE_PMD_SIZE - 1))

#define THP_FAULT_ALLOC		1
#define THP_FAULT_FALLBACK	2

/* The THP defrag policy is a sysfs knob: the mask it gives is only known at
 * run time (GFP_TRANSHUGE_LIGHT up to GFP_TRANSHUGE | __GFP_NORETRY). */
gfp_t vma_thp_gfp_mask(struct vm_area_struct *vma);

bool thp_vma_suitable_order(struct vm_area_struct *vma, unsigned long addr, int order);

#endif
