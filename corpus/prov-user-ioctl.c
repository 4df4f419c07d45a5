/*
 * An ioctl copies its argument struct from user space and sizes arrays by
 * its fields.  Unchecked, the count is the user's (likely); checked against
 * a small limit first, the array stays in the slab caches; get_user() of a
 * count is the user's too.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/errno.h>

struct tbl_req {
	u32 nent;
	u32 flags;
	u64 uptr;
};

struct tbl_ent {
	u64 key;
	u64 val;
	u32 pad[4];
};

long tbl_ioctl(void __user *argp)
{
	struct tbl_req req;
	struct tbl_ent *ents, *small;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	ents = kcalloc(req.nent, sizeof(*ents), GFP_KERNEL); // note: costly-no-fallback // site: order=0..10 conf=likely src=user
	if (!ents)
		return -ENOMEM;
	if (req.flags > 16) {
		kfree(ents);
		return -EINVAL;
	}
	small = kcalloc(req.flags, sizeof(*small), GFP_KERNEL);
	kfree(small);
	kfree(ents);
	return 0;
}

long tbl_set_count(u32 __user *uc)
{
	u32 n;
	void *p;

	if (get_user(n, uc))
		return -EFAULT;
	p = kmalloc_array(n, 64, GFP_KERNEL); // note: costly-no-fallback // site: conf=likely src=user
	if (!p)
		return -ENOMEM;
	kfree(p);
	return 0;
}
/*
 * check-name: ioctl argument fields and get_user() size allocations: likely, user data
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/prov-user-ioctl.c:30:9: note: 'kcalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-user-ioctl.c:30:9: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/prov-user-ioctl.c:30:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-user-ioctl.c:30:9: note: likely: the size comes from copy_from_user() into 'req' (line 28), and nothing here bounds it below order 4
 * corpus/prov-user-ioctl.c:50:6: note: 'kmalloc_array' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-user-ioctl.c:50:6: note: gfp GFP_KERNEL
 * corpus/prov-user-ioctl.c:50:6: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-user-ioctl.c:50:6: note: likely: the size comes from get_user() (line 48), and nothing here bounds it below order 4
 * check-output-end
 */
