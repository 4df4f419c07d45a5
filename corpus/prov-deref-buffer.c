/*
 * A small buffer from kmalloc() is filled by a device query, then a
 * length is read out of it: through le16_to_cpup() (a little-endian
 * device field) or through a plain cast and dereference (memory nothing
 * here describes).  The pointer came from a call with constant
 * arguments; what it points to is not made of those constants, so the
 * size is no proven costly order, only a note.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/types.h>
#include <linux/errno.h>
#include <asm/byteorder.h>

struct xu_info {
	u16 size;
};

struct xu_ctrl {
	struct xu_info info;
	u8 *data;
};

int xu_query(void *dev, u8 req, u8 *buf, u16 len);

int xu_fill_info(void *dev, struct xu_ctrl *ctrl)
{
	u8 *buf = kmalloc(2, GFP_KERNEL);
	int ret;

	if (!buf)
		return -ENOMEM;
	ret = xu_query(dev, 0x85, buf, 2);
	if (ret < 0)
		goto out;
	ctrl->info.size = le16_to_cpup((__le16 *)buf);
	ctrl->data = kzalloc(ctrl->info.size * 6 + 1, GFP_KERNEL); // site: order=0..7 api=kzalloc // note: costly-no-fallback
	if (!ctrl->data)
		ret = -ENOMEM;
out:
	kfree(buf);
	return ret;
}

int xu_read_len(void *dev, struct xu_ctrl *ctrl)
{
	u8 *buf = kmalloc(2, GFP_KERNEL);
	u16 len;
	int ret;

	if (!buf)
		return -ENOMEM;
	ret = xu_query(dev, 0x86, buf, 2);
	if (ret < 0)
		goto out;
	len = *(u16 *)buf;
	ctrl->data = kmalloc(len * 4, GFP_KERNEL); // site: order=0..6 api=kmalloc // note: costly-no-fallback
	if (!ctrl->data)
		ret = -ENOMEM;
out:
	kfree(buf);
	return ret;
}
/*
 * check-name: a length read from a buffer a device filled is not a constant
 * check-command: gfpaudit audit --sites --severity note $file
 *
 * check-output-start
 * corpus/prov-deref-buffer.c:37:15: site: 'kzalloc' in 'xu_fill_info': orders 0..7, size 1..393211, gfp GFP_KERNEL | __GFP_ZERO, fallback none
 * corpus/prov-deref-buffer.c:57:15: site: 'kmalloc' in 'xu_read_len': orders 0..6, size 0..262140, gfp GFP_KERNEL, fallback none
 * corpus/prov-deref-buffer.c:37:15: note: 'kzalloc' can request order 0..7 (1 byte to 393211 bytes): no fallback [costly-no-fallback]
 * corpus/prov-deref-buffer.c:37:15: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/prov-deref-buffer.c:37:15: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-deref-buffer.c:37:15: note: possible: the size comes from a little-endian device field (line 36), which the device or the on-disk data decides (usually small)
 * corpus/prov-deref-buffer.c:57:15: note: 'kmalloc' can request order 0..6 (up to 262140 bytes): no fallback [costly-no-fallback]
 * corpus/prov-deref-buffer.c:57:15: note: gfp GFP_KERNEL
 * corpus/prov-deref-buffer.c:57:15: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-deref-buffer.c:57:15: note: possible: the size comes from memory read through a pointer (line 56), whose values are not known here
 * check-output-end
 */
