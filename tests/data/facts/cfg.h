/* Shared by the fact-base cases: a device context one file sets up and
 * another allocates from. */
#include <linux/types.h>

struct ring_cfg {
	u16 nr_desc;     /* set to a constant by ring_cfg_init() in setup.c */
	u16 nr_stats;    /* set from a user's ioctl in setup.c */
	void *desc, *blob, *stats;
};

/* a static table of these in setup.c: 4 KiB and 64 KiB */
struct blob_desc {
	u32 len;
};

struct ring_cfg *ring_cfg_get(void);
int ring_stats_resize(struct ring_cfg *c, size_t n);

/* A controller core in core.c allocates a controller with its driver's
 * private area; drivers call the inline wrapper, as devlink_alloc() over
 * devlink_alloc_ns(). */
struct ctl;
struct ctl *ctl_alloc_ns(const void *ops, size_t priv_size, int ns);
static inline struct ctl *ctl_alloc(const void *ops, size_t priv_size)
{
	return ctl_alloc_ns(ops, priv_size, 0);
}
int ctl_scratch(struct ctl *c, size_t len);
int ctl_table_alloc(struct ctl *c, size_t len);
