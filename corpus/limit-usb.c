/*
 * USB descriptors come from the device.  An endpoint's packet size is
 * wMaxPacketSize & 0x7ff (usb_endpoint_maxp()), at most 2047 bytes: a
 * 16-packet receive ring stays below order 4.  A configuration's
 * wTotalLength is any 16-bit value the device sends: a buffer for the whole
 * configuration can be 64 KiB, order 4 ("possible", device data: a note).
 */
#include <linux/slab.h>
#include <linux/usb.h>
#include <linux/errno.h>

#define RX_RING_PACKETS 16

struct sniff_dev {
	struct usb_device *udev;
	u8 *rx_ring;
	u8 *cfg_copy;
};

int sniff_setup_rx(struct sniff_dev *sd, struct usb_interface *intf)
{
	struct usb_host_interface *alt = intf->cur_altsetting;
	struct usb_endpoint_descriptor *ep = &alt->endpoint[0].desc;
	size_t maxp;

	if (!usb_endpoint_is_bulk_in(ep))
		return -ENODEV;
	maxp = usb_endpoint_maxp(ep);
	sd->rx_ring = kmalloc(maxp * RX_RING_PACKETS, GFP_KERNEL); // site: order=0..3 conf=none src=device
	return sd->rx_ring ? 0 : -ENOMEM;
}

int sniff_copy_config(struct sniff_dev *sd, const struct usb_config_descriptor *cfg)
{
	u16 total = le16_to_cpu(cfg->wTotalLength);

	if (total < USB_DT_CONFIG_SIZE)
		return -EINVAL;
	sd->cfg_copy = kmalloc(total, GFP_KERNEL); // site: order=0..4 conf=possible src=device // note: costly-no-fallback
	return sd->cfg_copy ? 0 : -ENOMEM;
}
/*
 * check-name: usb_endpoint_maxp() is at most 2047; wTotalLength is the device's 16-bit choice
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/limit-usb.c:39:17: note: 'kmalloc' can request order 0..4 (9 bytes to 65535 bytes): no fallback [costly-no-fallback]
 * corpus/limit-usb.c:39:17: note: gfp GFP_KERNEL
 * corpus/limit-usb.c:39:17: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/limit-usb.c:39:17: note: possible: the size comes from a little-endian device field 'usb_config_descriptor.wTotalLength', which the device or the on-disk data decides (usually small)
 * check-output-end
 */
