/*
 * A batch filler that tries large folios first: a failed attempt breaks
 * out of the loop, the function returns only when every attempt worked,
 * and otherwise goes on to the order-0 filler of the same file.  That
 * filler is the fallback (other-path).  When what follows the success test
 * allocates nothing (a statistics update), or the failure is handed back,
 * there is no fallback.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct batch {
	struct page *pages[64];
	unsigned int nr;
	unsigned long misses;
};

static int batch_add(struct batch *b, unsigned int order, gfp_t gfp)
{
	struct page *p = alloc_pages(gfp, order); // ok // site: order=?
	if (!p)
		return -ENOMEM;
	b->pages[b->nr++] = p;
	return 0;
}

static void batch_fill_small(struct batch *b, unsigned int want, gfp_t gfp)
{
	while (b->nr < want) {
		struct page *p = alloc_page(gfp); // ok // site: order=0..0 fallback=none
		if (!p)
			break;
		b->pages[b->nr++] = p;
	}
}

static void batch_note_miss(struct batch *b)
{
	b->misses++;
}

void batch_fill(struct batch *b, unsigned int want)
{
	gfp_t gfp = GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN;
	int err = 0;

	while (b->nr < want && b->nr < 8) {
		err = batch_add(b, 5, gfp); // ok // site: order=5..5 fallback=other-path
		if (err)
			break;
	}
	if (!err)
		return;
	batch_fill_small(b, want, gfp & ~__GFP_NORETRY);
}

void batch_fill_counted(struct batch *b, unsigned int want)
{
	int err = 0;

	while (b->nr < want && b->nr < 8) {
		err = batch_add(b, 5, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 fallback=none
		if (err)
			break;
	}
	if (!err)
		return;
	batch_note_miss(b);
}

int batch_fill_strict(struct batch *b, unsigned int want)
{
	int err = 0;

	while (b->nr < want && b->nr < 8) {
		err = batch_add(b, 5, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 fallback=none
		if (err)
			return err;
	}
	if (!err)
		return 0;
	batch_fill_small(b, want, GFP_KERNEL);
	return 0;
}
/*
 * check-name: the function's own other path after a success test is a fallback
 *
 * check-output-start
 * corpus/fallback-other-path-local.c:63:9: warning: 'batch_add' can request order 5: no fallback [costly-no-fallback]
 * corpus/fallback-other-path-local.c:63:9: note: gfp GFP_KERNEL
 * corpus/fallback-other-path-local.c:63:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-other-path-local.c:63:9: note: proven: every path asks for more than order 3
 * corpus/fallback-other-path-local.c:77:9: warning: 'batch_add' can request order 5: no fallback [costly-no-fallback]
 * corpus/fallback-other-path-local.c:77:9: note: gfp GFP_KERNEL
 * corpus/fallback-other-path-local.c:77:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-other-path-local.c:77:9: note: proven: every path asks for more than order 3
 * check-output-end
 */
