/*
 * A sender returns the bytes it sent or a negative errno; its caller turns
 * a positive count into 0 and returns anything else.  `if (r > 0)` is the
 * success test, so the failure is handed on: no feature-off fallback.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct link {
	int (*xmit)(struct link *l, void *frame, int len);
};

static int link_send(struct link *l, const void *data, int len)
{
	void *frame;
	int r;

	frame = kmalloc(SZ_64K, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 fallback=none
	if (!frame)
		return -ENOMEM;
	memcpy(frame, data, len);
	r = l->xmit(l, frame, len);
	kfree(frame);
	return r;
}

int link_write(struct link *l, const void *data, int len)
{
	int r;

	r = link_send(l, data, len);
	if (r > 0)
		r = 0;
	return r;
}
/*
 * check-name: 'if (r > 0)' after a count-or-errno call is the success test, not a feature-off fallback
 *
 * check-output-start
 * corpus/fallback-caller-count-test.c:22:10: warning: 'kmalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-caller-count-test.c:22:10: note: gfp GFP_KERNEL
 * corpus/fallback-caller-count-test.c:22:10: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-count-test.c:22:10: note: proven: every path asks for more than order 3
 * check-output-end
 */
