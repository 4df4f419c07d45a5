/*
 * An element of user, network or device memory is that data: a copy of a
 * user array indexed directly, and the same array handed to a static
 * helper that sums its entries under a limit (the helper's callers are all
 * in the file: the argument is bound).  An element of the kernel's own
 * table is nobody's data: its size is not known here (no finding).
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/string.h>
#include <linux/types.h>

struct seg {
	u64 offset;
	u64 len;
};

struct seg_hdr {
	u32 count;
	u32 flags;
};

struct seg kernel_segs[8];

static long segs_map(const struct seg_hdr *h, const struct seg *segs)
{
	u64 pages = 0;
	void **map;
	u32 i;

	for (i = 0; i < h->count; i++) {
		pages += segs[i].len >> 12;
		if (pages > 16384)
			return -EINVAL;
	}
	map = kmalloc_array(pages, sizeof(void *), GFP_KERNEL); // note: costly-no-fallback // site: order=0..5 conf=likely src=user
	if (!map)
		return -ENOMEM;
	kfree(map);
	return 0;
}

long segs_ioctl(void __user *arg)
{
	struct seg_hdr h;
	struct seg *segs;
	void *first, *table;
	long ret;

	if (copy_from_user(&h, arg, sizeof(h)))
		return -EFAULT;
	if (h.count > 64)
		return -EINVAL;
	segs = memdup_user(arg + sizeof(h), sizeof(*segs) * h.count);
	if (IS_ERR(segs))
		return PTR_ERR(segs);
	first = kmalloc(segs[0].len, GFP_KERNEL); // note: costly-no-fallback // site: order=0..10 conf=likely src=user
	table = kmalloc(kernel_segs[h.flags & 7].len, GFP_KERNEL); // site: order=?
	ret = first && table ? segs_map(&h, segs) : -ENOMEM;
	kfree(table);
	kfree(first);
	kfree(segs);
	return ret;
}
/*
 * check-name: an element of a user array is the user's data, also in a static helper
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/prov-array-element.c:38:8: note: 'kmalloc_array' can request order 0..5 (up to 128 KiB): no fallback [costly-no-fallback]
 * corpus/prov-array-element.c:38:8: note: gfp GFP_KERNEL
 * corpus/prov-array-element.c:38:8: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-array-element.c:38:8: note: likely: the size comes from a copy of user memory (line 56), and nothing here bounds it below order 4
 * corpus/prov-array-element.c:59:10: note: 'kmalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-array-element.c:59:10: note: gfp GFP_KERNEL
 * corpus/prov-array-element.c:59:10: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-array-element.c:59:10: note: likely: the size comes from a copy of user memory (line 56), and nothing here bounds it below order 4
 * check-output-end
 */
