#ifndef _KMODEL_LINUX_DEVICE_H
#define _KMODEL_LINUX_DEVICE_H
#include <linux/types.h>
#include <linux/gfp.h>

struct device;

void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp) __attribute__((alloc_size(2)));
static inline void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp)
{
	return devm_kmalloc(dev, size, gfp | __GFP_ZERO);
}
void devm_kfree(struct device *dev, const void *p);

#endif
