/* gfpaudit test fixture (t68-facts-contig): buffers handed to xfer.c's helpers. */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include "xfer.h"

#define OSD_BYTES	(64 * 1024)

/* the buffer goes to cam_xfer(), which DMA-maps it: physical; the
 * function is void and goes on without it (feature-off) */
void cam_clear_osd(struct cam_dev *c)
{
	void *buf = kzalloc(OSD_BYTES, GFP_KERNEL);

	if (!buf)
		return;
	cam_xfer(c, buf, OSD_BYTES);
	kfree(buf);
}

/* the buffer goes to cam_log(), which only writes it: not physical */
void cam_clear_log(struct cam_dev *c)
{
	void *buf = kzalloc(OSD_BYTES, GFP_KERNEL);

	if (!buf)
		return;
	cam_log(c, buf, OSD_BYTES);
	kfree(buf);
}
