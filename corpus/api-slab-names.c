/*
 * kmalloc-family macros reported by the name written: kzalloc, kcalloc
 * (itself a macro over kmalloc_array), kmalloc_node, kzalloc_node.  That
 * kzalloc's own __GFP_ZERO is seen is slab-kzalloc-zero.c.
 */
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct stats {
	void *a;
	void *b;
	void *c;
	void *d;
};

int stats_init(struct stats *s, int nid)
{
	s->a = kzalloc(SZ_32K, GFP_KERNEL); // ok // site: order=3..3 api=kzalloc
	s->b = kcalloc(4, SZ_16K, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 api=kcalloc must=ZERO
	if (!s->a || !s->b)
		return -ENOMEM;
	s->c = kmalloc_node(SZ_64K, GFP_KERNEL, nid); // warn: costly-no-fallback // site: order=4..4 api=kmalloc_node
	if (!s->c)
		return -ENOMEM;
	s->d = kzalloc_node(SZ_16K, GFP_KERNEL, nid); // ok // site: order=2..2 api=kzalloc_node must=ZERO
	if (!s->d)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: kmalloc-family macros reported by the name as written
 *
 * check-output-start
 * corpus/api-slab-names.c:20:9: warning: 'kcalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/api-slab-names.c:20:9: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/api-slab-names.c:20:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/api-slab-names.c:20:9: note: proven: every path asks for more than order 3
 * corpus/api-slab-names.c:23:9: warning: 'kmalloc_node' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/api-slab-names.c:23:9: note: gfp GFP_KERNEL
 * corpus/api-slab-names.c:23:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/api-slab-names.c:23:9: note: proven: every path asks for more than order 3
 * check-output-end
 */
