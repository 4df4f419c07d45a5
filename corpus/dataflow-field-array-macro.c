/*
 * A table of buffer descriptors filled through a macro, one constant
 * index at a time (t[id].size = s), then a buffer allocated with one
 * element's size.  The store in the same function decides the size, not
 * the join of every store to the field (another table is 128 KiB): the
 * ECC buffer is 1 KiB, no site.  The macro's other field is its own path
 * (a 64 KiB alignment is order 4, proven).  A store on some paths only,
 * or a call given the table in between, leaves the joined value.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct blk_desc {
	unsigned long size;
	unsigned int align;
};

enum { BLK_PPTABLE, BLK_METRICS, BLK_ECC, BLK_COUNT };

struct blk_ctx {
	struct blk_desc tables[BLK_COUNT];
	void *ecc;
	void *metrics;
};

#define BLK_INIT(t, id, s, a)		\
	do {				\
		t[id].size = s;		\
		t[id].align = a;	\
	} while (0)

void blk_describe(struct blk_desc *tables);

int blk_tables_init(struct blk_ctx *c)
{
	struct blk_desc *tables = c->tables;

	BLK_INIT(tables, BLK_PPTABLE, SZ_128K, PAGE_SIZE);
	BLK_INIT(tables, BLK_ECC, 1024, SZ_64K);
	c->metrics = kzalloc(SZ_1K, GFP_KERNEL);
	if (!c->metrics)
		return -ENOMEM;
	c->ecc = kzalloc(tables[BLK_ECC].size, GFP_KERNEL);
	if (!c->ecc)
		return -ENOMEM;
	return 0;
}

int blk_align_buf(struct blk_ctx *c)
{
	struct blk_desc *tables = c->tables;

	BLK_INIT(tables, BLK_METRICS, 256, SZ_64K);
	c->metrics = kmalloc(tables[BLK_METRICS].align, GFP_KERNEL); // site: order=4..4 api=kmalloc // warn: costly-no-fallback
	if (!c->metrics)
		return -ENOMEM;
	return 0;
}

int blk_tables_some(struct blk_ctx *c, bool small)
{
	struct blk_desc *tables = c->tables;

	if (small)
		BLK_INIT(tables, BLK_ECC, 512, PAGE_SIZE);
	c->ecc = kzalloc(tables[BLK_ECC].size, GFP_KERNEL); // site: order=0..5 api=kzalloc // note: costly-no-fallback
	if (!c->ecc)
		return -ENOMEM;
	return 0;
}

int blk_tables_call(struct blk_ctx *c)
{
	struct blk_desc *tables = c->tables;

	BLK_INIT(tables, BLK_ECC, 512, PAGE_SIZE);
	blk_describe(tables);
	c->ecc = kzalloc(tables[BLK_ECC].size, GFP_KERNEL); // site: order=0..5 api=kzalloc // note: costly-no-fallback
	if (!c->ecc)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: a constant element's field stored through a macro, then read
 * check-command: gfpaudit audit --sites --severity note $file
 *
 * check-output-start
 * corpus/dataflow-field-array-macro.c:57:15: site: 'kmalloc' in 'blk_align_buf': order 4, size 65536, gfp GFP_KERNEL, fallback none
 * corpus/dataflow-field-array-macro.c:69:11: site: 'kzalloc' in 'blk_tables_some': orders 0..5, size 256..131072, gfp GFP_KERNEL | __GFP_ZERO, fallback none
 * corpus/dataflow-field-array-macro.c:81:11: site: 'kzalloc' in 'blk_tables_call': orders 0..5, size 256..131072, gfp GFP_KERNEL | __GFP_ZERO, fallback none
 * corpus/dataflow-field-array-macro.c:57:15: warning: 'kmalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/dataflow-field-array-macro.c:57:15: note: gfp GFP_KERNEL
 * corpus/dataflow-field-array-macro.c:57:15: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/dataflow-field-array-macro.c:57:15: note: proven: every path asks for more than order 3
 * corpus/dataflow-field-array-macro.c:69:11: note: 'kzalloc' can request order 0..5 (256 bytes to 128 KiB): no fallback [costly-no-fallback]
 * corpus/dataflow-field-array-macro.c:69:11: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/dataflow-field-array-macro.c:69:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/dataflow-field-array-macro.c:69:11: note: likely: constants give the size, field:blk_desc.size (5 stores across the tree, e.g. corpus/dataflow-field-array-macro.c:41)
 * corpus/dataflow-field-array-macro.c:81:11: note: 'kzalloc' can request order 0..5 (256 bytes to 128 KiB): no fallback [costly-no-fallback]
 * corpus/dataflow-field-array-macro.c:81:11: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/dataflow-field-array-macro.c:81:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/dataflow-field-array-macro.c:81:11: note: likely: constants give the size, field:blk_desc.size (5 stores across the tree, e.g. corpus/dataflow-field-array-macro.c:41)
 * check-output-end
 */
