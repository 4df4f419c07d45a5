/* Model of the x86_64 page constants (asm/page_types.h, asm/page_64.h). */
#ifndef _KMODEL_ASM_PAGE_H
#define _KMODEL_ASM_PAGE_H
#include <linux/const.h>
#include <linux/types.h>

#define PAGE_SHIFT		12
#define PAGE_SIZE		(_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE - 1))

#define PMD_SHIFT		21
#define PMD_SIZE		(_AC(1, UL) << PMD_SHIFT)
#define PUD_SHIFT		30

#define PAGE_OFFSET		((unsigned long)0xffff888000000000UL)

struct page;
void *page_address(const struct page *page);
struct page *virt_to_page(const void *addr);
unsigned long __pa(const void *addr);
void *__va(unsigned long paddr);

#include <asm-generic/getorder.h>

#endif
