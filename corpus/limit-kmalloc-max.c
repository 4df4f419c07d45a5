/*
 * A user size checked against KMALLOC_MAX_SIZE only is still the user's to
 * choose up to MAX_PAGE_ORDER: the check keeps kmalloc from warning, not
 * from asking for order 10 ("likely").  The same size checked against a
 * page stays in the slab caches; handed to kvmalloc it has a fallback.
 */
#include <linux/slab.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/errno.h>

struct blob_dev {
	void *blob;
	void *small;
	void *big;
};

static ssize_t blob_write(struct file *file, const char __user *ubuf, size_t count, loff_t *ppos)
{
	struct blob_dev *d = file->private_data;
	void *buf;

	if (count > KMALLOC_MAX_SIZE)
		return -EINVAL;
	buf = kmalloc(count, GFP_KERNEL); // note: costly-no-fallback // site: order=0..10 conf=likely src=user
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, ubuf, count)) {
		kfree(buf);
		return -EFAULT;
	}
	kfree(d->blob);
	d->blob = buf;
	return count;
}

static ssize_t blob_small_write(struct file *file, const char __user *ubuf, size_t count, loff_t *ppos)
{
	struct blob_dev *d = file->private_data;

	if (count > PAGE_SIZE)
		return -EINVAL;
	kfree(d->small);
	d->small = kmalloc(count, GFP_KERNEL);
	return d->small ? count : -ENOMEM;
}

static ssize_t blob_big_write(struct file *file, const char __user *ubuf, size_t count, loff_t *ppos)
{
	struct blob_dev *d = file->private_data;

	if (count > KMALLOC_MAX_SIZE)
		return -E2BIG;
	kvfree(d->big);
	d->big = kvmalloc(count, GFP_KERNEL); // site: order=0..10 fallback=kvmalloc
	return d->big ? count : -ENOMEM;
}

const void *blob_fops[] = { blob_write, blob_small_write, blob_big_write };
/*
 * check-name: a user size checked against KMALLOC_MAX_SIZE only: still likely, up to MAX_PAGE_ORDER
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/limit-kmalloc-max.c:25:8: note: 'kmalloc' can request order 0..10 (up to 4 MiB): no fallback [costly-no-fallback]
 * corpus/limit-kmalloc-max.c:25:8: note: gfp GFP_KERNEL
 * corpus/limit-kmalloc-max.c:25:8: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/limit-kmalloc-max.c:25:8: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/limit-kmalloc-max.c:25:8: note: likely: the size comes from the count of a user buffer, 'count', and nothing here bounds it below order 4
 * check-output-end
 */
