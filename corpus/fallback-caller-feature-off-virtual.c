/*
 * An optional 128 KiB history buffer that only the CPU reads: its setup
 * returns -ENOMEM and the only caller just leaves the history off.  Going on
 * without it is no fallback here: vmalloc memory would do, so the finding is
 * costly-no-fallback and kvmalloc is the fix.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/errno.h>

#define HIST_BYTES	(128 * 1024)

struct hist_dev {
	void *hist;
	bool history;
};

void hist_note(struct hist_dev *d);

static int hist_enable(struct hist_dev *d)
{
	d->hist = kmalloc(HIST_BYTES, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 fallback=none
	if (!d->hist)
		return -ENOMEM;
	d->history = true;
	return 0;
}

int hist_probe(struct hist_dev *d)
{
	d->history = false;
	if (hist_enable(d))
		hist_note(d);
	return 0;
}
/*
 * check-name: a caller goes on without a buffer only the CPU uses: no fallback (kvmalloc is the fix)
 *
 * check-output-start
 * corpus/fallback-caller-feature-off-virtual.c:22:12: warning: 'kmalloc' can request order 5 (128 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-caller-feature-off-virtual.c:22:12: note: gfp GFP_KERNEL
 * corpus/fallback-caller-feature-off-virtual.c:22:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-feature-off-virtual.c:22:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
