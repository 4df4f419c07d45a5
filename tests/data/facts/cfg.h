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
