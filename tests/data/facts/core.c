/* A controller core: each controller carries its driver's private area,
 * whose size only the drivers (setup.c) know. */
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/vmalloc.h>
#include "cfg.h"

struct ctl {
	const void *ops;
	int ns;
	void *scratch;
	unsigned long priv[];
};

struct ctl *ctl_alloc_ns(const void *ops, size_t priv_size, int ns)
{
	/* setup.c passes sizeof(struct big_priv), 160 KiB, through the
	 * inline ctl_alloc(), and an unknown size elsewhere */
	struct ctl *c = kzalloc(sizeof(*c) + priv_size, GFP_KERNEL);

	if (!c)
		return NULL;
	c->ops = ops;
	c->ns = ns;
	return c;
}

int ctl_scratch(struct ctl *c, size_t len)
{
	/* callers pass 4096 and an unknown length: a small constant is no
	 * witness for the unknown one */
	c->scratch = kmalloc(len, GFP_KERNEL);
	return c->scratch ? 0 : -ENOMEM;
}

int ctl_table_alloc(struct ctl *c, size_t len)
{
	/* setup.c passes 1 MiB and an unknown length: the witnessed path
	 * takes vzalloc; what reaches kzalloc is not known */
	if (len > 65536)
		c->scratch = vzalloc(len);
	else
		c->scratch = kzalloc(len, GFP_KERNEL);
	return c->scratch ? 0 : -ENOMEM;
}
