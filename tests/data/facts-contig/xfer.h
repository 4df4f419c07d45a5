/* gfpaudit test fixture (t68-facts-contig): the transfer helpers of xfer.c. */
#include <linux/types.h>

struct cam_dev {
	struct device *dev;
	void *osd;
	void *scratch;
	u32 *stats;
};

int cam_xfer(struct cam_dev *c, void *buf, size_t len);
void cam_log(struct cam_dev *c, void *buf, size_t len);
