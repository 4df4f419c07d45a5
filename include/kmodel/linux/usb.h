/* Model of include/linux/usb.h: devices, interfaces and their endpoints
 * as the USB core hands them to a driver, and descriptor reads. */
#ifndef _KMODEL_LINUX_USB_H
#define _KMODEL_LINUX_USB_H
#include <linux/types.h>
#include <linux/usb/ch9.h>

struct usb_host_endpoint {
	struct usb_endpoint_descriptor desc;
	unsigned char *extra;
	int extralen;
};

struct usb_host_interface {
	struct usb_interface_descriptor desc;
	struct usb_host_endpoint *endpoint;
};

struct usb_device {
	int devnum;
	struct usb_device_descriptor descriptor;
	struct usb_host_endpoint ep0;
};

struct usb_interface {
	struct usb_host_interface *altsetting;
	struct usb_host_interface *cur_altsetting;
	unsigned num_altsetting;
};

struct usb_device_id;

struct usb_device *interface_to_usbdev(struct usb_interface *intf);
int usb_get_descriptor(struct usb_device *dev, unsigned char desctype,
		       unsigned char descindex, void *buf, int size);

#endif
