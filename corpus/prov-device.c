/*
 * Sizes read from the device: a register, a little-endian descriptor field
 * and a firmware file's size.  Each is "likely" (device data).
 */
#include <linux/slab.h>
#include <linux/io.h>
#include <linux/firmware.h>
#include <linux/errno.h>

struct dev_desc {
	__le16 nqueues;
	__le16 qdepth;
};

struct hw {
	void __iomem *regs;
	const struct dev_desc *desc;
	void *tbl, *qs, *img;
};

int hw_setup(struct hw *hw, struct device *dev)
{
	const struct firmware *fw;
	u32 n = readl(hw->regs + 0x10);

	hw->tbl = kmalloc(n, GFP_KERNEL); // warn: costly-no-fallback // site: conf=likely src=device
	if (!hw->tbl)
		return -ENOMEM;
	hw->qs = kcalloc(hw->desc->nqueues, 256, GFP_KERNEL); // warn: costly-no-fallback // site: order=0..10 conf=likely src=device
	if (!hw->qs)
		return -ENOMEM;
	if (request_firmware(&fw, "hw.bin", dev))
		return -ENOENT;
	hw->img = kmalloc(fw->size, GFP_KERNEL); // warn: costly-no-fallback // site: conf=likely src=device
	release_firmware(fw);
	return hw->img ? 0 : -ENOMEM;
}
/*
 * check-name: register, descriptor and firmware sizes: likely, device data
 *
 * check-output-start
 * corpus/prov-device.c:26:12: warning: 'kmalloc' can request order 0..10; gfp must __GFP_IO|__GFP_FS|__GFP_DIRECT_RECLAIM|__GFP_KSWAPD_RECLAIM; fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation; likely: the size comes from a register read (line 24), and nothing here bounds it below order 4 [costly-no-fallback]
 * corpus/prov-device.c:29:11: warning: 'kcalloc' can request order 0..10 (size 0..16776960); gfp must __GFP_IO|__GFP_FS|__GFP_ZERO|__GFP_DIRECT_RECLAIM|__GFP_KSWAPD_RECLAIM; fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation; likely: the size comes from a little-endian device field 'dev_desc.nqueues', and nothing here bounds it below order 4 [costly-no-fallback]
 * corpus/prov-device.c:34:12: warning: 'kmalloc' can request order 0..10; gfp must __GFP_IO|__GFP_FS|__GFP_DIRECT_RECLAIM|__GFP_KSWAPD_RECLAIM; fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation; likely: the size comes from request_firmware() into 'fw' (line 32), and nothing here bounds it below order 4 [costly-no-fallback]
 * check-output-end
 */
