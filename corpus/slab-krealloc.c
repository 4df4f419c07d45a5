/*
 * Growing an array with krealloc: up to 16384 u64 entries is 128 KiB, an
 * order-5 request when the array is large.
 */
#include <linux/slab.h>
#include <linux/errno.h>

#define VEC_MAX	16384

struct u64_vec {
	u64 *items;
	unsigned int cap;
};

int vec_grow(struct u64_vec *v, unsigned int new_cap)
{
	u64 *items;

	if (new_cap > VEC_MAX)
		return -ENOSPC;
	items = krealloc(v->items, new_cap * sizeof(u64), GFP_KERNEL); // site: order=0..5 api=krealloc fallback=none // note: costly-no-fallback
	if (!items)
		return -ENOMEM;
	v->items = items;
	v->cap = new_cap;
	return 0;
}
/*
 * check-name: krealloc to a guarded capacity (order 0..5)
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/slab-krealloc.c:21:10: note: 'krealloc' can request order 0..5 (up to 128 KiB): no fallback [costly-no-fallback]
 * corpus/slab-krealloc.c:21:10: note: gfp GFP_KERNEL
 * corpus/slab-krealloc.c:21:10: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/slab-krealloc.c:21:10: note: possible: the size comes from parameter 'new_cap' of vec_grow(), whose values are not known here
 * check-output-end
 */
