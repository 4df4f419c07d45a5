#include <linux/gfp.h>
#include <linux/slab.h>

void *seed_buf(unsigned int n)
{
	unsigned int order = 5;
	while (order > 0) {
		struct page *p = alloc_pages(GFP_KERNEL | __GFP_NORETRY, order);
		if (p)
			return page_address(p);
		order--;
	}
	return kmalloc(n * 4096, GFP_KERNEL);
}
