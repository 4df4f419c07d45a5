/*
 * The helper's failure goes to a caller that only returns the error, and
 * another caller that retries nothing either: no fallback anywhere.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/errno.h>

#define RING_BYTES	(256 * 1024)

struct ring_dev {
	void *ring;
	int state;
};

static int ring_setup(struct ring_dev *d)
{
	d->ring = kzalloc(RING_BYTES, GFP_KERNEL); // warn: costly-no-fallback // site: order=6..6 fallback=none
	if (!d->ring)
		return -ENOMEM;
	return 0;
}

int ring_open(struct ring_dev *d)
{
	int err;

	err = ring_setup(d);
	if (err)
		return err;
	d->state = 1;
	return 0;
}

int ring_reset(struct ring_dev *d)
{
	int err = ring_setup(d);

	if (err) {
		d->state = 0;
		return err;
	}
	return 0;
}
/*
 * check-name: callers in the file only return the error: still no fallback
 *
 * check-output-start
 * corpus/fallback-caller-propagates.c:18:12: warning: 'kzalloc' can request order 6 (256 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-caller-propagates.c:18:12: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/fallback-caller-propagates.c:18:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-propagates.c:18:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
