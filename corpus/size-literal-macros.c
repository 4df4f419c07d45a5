/*
 * Sizes and orders spelled with register-field macros: masks, field packing
 * and compile-time checks built from literals and operators alone (the
 * GENMASK / FIELD_PREP / BUILD_BUG_ON_ZERO shapes).  The model keeps each
 * such expression as one constant leaf; its value must stay what the C
 * expression says: the cast truncates, the check adds 0, a guard against a
 * mask bounds the size.
 */
#include <linux/slab.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

#define RB_MASK(h, l)		(((~0UL) - (1UL << (l)) + 1) & (~0UL >> (64 - 1 - (h))))
#define RB_PREP(m, v)		(((unsigned long)(v) << 4) & (m))
#define RB_CHECK_ZERO(e)	((int)(sizeof(struct { int:(-!!(e)); })))
#define RB_RING_ENTRIES		(RB_MASK(13, 0) + 1)

struct rb_dev {
	u32 *ring;
	void *ctl;
	void *trunc;
	void *req;
	struct page *pages;
};

int rb_setup(struct rb_dev *d, unsigned long len)
{
	unsigned int order;

	d->ring = kmalloc(RB_RING_ENTRIES * sizeof(u32) + RB_CHECK_ZERO(4 > 8), GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 api=kmalloc fallback=none
	if (!d->ring)
		return -ENOMEM;
	d->ctl = kmalloc(RB_PREP(RB_MASK(11, 4), 3) + RB_CHECK_ZERO(1 > 2), GFP_KERNEL);
	if (!d->ctl)
		return -ENOMEM;
	d->trunc = kmalloc((u16)(RB_MASK(16, 15) | 0x18000), GFP_KERNEL); // site: order=3..3 api=kmalloc
	if (!d->trunc)
		return -ENOMEM;
	if (len > RB_MASK(11, 0) + 1)
		return -EINVAL;
	d->req = kmalloc(len, GFP_KERNEL);
	if (!d->req)
		return -ENOMEM;
	order = (RB_MASK(2, 0) & 0x5) + ('b' - 'a') * 0;
	d->pages = alloc_pages(GFP_KERNEL, order); // warn: costly-no-fallback // site: order=5..5 api=alloc_pages fallback=none
	if (!d->pages)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: register-field macros (literal-only expressions) keep their values
 *
 * check-output-start
 * corpus/size-literal-macros.c:31:12: warning: 'kmalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/size-literal-macros.c:31:12: note: gfp GFP_KERNEL
 * corpus/size-literal-macros.c:31:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/size-literal-macros.c:31:12: note: proven: every path asks for more than order 3
 * corpus/size-literal-macros.c:46:13: warning: 'alloc_pages' can request order 5: no fallback [costly-no-fallback]
 * corpus/size-literal-macros.c:46:13: note: gfp GFP_KERNEL
 * corpus/size-literal-macros.c:46:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/size-literal-macros.c:46:13: note: proven: every path asks for more than order 3
 * check-output-end
 */
