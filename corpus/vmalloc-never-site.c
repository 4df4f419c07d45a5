/*
 * vmalloc and its relatives map order-0 pages: never a high-order site,
 * whatever the size or mask.
 */
#include <linux/vmalloc.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct big_area {
	void *a;
	void *b;
	void *c;
	void *d;
};

int big_area_init(struct big_area *ba, unsigned long size)
{
	ba->a = vmalloc(SZ_4M);
	ba->b = vzalloc(size);
	ba->c = __vmalloc(size, GFP_KERNEL | __GFP_NORETRY);
	ba->d = vmalloc_huge(SZ_16M, GFP_KERNEL);
	if (!ba->a || !ba->b || !ba->c || !ba->d)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: vmalloc, vzalloc, __vmalloc, vmalloc_huge are never sites
 *
 * check-output-start
 * check-output-end
 */
