/*
 * memdup_user() allocates with GFP_USER | __GFP_NOWARN; a 128 KiB limit
 * still allows order 5, and an ERR_PTR return is no fallback.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/err.h>
#include <linux/sizes.h>

struct ioctl_req {
	void __user *ubuf;
	size_t len;
	void *kbuf;
};

long req_copy_in(struct ioctl_req *req)
{
	size_t len = req->len;
	void *buf;

	if (len > SZ_128K)
		return -EINVAL;
	buf = memdup_user(req->ubuf, len); // site: order=0..5 api=memdup_user fallback=none must=NOWARN|HARDWALL|DIRECT_RECLAIM // note: costly-no-fallback
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	req->kbuf = buf;
	return 0;
}
/*
 * check-name: memdup_user of up to 128K (order 0..5, GFP_USER|__GFP_NOWARN)
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/slab-memdup-user.c:24:8: note: 'memdup_user' can request order 0..5 (up to 128 KiB): no fallback [costly-no-fallback]
 * corpus/slab-memdup-user.c:24:8: note: gfp GFP_USER | __GFP_NOWARN
 * corpus/slab-memdup-user.c:24:8: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/slab-memdup-user.c:24:8: note: possible: the size comes from field 'ioctl_req.len', whose values are not known here
 * check-output-end
 */
