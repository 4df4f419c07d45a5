/*
 * kzalloc() adds __GFP_ZERO inside its static inline kzalloc_noprof(), not
 * in the macro: the request still carries it.
 */
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct log_area {
	void *buf;
};

int log_area_init(struct log_area *la)
{
	la->buf = kzalloc(SZ_64K, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 api=kzalloc must=ZERO|DIRECT_RECLAIM
	if (!la->buf)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: kzalloc's __GFP_ZERO (added inside kzalloc_noprof) is in the site's mask
 *
 * check-output-start
 * corpus/slab-kzalloc-zero.c:15:12: warning: 'kzalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/slab-kzalloc-zero.c:15:12: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/slab-kzalloc-zero.c:15:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/slab-kzalloc-zero.c:15:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
