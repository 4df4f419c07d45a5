/* gfpaudit test fixture (t68-facts-contig): exported helpers, one DMA-maps its buffer. */
#include <linux/dma-mapping.h>
#include <linux/string.h>
#include <linux/errno.h>
#include "xfer.h"

int cam_xfer(struct cam_dev *c, void *buf, size_t len)
{
	dma_addr_t a = dma_map_single(c->dev, buf, len, DMA_TO_DEVICE);

	if (dma_mapping_error(c->dev, a))
		return -EIO;
	dma_unmap_single(c->dev, a, len, DMA_TO_DEVICE);
	return 0;
}

void cam_log(struct cam_dev *c, void *buf, size_t len)
{
	memset(buf, 0, len);
}
