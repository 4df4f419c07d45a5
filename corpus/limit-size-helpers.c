/*
 * The kernel's saturating size helpers: array_size(), array3_size(),
 * struct_size(), size_add() and size_sub() give SIZE_MAX on overflow, which
 * kmalloc refuses, so the size they give is the exact product or sum when it
 * fits.  A user count through them is still the user's ("likely"), a count
 * checked first keeps its bound (slab caches, no site), constants stay
 * constants ("proven").
 */
#include <linux/slab.h>
#include <linux/overflow.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/errno.h>

struct trace_rec {
	u64 ts;
	u64 ip;
	u32 cpu;
	u32 pad[11];
};

struct trace_buf {
	u32 nr;
	u32 flags;
	struct trace_rec recs[];
};

struct trace_ctx {
	struct trace_buf *buf;
	struct trace_rec *stash;
	struct trace_rec *grid;
	char *note;
	struct trace_buf *snap;
	struct trace_rec *recs;
};

static ssize_t trace_buf_write(struct file *file, const char __user *ubuf, size_t count, loff_t *ppos)
{
	struct trace_ctx *ctx = file->private_data;
	struct trace_buf *buf;

	buf = kzalloc(struct_size(buf, recs, count), GFP_KERNEL); // note: costly-no-fallback // site: order=0..10 conf=likely src=user
	if (!buf)
		return -ENOMEM;
	buf->nr = count;
	kfree(ctx->buf);
	ctx->buf = buf;
	return count;
}

static ssize_t trace_stash_write(struct file *file, const char __user *ubuf, size_t count, loff_t *ppos)
{
	struct trace_ctx *ctx = file->private_data;

	if (count > 64)
		return -EINVAL;
	kfree(ctx->stash);
	ctx->stash = kmalloc(array_size(count, sizeof(struct trace_rec)), GFP_KERNEL);
	kfree(ctx->note);
	ctx->note = kmalloc(size_sub(size_add(count, PAGE_SIZE), 16), GFP_KERNEL);
	kfree(ctx->snap);
	ctx->snap = kzalloc(struct_size_t(struct trace_buf, recs, count), GFP_KERNEL);
	kfree(ctx->recs);
	ctx->recs = kmalloc(flex_array_size(ctx->snap, recs, count), GFP_KERNEL);
	return ctx->stash && ctx->note && ctx->snap && ctx->recs ? count : -ENOMEM;
}

int trace_grid_init(struct trace_ctx *ctx)
{
	ctx->grid = kzalloc(array3_size(16, 64, sizeof(struct trace_rec)), GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 conf=proven src=const
	return ctx->grid ? 0 : -ENOMEM;
}

const void *trace_fops[] = { trace_buf_write, trace_stash_write };
/*
 * check-name: array_size/struct_size/size_add saturate: the exact size when it fits, user counts stay the user's
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/limit-size-helpers.c:42:8: note: 'kzalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/limit-size-helpers.c:42:8: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/limit-size-helpers.c:42:8: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/limit-size-helpers.c:42:8: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/limit-size-helpers.c:42:8: note: likely: the size comes from the count of a user buffer, 'count', and nothing here bounds it below order 4
 * corpus/limit-size-helpers.c:70:14: warning: 'kzalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/limit-size-helpers.c:70:14: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/limit-size-helpers.c:70:14: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/limit-size-helpers.c:70:14: note: proven: every path asks for more than order 3
 * check-output-end
 */
