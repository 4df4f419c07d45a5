/*
 * The caller calls the parser once per record in a loop and, on failure,
 * overwrites the argument it passes with an error code and jumps to the
 * exit: the loop around the call does not come back, so this is no retry.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct record {
	void *copy;
};

static int copy_record(struct record *r, const unsigned char *blob, int pos)
{
	r->copy = kmalloc(SZ_64K, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 fallback=none
	if (!r->copy)
		return -ENOMEM;
	memcpy(r->copy, blob + pos, SZ_64K);
	return pos + SZ_64K;
}

int copy_records(struct record *recs, int n, const unsigned char *blob)
{
	int pos = 0;
	int i;

	for (i = 0; i < n; i++) {
		pos = copy_record(&recs[i], blob, pos);
		if (pos < 0) {
			pos = -EINVAL;
			goto out;
		}
	}
out:
	return pos;
}
/*
 * check-name: a loop around the call whose failure branch jumps to the exit is not a retry smaller
 *
 * check-output-start
 * corpus/fallback-caller-loop-exit.c:19:12: warning: 'kmalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-caller-loop-exit.c:19:12: note: gfp GFP_KERNEL
 * corpus/fallback-caller-loop-exit.c:19:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-loop-exit.c:19:12: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/fallback-caller-loop-exit.c:19:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
