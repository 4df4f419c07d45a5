/*
 * A helper runs a private command with a 64 KiB scratch buffer and returns
 * -ENOMEM when it cannot get it.  The caller tests the result only for the
 * command's own "apply now" code and then runs the apply step: that branch
 * never sees -ENOMEM, so the failure goes back to the caller's caller, no
 * other path.  A second helper's caller tests for -ENOMEM and loads a
 * smaller table through another function: that one is another path.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/errno.h>

#define CMD_BYTES	(64 * 1024)
#define TAB_BYTES	(64 * 1024)
#define ECMDAPPLY	4200	/* a driver's own code above the errno range */

struct cmd_dev {
	int pending;
	void *tab;
};

static int cmd_run(struct cmd_dev *d, const void *arg, size_t len)
{
	char *extra = kzalloc(CMD_BYTES, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 fallback=none

	if (!extra)
		return -ENOMEM;
	memcpy(extra, arg, min_t(size_t, len, CMD_BYTES));
	d->pending = extra[0];
	kfree(extra);
	return d->pending ? -ECMDAPPLY : 0;
}

static int cmd_apply(struct cmd_dev *d)
{
	d->pending = 0;
	return 0;
}

int cmd_call(struct cmd_dev *d, const void *arg, size_t len)
{
	int ret;

	ret = cmd_run(d, arg, len);
	if (ret == -ECMDAPPLY)
		ret = cmd_apply(d);
	return ret;
}

static int tab_load_full(struct cmd_dev *d)
{
	d->tab = kzalloc(TAB_BYTES, GFP_KERNEL); // note: costly-no-noretry // site: order=4..4 fallback=caller-other-path
	if (!d->tab)
		return -ENOMEM;
	return 0;
}

static int tab_load_small(struct cmd_dev *d)
{
	d->tab = kzalloc(512, GFP_KERNEL);
	return d->tab ? 0 : -ENOMEM;
}

int tab_init(struct cmd_dev *d)
{
	int ret;

	ret = tab_load_full(d);
	if (ret == -ENOMEM)
		ret = tab_load_small(d);
	return ret;
}
/*
 * check-name: a caller that tests for another error code (== -EFOO) takes no failure branch: no other path
 *
 * check-output-start
 * corpus/fallback-caller-errcode.c:25:16: warning: 'kzalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-caller-errcode.c:25:16: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/fallback-caller-errcode.c:25:16: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-errcode.c:25:16: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/fallback-caller-errcode.c:25:16: note: proven: every path asks for more than order 3
 * check-output-end
 */
