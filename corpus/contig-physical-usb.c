/*
 * USB transfer buffers must be kmalloc'd memory: the host controller
 * driver maps an URB's transfer_buffer for DMA, and usb_bulk_msg() and
 * usb_control_msg() build such an URB.  The memory is physical whether it
 * reaches the URB directly, through a field of the driver's own struct, or
 * through an array of buffers filled at probe and handed to the URBs in
 * another function; vmalloc memory (kvmalloc) would not do.
 */
#include <linux/slab.h>
#include <linux/usb.h>
#include <linux/errno.h>
#include <linux/string.h>

#define XFER_URBS 4
#define XFER_BUFSIZE 98304

struct xfer_dev {
	struct usb_device *udev;
	struct urb *urbs[XFER_URBS];
	void *bufs[XFER_URBS];
	void *ctrl_buf;
	void *bulk_buf;
};

static void xfer_complete(struct urb *urb)
{
}

int xfer_prealloc(struct xfer_dev *d)
{
	int i;

	for (i = 0; i < XFER_URBS; i++) {
		d->bufs[i] = kzalloc(XFER_BUFSIZE, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 contig=physical contigat=46
		if (!d->bufs[i])
			return -ENOMEM;
	}
	return 0;
}

int xfer_start(struct xfer_dev *d)
{
	int i;

	for (i = 0; i < XFER_URBS; i++)
		d->urbs[i]->transfer_buffer = d->bufs[i];
	return 0;
}

int xfer_ctrl(struct xfer_dev *d)
{
	d->ctrl_buf = kmalloc(65536, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 contig=physical contigat=55
	if (!d->ctrl_buf)
		return -ENOMEM;
	return usb_control_msg(d->udev, 0, 1, 0xc0, 0, 0, d->ctrl_buf, 65535, 1000);
}

int xfer_bulk(struct xfer_dev *d, struct urb *urb)
{
	void *buf = kmalloc(XFER_BUFSIZE, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 contig=physical contigat=64

	if (!buf)
		return -ENOMEM;
	usb_fill_bulk_urb(urb, d->udev, 0, buf, XFER_BUFSIZE, xfer_complete, d);
	return usb_submit_urb(urb, GFP_KERNEL);
}

int xfer_copy(struct xfer_dev *d, const void *src)
{
	d->bulk_buf = kmalloc(XFER_BUFSIZE, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 contig=virtual
	if (!d->bulk_buf)
		return -ENOMEM;
	memcpy(d->bulk_buf, src, XFER_BUFSIZE);
	return 0;
}
/*
 * check-name: USB transfer buffers are physical: an URB's transfer_buffer, usb_control_msg, usb_fill_bulk_urb, an array field handed to URBs elsewhere
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/contig-physical-usb.c:34:16: warning: 'kzalloc' can request order 5 (96 KiB): no fallback [costly-no-fallback]
 * corpus/contig-physical-usb.c:34:16: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/contig-physical-usb.c:34:16: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/contig-physical-usb.c:34:16: note: proven: every path asks for more than order 3
 * corpus/contig-physical-usb.c:52:16: warning: 'kmalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/contig-physical-usb.c:52:16: note: gfp GFP_KERNEL
 * corpus/contig-physical-usb.c:52:16: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/contig-physical-usb.c:52:16: note: proven: every path asks for more than order 3
 * corpus/contig-physical-usb.c:60:14: warning: 'kmalloc' can request order 5 (96 KiB): no fallback [costly-no-fallback]
 * corpus/contig-physical-usb.c:60:14: note: gfp GFP_KERNEL
 * corpus/contig-physical-usb.c:60:14: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/contig-physical-usb.c:60:14: note: proven: every path asks for more than order 3
 * corpus/contig-physical-usb.c:70:16: warning: 'kmalloc' can request order 5 (96 KiB): no fallback [costly-no-fallback]
 * corpus/contig-physical-usb.c:70:16: note: gfp GFP_KERNEL
 * corpus/contig-physical-usb.c:70:16: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/contig-physical-usb.c:70:16: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/contig-physical-usb.c:70:16: note: proven: every path asks for more than order 3
 * check-output-end
 */
