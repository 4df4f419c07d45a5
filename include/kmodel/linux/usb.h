/* Model of include/linux/usb.h: devices, interfaces and their endpoints
 * as the USB core hands them to a driver, and descriptor reads. */
#ifndef _KMODEL_LINUX_USB_H
#define _KMODEL_LINUX_USB_H
#include <linux/types.h>
#include <linux/usb/ch9.h>
#include <linux/gfp.h>

struct urb;

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

/* URBs: the host controller driver maps transfer_buffer and setup_packet
 * for DMA (usb_hcd_map_urb_for_dma), so they must be kmalloc'd memory. */
typedef void (*usb_complete_t)(struct urb *);
struct urb {
	struct usb_device *dev;
	unsigned int pipe;
	void *transfer_buffer;
	u32 transfer_buffer_length;
	u32 actual_length;
	unsigned char *setup_packet;
	void *context;
	usb_complete_t complete;
};

struct urb *usb_alloc_urb(int iso_packets, gfp_t mem_flags);
void usb_free_urb(struct urb *urb);
int usb_submit_urb(struct urb *urb, gfp_t mem_flags);
void usb_fill_bulk_urb(struct urb *urb, struct usb_device *dev, unsigned int pipe,
		       void *transfer_buffer, int buffer_length, usb_complete_t complete_fn,
		       void *context);
int usb_bulk_msg(struct usb_device *usb_dev, unsigned int pipe, void *data, int len,
		 int *actual_length, int timeout);
int usb_control_msg(struct usb_device *dev, unsigned int pipe, __u8 request, __u8 requesttype,
		    __u16 value, __u16 index, void *data, __u16 size, int timeout);

struct usb_device *interface_to_usbdev(struct usb_interface *intf);
int usb_get_descriptor(struct usb_device *dev, unsigned char desctype,
		       unsigned char descindex, void *buf, int size);

#endif
