/*
 * virtio_cread() and virtio_cread_le() read a field of the device's config
 * space: the value lands in a temporary through the transport's get() and
 * is stored through the pointer the driver passes.  A queue count read that
 * way sizes an array at the device's choice ("possible", a note); checked against the
 * driver's own limit first it stays small.
 */
#include <linux/slab.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/errno.h>

#define VBLK_F_MQ		12
#define VBLK_MAX_QUEUES		16

struct vblk_config {
	__le64 capacity;
	__le32 seg_max;
	__le16 num_queues;
	__virtio32 opt_io_size;
};

struct vblk_queue {
	u64 stats[32];
	void *vq;
};

struct vblk {
	struct virtio_device *vdev;
	u16 nq;
	struct vblk_queue *qs;
	void *io_buf;
	u32 *seg_map;
};

int vblk_init_queues(struct vblk *vb)
{
	struct virtio_device *vdev = vb->vdev;
	u16 num = 1;

	if (virtio_has_feature(vdev, VBLK_F_MQ))
		virtio_cread_le(vdev, struct vblk_config, num_queues, &num);
	vb->qs = kcalloc(num, sizeof(*vb->qs), GFP_KERNEL); // site: order=0..10 conf=possible src=device // note: costly-no-fallback
	return vb->qs ? 0 : -ENOMEM;
}

int vblk_init_queues_checked(struct vblk *vb)
{
	u16 num;
	int err;

	err = virtio_cread_le_feature(vb->vdev, VBLK_F_MQ, struct vblk_config, num_queues, &vb->nq);
	num = err ? 1 : vb->nq;
	if (!num || num > VBLK_MAX_QUEUES)
		return -EINVAL;
	vb->qs = kcalloc(num, sizeof(*vb->qs), GFP_KERNEL);
	return vb->qs ? 0 : -ENOMEM;
}

int vblk_init_io(struct vblk *vb)
{
	u32 opt;

	virtio_cread(vb->vdev, struct vblk_config, opt_io_size, &opt);
	vb->io_buf = kmalloc(opt, GFP_KERNEL); // site: order=0..10 conf=possible src=device // note: costly-no-fallback
	return vb->io_buf ? 0 : -ENOMEM;
}
/*
 * check-name: virtio_cread()/virtio_cread_le() fill their destination with device data
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/limit-virtio.c:43:11: note: 'kcalloc' can request order 0..10 (up to 17301240 bytes): no fallback [costly-no-fallback]
 * corpus/limit-virtio.c:43:11: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/limit-virtio.c:43:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/limit-virtio.c:43:11: note: possible: the size comes from virtio config space (virtio_cread()) (line 42), which the device or the on-disk data decides (usually small)
 * corpus/limit-virtio.c:65:15: note: 'kmalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/limit-virtio.c:65:15: note: gfp GFP_KERNEL
 * corpus/limit-virtio.c:65:15: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/limit-virtio.c:65:15: note: possible: the size comes from virtio config space (virtio_cread()) (line 64), which the device or the on-disk data decides (usually small)
 * check-output-end
 */
