/*
 * A write() handler copies the user's buffer into a kmalloc'd one sized by
 * the count the user passed: nothing bounds it but KMALLOC_MAX_SIZE, so the
 * order is up to MAX_PAGE_ORDER and the finding is "likely" (user data).
 * The read() side caps its count first and stays in the slab caches.
 */
#include <linux/slab.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/minmax.h>
#include <linux/errno.h>

struct cfg_dev {
	char *blob;
	size_t len;
};

static ssize_t cfg_write(struct file *file, const char __user *ubuf, size_t count, loff_t *ppos)
{
	struct cfg_dev *d = file->private_data;
	char *buf;

	buf = kmalloc(count, GFP_KERNEL); // note: costly-no-fallback // site: order=0..10 conf=likely src=user
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, ubuf, count)) {
		kfree(buf);
		return -EFAULT;
	}
	kfree(d->blob);
	d->blob = buf;
	d->len = count;
	return count;
}

static ssize_t cfg_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	char *buf;
	size_t n = min(count, (size_t)256);

	buf = kmalloc(n, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (copy_to_user(ubuf, buf, n)) {
		kfree(buf);
		return -EFAULT;
	}
	kfree(buf);
	return n;
}

const void *cfg_fops[] = { cfg_write, cfg_read };
/*
 * check-name: write() count sizes a kmalloc: likely, user data
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/prov-user-write.c:23:8: note: 'kmalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-user-write.c:23:8: note: gfp GFP_KERNEL
 * corpus/prov-user-write.c:23:8: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-user-write.c:23:8: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/prov-user-write.c:23:8: note: likely: the size comes from the count of a user buffer, 'count', and nothing here bounds it below order 4
 * check-output-end
 */
