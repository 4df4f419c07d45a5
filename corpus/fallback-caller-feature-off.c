/*
 * An optional 128 KiB history buffer the device writes by DMA: its setup
 * returns -ENOMEM, and the only caller just leaves the history off.  The
 * fallback is in the caller (physically contiguous memory: kvmalloc is no
 * fix, so going on without it is the designed degraded mode).
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/dma-mapping.h>

#define HIST_BYTES	(128 * 1024)

struct hist_dev {
	struct device *dev;
	void *hist;
	dma_addr_t hist_dma;
	bool history;
};

void hist_note(struct hist_dev *d);

static int hist_enable(struct hist_dev *d)
{
	d->hist = kmalloc(HIST_BYTES, GFP_KERNEL); // note: costly-no-noretry // site: order=5..5 fallback=caller-feature-off fbat=37
	if (!d->hist)
		return -ENOMEM;
	d->hist_dma = dma_map_single(d->dev, d->hist, HIST_BYTES, DMA_FROM_DEVICE);
	d->history = true;
	return 0;
}

int hist_probe(struct hist_dev *d)
{
	d->history = false;
	if (hist_enable(d))
		hist_note(d);
	return 0;
}
/*
 * check-name: a caller in the file goes on without the buffer (caller-feature-off)
 *
 * check-output-start
 * check-output-end
 */
