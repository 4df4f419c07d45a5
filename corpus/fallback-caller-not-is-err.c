/*
 * A table helper returns ERR_PTR(-ENOMEM) when its 128 KiB buffer fails.
 * One caller tests `!IS_ERR(t)`: its then-branch is the success, and the
 * failure (the else branch) is returned: no fallback.  Another caller tests
 * `IS_ERR(t)` and goes on without the table: that one is optional.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/dma-mapping.h>

#define TBL_BYTES	(128 * 1024)

struct tbl {
	struct device *dev;
	void *buf;
	dma_addr_t dma;
};

struct tbl_dev {
	struct tbl *main;
	struct tbl *shadow;
	int have_shadow;
};

static struct tbl *tbl_new(struct tbl *t)
{
	t->buf = kmalloc(TBL_BYTES, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 fallback=none
	if (!t->buf)
		return ERR_PTR(-ENOMEM);
	return t;
}

static struct tbl *shadow_new(struct tbl *t)
{
	t->buf = kmalloc(TBL_BYTES, GFP_KERNEL); // note: costly-no-noretry // site: order=5..5 fallback=caller-feature-off fbat=56
	if (!t->buf)
		return ERR_PTR(-ENOMEM);
	/* the device reads the shadow table */
	t->dma = dma_map_single(t->dev, t->buf, TBL_BYTES, DMA_TO_DEVICE);
	return t;
}

int tbl_dev_init(struct tbl_dev *d, struct tbl *m, struct tbl *s)
{
	struct tbl *t, *sh;

	t = tbl_new(m);
	if (!IS_ERR(t)) {
		d->main = t;
	} else {
		return PTR_ERR(t);
	}
	sh = shadow_new(s);
	if (IS_ERR(sh)) {
		d->have_shadow = 0;
	} else {
		d->shadow = sh;
		d->have_shadow = 1;
	}
	return 0;
}
/*
 * check-name: `!IS_ERR(t)` tests for success: its else branch is the failure
 *
 * check-output-start
 * corpus/fallback-caller-not-is-err.c:29:11: warning: 'kmalloc' can request order 5 (128 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-caller-not-is-err.c:29:11: note: gfp GFP_KERNEL
 * corpus/fallback-caller-not-is-err.c:29:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-not-is-err.c:29:11: note: proven: every path asks for more than order 3
 * check-output-end
 */
