/*
 * goto-retry with a smaller kmalloc size: the failure branch halves the
 * size variable and jumps back before the call.  A goto back that follows a
 * successful pass (the buffer is consumed in pieces) is no fallback.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/errno.h>

struct scanner {
	unsigned int block_shift;
	unsigned int done;
};

int scanner_run(struct scanner *sc)
{
	unsigned int chunk = 8192;
	char *buf;

again:
	buf = kmalloc(chunk << 9, GFP_KERNEL | __GFP_NOWARN); // warn: costly-no-noretry // site: fallback=order-loop fbat=24
	if (!buf) {
		chunk >>= 1;
		if (chunk >= 1U << sc->block_shift)
			goto again;
		return -ENOMEM;
	}
	sc->done += chunk;
	kfree(buf);
	return 0;
}

int scanner_walk(struct scanner *sc)
{
	unsigned int len = 256;
	char *buf;

next:
	buf = kmalloc(len << 9, GFP_KERNEL); // warn: costly-no-fallback // site: fallback=none
	if (!buf)
		return -ENOMEM;
	sc->done += len;
	kfree(buf);
	len -= 1;
	if (len > 64)
		goto next;
	return 0;
}
/*
 * check-name: goto-retry lowering a kmalloc size on NULL; a goto back after success is no fallback
 *
 * check-output-start
 * corpus/fallback-shape-goto-size.c:22:8: warning: 'kmalloc' can request order 7..10 (512 KiB to 4 MiB) [costly-no-noretry]
 * corpus/fallback-shape-goto-size.c:22:8: note: gfp GFP_KERNEL | __GFP_NOWARN
 * corpus/fallback-shape-goto-size.c:22:8: note: fallback order-loop: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/fallback-shape-goto-size.c:22:8: note: proven: every path asks for more than order 3
 * corpus/fallback-shape-goto-size.c:40:8: warning: 'kmalloc' can request order 5 (129536 bytes to 128 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-shape-goto-size.c:40:8: note: gfp GFP_KERNEL
 * corpus/fallback-shape-goto-size.c:40:8: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-shape-goto-size.c:40:8: note: proven: every path asks for more than order 3
 * check-output-end
 */
