/* Model of include/linux/mm.h: page and folio helpers, struct vm_fault. */
#ifndef _KMODEL_LINUX_MM_H
#define _KMODEL_LINUX_MM_H
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/mm_types.h>
#include <linux/mmzone.h>
#include <asm/page.h>
#include <asm/pgtable.h>

struct vm_fault {
	struct vm_area_struct *vma;
	gfp_t gfp_mask;
	pgoff_t pgoff;
	unsigned long address;
	unsigned int flags;
	void *pmd;
	struct page *page;
};

unsigned long page_to_pfn(const struct page *page);
#define page_to_phys(page) ((phys_addr_t)page_to_pfn(page) << PAGE_SHIFT)
int remap_pfn_range(struct vm_area_struct *vma, unsigned long addr, unsigned long pfn,
		    unsigned long size, pgprot_t prot);
void split_page(struct page *page, unsigned int order);

/* the order of a compound page; 0 for a single page */
static inline unsigned int compound_order(const struct page *page)
{
	return page->flags & 1 ? (unsigned int)(page->private & 0xff) : 0;
}

static inline unsigned int folio_order(const struct folio *folio)
{
	return folio->_folio_order;
}

static inline long folio_nr_pages(const struct folio *folio)
{
	return 1L << folio_order(folio);
}

static inline size_t folio_size(const struct folio *folio)
{
	return PAGE_SIZE << folio_order(folio);
}

static inline void *folio_address(const struct folio *folio)
{
	return page_address(&folio->page);
}

static inline struct page *folio_page(struct folio *folio, unsigned long n)
{
	return &folio->page + n;
}

#define page_folio(p)		((struct folio *)(p))
#define nth_page(page, n)	((page) + (n))

void get_page(struct page *page);
void put_page(struct page *page);
void folio_get(struct folio *folio);
void folio_put(struct folio *folio);
void split_page(struct page *page, unsigned int order);
int page_to_nid(const struct page *page);

static inline void *lowmem_page_address(const struct page *page)
{
	return page_address(page);
}

void count_vm_event(int item);
void mm_account_fault(struct mm_struct *mm, unsigned long address);

#endif
