/*
 * A void function whose failure path logs and returns: its callers cannot
 * see the failure and go on without the buffer (a degraded mode).  When
 * the memory must be physically contiguous (DMA-mapped) that degraded mode
 * is the fallback: the attempt is opportunistic and should not stall
 * (costly-no-noretry).  When vmalloc memory would serve, kvmalloc is the
 * fix and costly-no-fallback stays; a void function that records an errno
 * hands its failure on.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/dma-mapping.h>
#include <linux/printk.h>
#include <linux/errno.h>

#define BOUNCE_BYTES 65536

struct mmc_like {
	struct device *dev;
	void *bounce;
	dma_addr_t bounce_dma;
	unsigned int max_segs;
	u64 *sa_table;
	int err;
};

static void host_setup_bounce(struct mmc_like *h)
{
	h->bounce = kmalloc(BOUNCE_BYTES, GFP_KERNEL); // note: costly-no-noretry // site: order=4..4 fallback=feature-off fbat=32 contig=physical
	if (!h->bounce) {
		pr_err("no bounce buffer, going on with single segments\n");
		return;
	}
	h->bounce_dma = dma_map_single(h->dev, h->bounce, BOUNCE_BYTES, DMA_BIDIRECTIONAL);
	h->max_segs = 128;
}

static void host_setup_table(struct mmc_like *h)
{
	h->sa_table = kcalloc(8192, sizeof(u64), GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 fallback=none contig=virtual
	if (!h->sa_table)
		return;
	h->sa_table[0] = 1;
}

static void host_setup_bounce_err(struct mmc_like *h)
{
	h->bounce = kmalloc(BOUNCE_BYTES, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 fallback=none contig=physical
	if (!h->bounce) {
		h->err = -ENOMEM;
		return;
	}
	h->bounce_dma = dma_map_single(h->dev, h->bounce, BOUNCE_BYTES, DMA_BIDIRECTIONAL);
}

void host_probe(struct mmc_like *h)
{
	h->max_segs = 1;
	host_setup_bounce(h);
	host_setup_table(h);
	host_setup_bounce_err(h);
}
/*
 * check-name: a void function going on without DMA memory: feature-off
 *
 * check-output-start
 * corpus/fallback-feature-off-void.c:40:16: warning: 'kcalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-feature-off-void.c:40:16: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/fallback-feature-off-void.c:40:16: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-feature-off-void.c:40:16: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/fallback-feature-off-void.c:40:16: note: proven: every path asks for more than order 3
 * corpus/fallback-feature-off-void.c:48:14: warning: 'kmalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-feature-off-void.c:48:14: note: gfp GFP_KERNEL
 * corpus/fallback-feature-off-void.c:48:14: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-feature-off-void.c:48:14: note: proven: every path asks for more than order 3
 * check-output-end
 */
