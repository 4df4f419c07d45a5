/*
 * Memory that must stay physically contiguous: its address goes to a DMA
 * mapping, a register, a scatterlist, a user mapping of its pfns, or a
 * set_memory_*() call.  kvmalloc would not do; the finding stays a warning
 * when the attempt can stall.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/io.h>
#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>
#include <linux/errno.h>
#include <asm/set_memory.h>

struct hw_ring {
	void *desc;
	dma_addr_t desc_dma;
	void __iomem *regs;
	struct page *pages;
	void *table;
	struct scatterlist sg;
};

int hw_ring_map(struct hw_ring *r, struct device *dev)
{
	r->desc = kzalloc(65536, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 stall=yes contig=physical contigat=30
	if (!r->desc)
		return -ENOMEM;
	r->desc_dma = dma_map_single(dev, r->desc, 65536, DMA_TO_DEVICE);
	return 0;
}

int hw_ring_regs(struct hw_ring *r)
{
	void *base = kmalloc(131072, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 contig=physical contigat=40

	if (!base)
		return -ENOMEM;
	writeq(virt_to_phys(base), r->regs);
	r->table = base;
	return 0;
}

int hw_ring_pages(struct hw_ring *r, struct vm_area_struct *vma)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 5); // warn: costly-no-fallback // site: order=5..5 contig=physical contigat=52

	if (!page)
		return -ENOMEM;
	r->pages = page;
	return remap_pfn_range(vma, vma->vm_start, page_to_pfn(page), PAGE_SIZE << 5, vma->vm_page_prot);
}

int hw_ring_sg(struct hw_ring *r)
{
	void *buf = kmalloc(65536, GFP_ATOMIC); // note: costly-no-fallback // site: order=4..4 stall=no contig=physical contigat=61

	if (!buf)
		return -ENOMEM;
	sg_init_one(&r->sg, buf, 65536);
	return 0;
}

int hw_ring_ro(struct hw_ring *r)
{
	unsigned long addr = __get_free_pages(GFP_KERNEL, 4); // warn: costly-no-fallback // site: order=4..4 contig=physical contigat=72

	if (!addr)
		return -ENOMEM;
	r->table = (void *)addr;
	return set_memory_ro(addr, 16);
}
/*
 * check-name: physically contiguous uses: DMA, registers, pfn mapping, scatterlist, set_memory_ro
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/contig-physical.c:27:12: warning: 'kzalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/contig-physical.c:27:12: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/contig-physical.c:27:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/contig-physical.c:27:12: note: proven: every path asks for more than order 3
 * corpus/contig-physical.c:36:15: warning: 'kmalloc' can request order 5 (128 KiB): no fallback [costly-no-fallback]
 * corpus/contig-physical.c:36:15: note: gfp GFP_KERNEL
 * corpus/contig-physical.c:36:15: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/contig-physical.c:36:15: note: proven: every path asks for more than order 3
 * corpus/contig-physical.c:47:22: warning: 'alloc_pages' can request order 5: no fallback [costly-no-fallback]
 * corpus/contig-physical.c:47:22: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/contig-physical.c:47:22: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/contig-physical.c:47:22: note: proven: every path asks for more than order 3
 * corpus/contig-physical.c:57:14: note: 'kmalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/contig-physical.c:57:14: note: gfp GFP_ATOMIC
 * corpus/contig-physical.c:57:14: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/contig-physical.c:57:14: note: it cannot stall (no '__GFP_DIRECT_RECLAIM') and the memory must be physically contiguous (reaches 'sg_init_one', line 61): a failure goes back to the caller
 * corpus/contig-physical.c:57:14: note: proven: every path asks for more than order 3
 * corpus/contig-physical.c:67:23: warning: '__get_free_pages' can request order 4: no fallback [costly-no-fallback]
 * corpus/contig-physical.c:67:23: note: gfp GFP_KERNEL
 * corpus/contig-physical.c:67:23: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/contig-physical.c:67:23: note: proven: every path asks for more than order 3
 * check-output-end
 */
