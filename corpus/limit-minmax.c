/*
 * min(), min_t(), clamp(), clamp_val() and umin() of a user count: the cap
 * is the bound.  Capped below order 4 (a 32 KiB chunk) the site is not
 * costly; capped at 1 MiB it still reaches order 8 and the user decides
 * ("likely"); capped at a page or less it stays in the slab caches.
 */
#include <linux/slab.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct log_ent {
	u64 ts;
	u64 seq;
	u32 len;
	u32 pad[11];
};

struct log_dev {
	char *chunk;
	char *big;
	char *line;
	char *hist;
	struct log_ent *ents;
};

static ssize_t log_write(struct file *file, const char __user *ubuf, size_t count, loff_t *ppos)
{
	struct log_dev *d = file->private_data;
	size_t n = min(count, (size_t)SZ_32K);

	d->chunk = kmalloc(n, GFP_KERNEL); // site: order=0..3 conf=none src=user
	if (!d->chunk)
		return -ENOMEM;
	d->big = kvmalloc(min_t(size_t, count, SZ_1M), GFP_KERNEL); // site: order=0..8 fallback=kvmalloc
	if (!d->big)
		return -ENOMEM;
	d->line = kmalloc(clamp(count, (size_t)64, (size_t)SZ_4K), GFP_KERNEL);
	if (!d->line)
		return -ENOMEM;
	d->hist = kmalloc(clamp_val(count, 64, SZ_1M), GFP_KERNEL); // note: costly-no-fallback // site: order=0..8 conf=likely src=user
	if (!d->hist)
		return -ENOMEM;
	d->ents = kcalloc(umin(count, 64), sizeof(struct log_ent), GFP_KERNEL);
	return d->ents ? count : -ENOMEM;
}

const void *log_fops[] = { log_write };
/*
 * check-name: min/min_t/clamp/clamp_val/umin of a user count: the cap bounds it
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/limit-minmax.c:43:12: note: 'kmalloc' can request order 0..8 (64 bytes to 1 MiB): no fallback [costly-no-fallback]
 * corpus/limit-minmax.c:43:12: note: gfp GFP_KERNEL
 * corpus/limit-minmax.c:43:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/limit-minmax.c:43:12: note: likely: the size comes from the count of a user buffer, 'count', and nothing here bounds it below order 4
 * check-output-end
 */
