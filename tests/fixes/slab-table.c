// a test input written for gfpaudit
/*
 * A lookup table sized by the caller: kcalloc can go past
 * KMALLOC_MAX_CACHE_SIZE to the page allocator at a costly order with no
 * fallback (costly-no-fallback); it is freed in one place, so kvcalloc
 * and kvfree fit.  The DMA descriptor buffer must stay kmalloc.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/dma-mapping.h>
#include <linux/errno.h>

struct flow_table {
	u64 *slots;
	unsigned int nr;
	void *desc;
	dma_addr_t desc_dma;
};

int flow_table_init(struct flow_table *t, unsigned int nr)
{
	if (nr > 16384)
		return -EINVAL;
	t->slots = kcalloc(nr, sizeof(*t->slots), GFP_KERNEL);
	if (!t->slots)
		return -ENOMEM;
	t->nr = nr;
	return 0;
}

int flow_table_map(struct flow_table *t, struct device *dev, unsigned int nr)
{
	if (nr > 8192)
		return -EINVAL;
	t->desc = kmalloc(nr * 16, GFP_KERNEL);
	if (!t->desc)
		return -ENOMEM;
	t->desc_dma = dma_map_single(dev, t->desc, nr * 16, DMA_TO_DEVICE);
	return 0;
}

void flow_table_free(struct flow_table *t)
{
	kfree(t->desc);
	kfree(t->slots);
	t->slots = NULL;
}
