/* Model of include/linux/virtio_config.h (6.12): config-space reads.
 * virtio_cread() and virtio_cread_le() read a field into a temporary
 * through the transport's get() and store the converted value through
 * the pointer they are given; the conversions are _Generic selections. */
#ifndef _KMODEL_LINUX_VIRTIO_CONFIG_H
#define _KMODEL_LINUX_VIRTIO_CONFIG_H
#include <linux/types.h>
#include <linux/virtio.h>
#include <linux/errno.h>
#include <asm/byteorder.h>

#include <linux/kernel.h>

static inline bool virtio_has_feature(const struct virtio_device *vdev, unsigned int fbit)
{
	return vdev->features & (1ULL << fbit);
}

/* modern devices are little-endian; legacy ones native (the model
 * machine is little-endian too) */
static inline u16 virtio16_to_cpu(struct virtio_device *vdev, __virtio16 val)
{
	(void)vdev;
	return (__force u16)val;
}
static inline u32 virtio32_to_cpu(struct virtio_device *vdev, __virtio32 val)
{
	(void)vdev;
	return (__force u32)val;
}
static inline u64 virtio64_to_cpu(struct virtio_device *vdev, __virtio64 val)
{
	(void)vdev;
	return (__force u64)val;
}

#define virtio_to_cpu(vdev, x)					\
	_Generic((x),						\
		__u8: (x),					\
		__virtio16: virtio16_to_cpu((vdev), (x)),	\
		__virtio32: virtio32_to_cpu((vdev), (x)),	\
		__virtio64: virtio64_to_cpu((vdev), (x)))

#define virtio_le_to_cpu(x)					\
	_Generic((x),						\
		__u8: (u8)(x),					\
		__le16: (u16)le16_to_cpu(x),			\
		__le32: (u32)le32_to_cpu(x),			\
		__le64: (u64)le64_to_cpu(x))

void __virtio_cread_many(struct virtio_device *vdev, unsigned int offset,
			 void *buf, size_t count, size_t bytes);

#define virtio_cread(vdev, structname, member, ptr)			\
	do {								\
		typeof(((structname *)0)->member) virtio_cread_v;	\
									\
		might_sleep();						\
		switch (sizeof(virtio_cread_v)) {			\
		case 1:							\
		case 2:							\
		case 4:							\
			(vdev)->config->get((vdev),			\
				__builtin_offsetof(structname, member),	\
				&virtio_cread_v, sizeof(virtio_cread_v)); \
			break;						\
		default:						\
			__virtio_cread_many((vdev),			\
				__builtin_offsetof(structname, member),	\
				&virtio_cread_v, 1, sizeof(virtio_cread_v)); \
			break;						\
		}							\
		*(ptr) = virtio_to_cpu(vdev, virtio_cread_v);		\
	} while (0)

#define virtio_cread_le(vdev, structname, member, ptr)			\
	do {								\
		typeof(((structname *)0)->member) virtio_cread_v;	\
									\
		might_sleep();						\
		switch (sizeof(virtio_cread_v)) {			\
		case 1:							\
		case 2:							\
		case 4:							\
			(vdev)->config->get((vdev),			\
				__builtin_offsetof(structname, member),	\
				&virtio_cread_v, sizeof(virtio_cread_v)); \
			break;						\
		default:						\
			__virtio_cread_many((vdev),			\
				__builtin_offsetof(structname, member),	\
				&virtio_cread_v, 1, sizeof(virtio_cread_v)); \
			break;						\
		}							\
		*(ptr) = virtio_le_to_cpu(virtio_cread_v);		\
	} while (0)

#define virtio_cread_le_feature(vdev, fbit, structname, member, ptr)	\
	({								\
		int _r = 0;						\
		if (!virtio_has_feature(vdev, fbit))			\
			_r = -ENOENT;					\
		else							\
			virtio_cread_le((vdev), structname, member, ptr); \
		_r;							\
	})

#endif
