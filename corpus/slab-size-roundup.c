/*
 * kmalloc_size_roundup() asks what the slab will really hand out: at least
 * the size asked, at most the next power of two.  The bucket of a 40000-byte
 * table is 64 KiB (order 4: proven); a guarded count stays bounded through
 * it (order 0..5); a 100-byte header stays in the slab caches.
 */
#include <linux/slab.h>
#include <linux/overflow.h>
#include <linux/errno.h>

#define HIST_MAX	12000

struct hist {
	u64 *ent;
	unsigned int cnt;
};

void *big_table(void)
{
	return kmalloc(kmalloc_size_roundup(40000), GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 conf=proven
}

void *small_header(void)
{
	return kzalloc(kmalloc_size_roundup(100), GFP_KERNEL);
}

int hist_grow(struct hist *h, unsigned int want)
{
	size_t sz;
	u64 *p;

	if (want > HIST_MAX)
		return -E2BIG;
	sz = kmalloc_size_roundup(size_mul(want, sizeof(u64)));
	p = krealloc(h->ent, sz, GFP_KERNEL); // note: costly-no-fallback // site: order=0..5 conf=possible
	if (!p)
		return -ENOMEM;
	h->ent = p;
	h->cnt = sz / sizeof(u64);
	return 0;
}
/*
 * check-name: kmalloc_size_roundup() of a size: at least it, at most its next power of two
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/slab-size-roundup.c:20:9: warning: 'kmalloc' can request order 4 (40000 bytes to 64 KiB): no fallback [costly-no-fallback]
 * corpus/slab-size-roundup.c:20:9: note: gfp GFP_KERNEL
 * corpus/slab-size-roundup.c:20:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/slab-size-roundup.c:20:9: note: proven: every path asks for more than order 3
 * corpus/slab-size-roundup.c:36:6: note: 'krealloc' can request order 0..5 (up to 128 KiB): no fallback [costly-no-fallback]
 * corpus/slab-size-roundup.c:36:6: note: gfp GFP_KERNEL
 * corpus/slab-size-roundup.c:36:6: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/slab-size-roundup.c:36:6: note: possible: the size comes from parameter 'want' of hist_grow(), whose values are not known here
 * check-output-end
 */
