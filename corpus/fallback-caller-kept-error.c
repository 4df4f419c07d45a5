/*
 * Each ring's setup returns -ENOMEM; the caller logs a failure and goes on
 * with the other rings, but keeps the error and returns it at the end: the
 * setup fails, no feature is turned off.  A second helper's caller logs
 * and overwrites the result with the next call's: that one is optional.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/dma-mapping.h>

#define RING_BYTES	(128 * 1024)
#define NRINGS		4

struct ring_dev {
	struct device *dev;
	void *ring[NRINGS];
	void *stats;
	dma_addr_t stats_dma;
	void *trace;
};

static int ring_setup(struct ring_dev *d, int i)
{
	d->ring[i] = kmalloc(RING_BYTES, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 fallback=none
	if (!d->ring[i])
		return -ENOMEM;
	return 0;
}

static int stats_setup(struct ring_dev *d)
{
	d->stats = kmalloc(RING_BYTES, GFP_KERNEL); // note: costly-no-noretry // site: order=5..5 fallback=caller-feature-off fbat=54
	if (!d->stats)
		return -ENOMEM;
	/* the device writes its counters there */
	d->stats_dma = dma_map_single(d->dev, d->stats, RING_BYTES, DMA_FROM_DEVICE);
	return 0;
}

static int trace_setup(struct ring_dev *d)
{
	d->trace = kzalloc(64, GFP_KERNEL);
	return d->trace ? 0 : -ENOMEM;
}

int ring_init(struct ring_dev *d)
{
	int i, ret = 0, lastfail = 0;

	lastfail = stats_setup(d);
	if (lastfail)
		pr_warn("no stats\n");
	lastfail = trace_setup(d);

	for (i = 0; i < NRINGS; i++) {
		lastfail = ring_setup(d, i);
		if (lastfail)
			pr_err("ring %d failed\n", i);
	}
	if (lastfail)
		ret = lastfail;
	return ret;
}
/*
 * check-name: a caller that logs a failure but keeps the error to return later is no feature-off
 *
 * check-output-start
 * corpus/fallback-caller-kept-error.c:26:15: warning: 'kmalloc' can request order 5 (128 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-caller-kept-error.c:26:15: note: gfp GFP_KERNEL
 * corpus/fallback-caller-kept-error.c:26:15: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-kept-error.c:26:15: note: proven: every path asks for more than order 3
 * check-output-end
 */
