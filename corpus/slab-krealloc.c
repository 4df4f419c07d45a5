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
	items = krealloc(v->items, new_cap * sizeof(u64), GFP_KERNEL); // warn: costly-no-fallback // site: order=0..5 api=krealloc fallback=none
	if (!items)
		return -ENOMEM;
	v->items = items;
	v->cap = new_cap;
	return 0;
}
/*
 * check-name: krealloc to a guarded capacity (order 0..5)
 *
 * check-output-start
 * check-output-end
 */
