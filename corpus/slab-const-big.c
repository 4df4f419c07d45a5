/*
 * Constant kmalloc sizes above KMALLOC_MAX_CACHE_SIZE (8 KiB): 64 KiB and a
 * 40000-byte record are order 4.  A small record stays in the slab caches.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct big_table {
	u32 count;
	u32 slots[9999];
};

struct small_hdr {
	u32 magic;
	u32 version;
};

struct state {
	void *scratch;
	struct big_table *tbl;
	struct small_hdr *hdr;
	struct big_table *copy;
};

int state_init(struct state *s, const struct big_table *tmpl)
{
	s->scratch = kmalloc(SZ_64K, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 api=kmalloc fallback=none
	if (!s->scratch)
		return -ENOMEM;
	s->tbl = kmalloc(sizeof(*s->tbl), GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 api=kmalloc fallback=none
	if (!s->tbl)
		goto free_scratch;
	s->hdr = kzalloc(sizeof(*s->hdr), GFP_KERNEL);
	if (!s->hdr)
		goto free_tbl;
	s->copy = kmemdup(tmpl, sizeof(*tmpl), GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 api=kmemdup fallback=none
	if (!s->copy)
		goto free_hdr;
	return 0;

free_hdr:
	kfree(s->hdr);
free_tbl:
	kfree(s->tbl);
free_scratch:
	kfree(s->scratch);
	return -ENOMEM;
}
/*
 * check-name: constant kmalloc sizes above KMALLOC_MAX_CACHE_SIZE (a constant, sizeof, kmemdup)
 *
 * check-output-start
 * corpus/slab-const-big.c:29:15: warning: 'kmalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/slab-const-big.c:29:15: note: gfp GFP_KERNEL
 * corpus/slab-const-big.c:29:15: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/slab-const-big.c:29:15: note: proven: every path asks for more than order 3
 * corpus/slab-const-big.c:32:11: warning: 'kmalloc' can request order 4 (40000 bytes): no fallback [costly-no-fallback]
 * corpus/slab-const-big.c:32:11: note: gfp GFP_KERNEL
 * corpus/slab-const-big.c:32:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/slab-const-big.c:32:11: note: proven: every path asks for more than order 3
 * corpus/slab-const-big.c:38:12: warning: 'kmemdup' can request order 4 (40000 bytes): no fallback [costly-no-fallback]
 * corpus/slab-const-big.c:38:12: note: gfp GFP_KERNEL
 * corpus/slab-const-big.c:38:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/slab-const-big.c:38:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
