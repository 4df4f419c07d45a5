/* Model of include/linux/virtio.h: a virtio device and its config ops. */
#ifndef _KMODEL_LINUX_VIRTIO_H
#define _KMODEL_LINUX_VIRTIO_H
#include <linux/types.h>

typedef __u16 __bitwise __virtio16;
typedef __u32 __bitwise __virtio32;
typedef __u64 __bitwise __virtio64;

struct virtio_device;

struct virtio_config_ops {
	void (*get)(struct virtio_device *vdev, unsigned offset, void *buf, unsigned len);
	void (*set)(struct virtio_device *vdev, unsigned offset, const void *buf, unsigned len);
	u64 (*get_features)(struct virtio_device *vdev);
};

struct virtio_device {
	int index;
	const struct virtio_config_ops *config;
	u64 features;
	void *priv;
};

#endif
