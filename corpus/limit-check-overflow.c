/*
 * check_mul_overflow(), check_add_overflow() and check_shl_overflow() write
 * the exact result through their last argument and are true on overflow;
 * the kernel's idiom returns then.  What lands in the destination carries
 * the operands' bounds and provenance: an ioctl's count times an entry size
 * is the user's ("likely"), a checked header length stays small, a u8 page
 * count shifted by PAGE_SHIFT is at most order 8.
 */
#include <linux/slab.h>
#include <linux/overflow.h>
#include <linux/uaccess.h>
#include <linux/errno.h>

struct ring_req {
	u32 nent;
	u32 hdr_len;
	u8 npages;
	u8 pad[7];
};

struct ring_ent {
	u64 addr;
	u64 len;
	u32 flags;
	u32 pad[3];
};

struct ring_hdr {
	u32 magic;
	u32 version;
};

struct ring_ctx {
	struct ring_ent *ents;
	struct ring_hdr *hdr;
	void *data;
};

long ring_setup(struct ring_ctx *rc, void __user *argp)
{
	struct ring_req req;
	size_t bytes, hdr, data;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	if (check_mul_overflow((size_t)req.nent, sizeof(struct ring_ent), &bytes))
		return -EOVERFLOW;
	rc->ents = kzalloc(bytes, GFP_KERNEL); // note: costly-no-fallback // site: order=0..10 conf=likely src=user
	if (!rc->ents)
		return -ENOMEM;
	if (req.hdr_len > 256)
		return -EINVAL;
	if (check_add_overflow((size_t)req.hdr_len, sizeof(struct ring_hdr), &hdr))
		return -EOVERFLOW;
	rc->hdr = kzalloc(hdr, GFP_KERNEL);
	if (!rc->hdr)
		return -ENOMEM;
	if (check_shl_overflow((size_t)req.npages, PAGE_SHIFT, &data))
		return -EOVERFLOW;
	rc->data = kmalloc(data, GFP_KERNEL); // note: costly-no-fallback // site: order=0..8 conf=likely src=user
	return rc->data ? 0 : -ENOMEM;
}
/*
 * check-name: check_*_overflow() fill their destination with the exact result and its provenance
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/limit-check-overflow.c:48:13: note: 'kzalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/limit-check-overflow.c:48:13: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/limit-check-overflow.c:48:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/limit-check-overflow.c:48:13: note: likely: the size comes from copy_from_user() into 'req' (line 44), and nothing here bounds it below order 4
 * corpus/limit-check-overflow.c:60:13: note: 'kmalloc' can request order 0..8 (up to 1020 KiB): no fallback [costly-no-fallback]
 * corpus/limit-check-overflow.c:60:13: note: gfp GFP_KERNEL
 * corpus/limit-check-overflow.c:60:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/limit-check-overflow.c:60:13: note: likely: the size comes from copy_from_user() into 'req' (line 44), and nothing here bounds it below order 4
 * check-output-end
 */
