/*
 * A helper grabs blocks of `unit` pages and returns how many pages it got;
 * when it got none at the big unit, its caller (another function of the
 * file) tries again with single pages.  The fallback is in the caller.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

#define GRAB_BIG_UNIT	512

struct grab_state {
	struct page *pg[32];
	unsigned int n;
};

static unsigned int grab_blocks(struct grab_state *gs, unsigned int count, unsigned int unit)
{
	unsigned int i;
	struct page *pg;

	for (i = 0; i < count / unit && gs->n < 32; i++) {
		pg = alloc_pages(GFP_KERNEL, get_order(unit << PAGE_SHIFT)); // warn: costly-no-noretry // site: order=0..9 fallback=caller-smaller fbat=38
		if (!pg)
			return i * unit;
		gs->pg[gs->n++] = pg;
	}
	return i * unit;
}

void grab_work(struct grab_state *gs, unsigned int count)
{
	unsigned int unit = GRAB_BIG_UNIT;
	unsigned int got;

	while (count) {
		got = grab_blocks(gs, count, unit);
		if (got == 0 && unit != 1) {
			unit = 1;
			continue;
		}
		if (!got)
			break;
		count -= got < count ? got : count;
	}
}
/*
 * check-name: a caller in the file retries with a smaller unit (caller-smaller)
 *
 * check-output-start
 * corpus/fallback-caller-smaller.c:22:8: warning: 'alloc_pages' can request order 0..9: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/fallback-caller-smaller.c:22:8: note: gfp GFP_KERNEL
 * corpus/fallback-caller-smaller.c:22:8: note: fallback caller-smaller: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/fallback-caller-smaller.c:22:8: note: proven: constants give the order
 * check-output-end
 */
