/*
 * Sizes read from the device: a register, a little-endian descriptor field
 * and a firmware file's size.  Device data is "possible" (a note): judged
 * on 6.12, such values are mostly small in practice or checked where they
 * are read.
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

	hw->tbl = kmalloc(n, GFP_KERNEL); // note: costly-no-fallback // site: conf=possible src=device
	if (!hw->tbl)
		return -ENOMEM;
	hw->qs = kcalloc(hw->desc->nqueues, 256, GFP_KERNEL); // note: costly-no-fallback // site: order=0..10 conf=possible src=device
	if (!hw->qs)
		return -ENOMEM;
	if (request_firmware(&fw, "hw.bin", dev))
		return -ENOENT;
	hw->img = kmalloc(fw->size, GFP_KERNEL); // note: costly-no-fallback // site: conf=possible src=device
	release_firmware(fw);
	return hw->img ? 0 : -ENOMEM;
}
/*
 * check-name: register, descriptor and firmware sizes: possible, device data
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/prov-device.c:28:12: note: 'kmalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-device.c:28:12: note: gfp GFP_KERNEL
 * corpus/prov-device.c:28:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-device.c:28:12: note: possible: the size comes from a register read (line 26), which the device or the on-disk data decides (usually small)
 * corpus/prov-device.c:31:11: note: 'kcalloc' can request order 0..10 (up to 16776960 bytes): no fallback [costly-no-fallback]
 * corpus/prov-device.c:31:11: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/prov-device.c:31:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-device.c:31:11: note: possible: the size comes from a little-endian device field 'dev_desc.nqueues', which the device or the on-disk data decides (usually small)
 * corpus/prov-device.c:36:12: note: 'kmalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-device.c:36:12: note: gfp GFP_KERNEL
 * corpus/prov-device.c:36:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-device.c:36:12: note: possible: the size comes from request_firmware() into 'fw' (line 34), which the device or the on-disk data decides (usually small)
 * check-output-end
 */
