/*
 * Array sizes are products: up to 1024 descriptors of 128 bytes is 128 KiB
 * (order 5); up to 255 entries (a u8 count) of 256 bytes is 65280 bytes
 * (order 4).
 */
#include <linux/slab.h>
#include <linux/errno.h>

struct desc {
	u64 addr;
	u64 len;
	u8 pad[112];
};

struct entry {
	u8 raw[256];
};

struct table {
	struct desc *descs;
	struct entry *entries;
};

int table_init(struct table *t, unsigned int n, u8 count)
{
	if (n > 1024)
		return -EINVAL;
	t->descs = kcalloc(n, sizeof(struct desc), GFP_KERNEL); // site: order=0..5 api=kcalloc fallback=none must=ZERO // note: costly-no-fallback
	if (!t->descs)
		return -ENOMEM;
	t->entries = kmalloc_array(count, sizeof(*t->entries), GFP_KERNEL); // site: order=0..4 api=kmalloc_array fallback=none // note: costly-no-fallback
	if (!t->entries) {
		kfree(t->descs);
		return -ENOMEM;
	}
	return 0;
}
/*
 * check-name: products with bounded counts (kcalloc order 0..5, kmalloc_array order 0..4)
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/slab-product.c:28:13: note: 'kcalloc' can request order 0..5 (up to 128 KiB): no fallback [costly-no-fallback]
 * corpus/slab-product.c:28:13: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/slab-product.c:28:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/slab-product.c:28:13: note: possible: the size comes from parameter 'n' of table_init(), whose values are not known here
 * corpus/slab-product.c:31:15: note: 'kmalloc_array' can request order 0..4 (up to 65280 bytes): no fallback [costly-no-fallback]
 * corpus/slab-product.c:31:15: note: gfp GFP_KERNEL
 * corpus/slab-product.c:31:15: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/slab-product.c:31:15: note: possible: the size comes from parameter 'count' of table_init(), whose values are not known here
 * check-output-end
 */
