/*
 * A helper fills a list with pages of the size the control block names and
 * returns -ENOMEM when it got fewer than asked.  Its caller hands the pages
 * to the device first and tests the helper's result five statements later:
 * on failure it steps down to the small page size (and stops at the
 * smallest).  The test is the first one of the result, however far.  A
 * second caller overwrites the result before it tests it: that test is not
 * the helper's, so no fallback there; a third helper swallows the failure
 * (`break`, then `return 0`), so its caller's retry is no fallback of it.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

#define PIECE_SMALL	0
#define PIECE_BIG	1
#define PIECE_BIG_ORDER	9
#define MAX_REFUSED	16

struct piece_ctl {
	struct page *pg[64];
	unsigned int n_pages;
	unsigned int n_refused;
	int size;
};

struct piece_dev {
	unsigned long total;
	struct piece_ctl spare;
};

static int piece_fill(struct piece_ctl *ctl, unsigned int want)
{
	struct page *page;
	unsigned int i;

	for (i = 0; i < want && i < 64; i++) {
		if (ctl->size == PIECE_BIG)
			page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PIECE_BIG_ORDER); // warn: costly-no-noretry // site: order=9..9 fallback=caller-smaller fbat=82
		else
			page = alloc_page(GFP_KERNEL); // site: order=0..0 fallback=caller-smaller fbat=82
		if (page) {
			ctl->pg[i] = page;
			continue;
		}
		ctl->n_refused++;
		break;
	}
	ctl->n_pages = i;
	return i == want ? 0 : -ENOMEM;
}

static int piece_send(struct piece_dev *d, struct piece_ctl *ctl)
{
	return ctl->n_pages > 4 ? -EIO : 0;
}

static void piece_count(struct piece_dev *d, unsigned long n)
{
	d->total += n;
}

void piece_grow(struct piece_dev *d, unsigned long want)
{
	struct piece_ctl ctl = { .n_pages = 0, .size = PIECE_BIG };

	while (want) {
		int fill_err, send_err;

		fill_err = piece_fill(&ctl, want > 64 ? 64 : want);

		send_err = piece_send(d, &ctl);
		if (send_err)
			break;

		piece_count(d, ctl.n_pages);
		want -= ctl.n_pages < want ? ctl.n_pages : want;

		if (fill_err || ctl.n_refused >= MAX_REFUSED) {
			if (ctl.size == PIECE_SMALL)
				break;
			ctl.size--;
		}
	}
}
static int chunk_fill(struct piece_ctl *ctl)
{
	struct page *page = alloc_pages(GFP_KERNEL, PIECE_BIG_ORDER); // warn: costly-no-fallback // site: order=9..9 fallback=none

	if (!page)
		return -ENOMEM;
	ctl->pg[0] = page;
	ctl->n_pages = 1;
	return 0;
}

void chunk_grow(struct piece_dev *d, unsigned long want)
{
	struct piece_ctl ctl = { .n_pages = 0, .size = PIECE_BIG };

	while (want) {
		int err;

		err = chunk_fill(&ctl);
		piece_count(d, ctl.n_pages);
		err = piece_send(d, &ctl);
		want--;
		if (err) {
			ctl.size--;
			continue;
		}
	}
}
static int part_fill(struct piece_ctl *ctl)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		struct page *page = alloc_pages(GFP_KERNEL, PIECE_BIG_ORDER); // warn: costly-no-fallback // site: order=9..9 fallback=none

		if (!page)
			break;
		ctl->pg[i] = page;
	}
	ctl->n_pages = i;
	return 0;
}

void part_grow(struct piece_dev *d)
{
	struct piece_ctl ctl = { .n_pages = 0, .size = PIECE_BIG };
	int err;

	while (d->total < 64) {
		err = part_fill(&ctl);
		if (err) {
			ctl.size--;
			continue;
		}
		piece_count(d, ctl.n_pages);
	}
}
/*
 * check-name: a caller tests the result five statements after the call and steps down (caller-smaller)
 *
 * check-output-start
 * corpus/fallback-caller-late-test.c:39:11: warning: 'alloc_pages' can request order 9: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/fallback-caller-late-test.c:39:11: note: gfp GFP_KERNEL | __GFP_NOWARN
 * corpus/fallback-caller-late-test.c:39:11: note: fallback caller-smaller: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/fallback-caller-late-test.c:39:11: note: proven: every path asks for more than order 3
 * corpus/fallback-caller-late-test.c:88:22: warning: 'alloc_pages' can request order 9: no fallback [costly-no-fallback]
 * corpus/fallback-caller-late-test.c:88:22: note: gfp GFP_KERNEL
 * corpus/fallback-caller-late-test.c:88:22: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-late-test.c:88:22: note: proven: every path asks for more than order 3
 * corpus/fallback-caller-late-test.c:119:23: warning: 'alloc_pages' can request order 9: no fallback [costly-no-fallback]
 * corpus/fallback-caller-late-test.c:119:23: note: gfp GFP_KERNEL
 * corpus/fallback-caller-late-test.c:119:23: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-late-test.c:119:23: note: proven: every path asks for more than order 3
 * check-output-end
 */
