/* Sizes from a helper asked with different arguments, and again with the
 * same ones: only the arguments tell the answers apart. */
#include <linux/slab.h>
#include <linux/errno.h>
#include "m.h"

static unsigned long m_scaled(unsigned long n, unsigned int shift)
{
	return n << shift;
}

int m_grow(struct m_cfg *c, void **a, void **b, int rounds)
{
	int i;

	for (i = 0; i < rounds; i++) {
		a[i] = kmalloc(m_scaled(4096, 3), GFP_KERNEL);
		if (!a[i])
			return -ENOMEM;
	}
	*b = kmalloc(m_scaled(4096, 4), GFP_KERNEL);
	if (!*b)
		return -ENOMEM;
	c->ring = kmalloc_array(c->depth, 64, GFP_KERNEL);
	return c->ring ? 0 : -ENOMEM;
}
