/*
 * A failed allocation tried once more with the same size (a left-over of
 * a node-local attempt followed by any node) asks the allocator for the
 * same order again: no smaller request, so no fallback (a smaller retry
 * is one: fallback-shape-other-branch.c).
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/device.h>
#include <linux/errno.h>

#define RING_ENTRIES	512
#define ENTRY_SIZE	128

struct bounce_ring {
	void *base;
	unsigned int size;
};

int bounce_ring_init(struct device *dev, struct bounce_ring *r)
{
	size_t size = (size_t)RING_ENTRIES * ENTRY_SIZE;

	r->base = devm_kzalloc(dev, size, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 fallback=none
	if (!r->base)
		r->base = devm_kzalloc(dev, size, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 fallback=none
	if (!r->base)
		return -ENOMEM;
	r->size = size;
	return 0;
}

int bounce_ring_init_twice(struct bounce_ring *r)
{
	r->base = kmalloc_array(RING_ENTRIES, ENTRY_SIZE, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 fallback=none
	if (!r->base)
		r->base = kmalloc_array(RING_ENTRIES,  ENTRY_SIZE, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 fallback=none
	if (!r->base)
		return -ENOMEM;
	r->size = RING_ENTRIES * ENTRY_SIZE;
	return 0;
}
/*
 * check-name: the same size tried again is no fallback
 *
 * check-output-start
 * corpus/fallback-same-size-retry.c:24:12: warning: 'devm_kzalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-same-size-retry.c:24:12: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/fallback-same-size-retry.c:24:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-same-size-retry.c:24:12: note: proven: every path asks for more than order 3
 * corpus/fallback-same-size-retry.c:26:13: warning: 'devm_kzalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-same-size-retry.c:26:13: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/fallback-same-size-retry.c:26:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-same-size-retry.c:26:13: note: proven: every path asks for more than order 3
 * corpus/fallback-same-size-retry.c:35:12: warning: 'kmalloc_array' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-same-size-retry.c:35:12: note: gfp GFP_KERNEL
 * corpus/fallback-same-size-retry.c:35:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-same-size-retry.c:35:12: note: proven: every path asks for more than order 3
 * corpus/fallback-same-size-retry.c:37:13: warning: 'kmalloc_array' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-same-size-retry.c:37:13: note: gfp GFP_KERNEL
 * corpus/fallback-same-size-retry.c:37:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-same-size-retry.c:37:13: note: proven: every path asks for more than order 3
 * check-output-end
 */
