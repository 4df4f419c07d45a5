/* Stores into struct ring_cfg's fields; calls into alloc.c. */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/errno.h>
#include "cfg.h"

static const struct blob_desc blob_tbl[] = {
	{ .len = 4096 },
	{ .len = 65536 },
};

void ring_cfg_init(struct ring_cfg *c, int which)
{
	c->nr_desc = 8;
	c->blob = (void *)&blob_tbl[which & 1];
}

long ring_cfg_ioctl(struct ring_cfg *c, u16 __user *up)
{
	u16 n;

	if (get_user(n, up))
		return -EFAULT;
	c->nr_stats = n;
	return ring_stats_resize(c, n);
}

void *setup_scratch(void)
{
	return kmalloc(64, GFP_KERNEL);
}

struct big_priv {
	u64 counters[20480]; /* 160 KiB of per-opcode statistics */
};

struct ctl *setup_big_ctl(void)
{
	return ctl_alloc(blob_tbl, sizeof(struct big_priv));
}

struct ctl *setup_any_ctl(size_t priv)
{
	return ctl_alloc(blob_tbl, priv);
}

int setup_scratch_ctl(struct ctl *c, size_t len)
{
	if (ctl_scratch(c, 4096))
		return -ENOMEM;
	return ctl_scratch(c, len);
}

int setup_table_ctl(struct ctl *c, size_t len)
{
	if (ctl_table_alloc(c, 1 << 20))
		return -ENOMEM;
	return ctl_table_alloc(c, len);
}
