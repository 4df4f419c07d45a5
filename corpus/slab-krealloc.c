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
 * corpus/slab-krealloc.c:21:10: note: 'krealloc' can request order 0..5 (size 0..131072); gfp must __GFP_IO|__GFP_FS|__GFP_DIRECT_RECLAIM|__GFP_KSWAPD_RECLAIM; fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation; possible: the size comes from parameter 'new_cap' of vec_grow(), whose values are not known here [costly-no-fallback]
 * check-output-end
 */
