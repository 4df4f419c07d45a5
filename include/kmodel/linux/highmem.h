#ifndef _KMODEL_LINUX_HIGHMEM_H
#define _KMODEL_LINUX_HIGHMEM_H
#include <linux/mm.h>

static inline void *kmap_local_page(struct page *page)
{
	return page_address(page);
}

static inline void kunmap_local(const void *addr)
{
	(void)addr;
}

#endif
