// a test input written for gfpaudit
/*
 * The kvmalloc family by API: memdup_user -> vmemdup_user with the frees
 * of the struct field the copy is stored in; krealloc -> kvrealloc (6.12
 * arguments).  Refused, with the reason in "fix_declined": a buffer
 * resized with krealloc elsewhere, an atomic mask, a devm_ allocation, a
 * field whose frees live in another file, and DMA-mapped memory.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/dma-mapping.h>
#include <linux/device.h>
#include <linux/errno.h>

struct rule_ctx {
	void *rules;
	void *blob;
	void *hw;
	void *ext;
	void *ring;
	dma_addr_t ring_dma;
	void *stats;
};

int rule_ctx_load(struct rule_ctx *c, const void __user *ubuf, size_t len)
{
	void *buf;

	if (len > (1 << 20))
		return -EINVAL;
	buf = memdup_user(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	kfree(c->rules);
	c->rules = buf;
	return 0;
}

int rule_ctx_seed(struct rule_ctx *c, const void *src)
{
	c->blob = kmemdup(src, 100000, GFP_KERNEL);
	return c->blob ? 0 : -ENOMEM;
}

int rule_ctx_grow(struct rule_ctx *c, u32 n)
{
	void *p;

	if (n > 65536)
		return -EINVAL;
	p = krealloc(c->blob, n * 16, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	c->blob = p;
	return 0;
}

int rule_ctx_irq(struct rule_ctx *c)
{
	c->hw = kzalloc(1 << 16, GFP_ATOMIC);
	return c->hw ? 0 : -ENOMEM;
}

int rule_ctx_dev(struct rule_ctx *c, struct device *dev)
{
	c->ext = devm_kzalloc(dev, 1 << 17, GFP_KERNEL);
	return c->ext ? 0 : -ENOMEM;
}

int rule_ctx_ring(struct rule_ctx *c, struct device *dev)
{
	c->ring = kmalloc(1 << 16, GFP_KERNEL);
	if (!c->ring)
		return -ENOMEM;
	c->ring_dma = dma_map_single(dev, c->ring, 1 << 16, DMA_TO_DEVICE);
	return 0;
}

/* freed by the caller's teardown in another file */
int rule_ctx_stats(struct rule_ctx *c)
{
	c->stats = kzalloc(1 << 16, GFP_KERNEL);
	return c->stats ? 0 : -ENOMEM;
}

void rule_ctx_free(struct rule_ctx *c)
{
	kfree(c->rules);
	kfree(c->blob);
	kfree(c->hw);
}

int rule_ctx_check(const void *src)
{
	void *copy = kmemdup(src, 1 << 16, GFP_KERNEL);
	int ret;

	if (!copy)
		return -ENOMEM;
	ret = memcmp(copy, src, 16);
	kfree(copy);
	return ret;
}
