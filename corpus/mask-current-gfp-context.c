/*
 * current_gfp_context() narrows GFP_KERNEL to the task's NOIO/NOFS scope:
 * IO and FS become "may", reclaim stays.  Order 4 with no fallback.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/errno.h>

struct bio_pool {
	struct page *pages;
};

int bio_pool_init(struct bio_pool *bp)
{
	gfp_t gfp = current_gfp_context(GFP_KERNEL);

	bp->pages = alloc_pages(gfp, 4); // warn: costly-no-fallback // site: order=4..4 fallback=none must=DIRECT_RECLAIM|KSWAPD_RECLAIM may=IO|FS mustnot=NORETRY
	if (!bp->pages)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: mask from current_gfp_context(GFP_KERNEL): IO and FS only "may"
 *
 * check-output-start
 * corpus/mask-current-gfp-context.c:18:14: warning: 'alloc_pages' can request order 4: no fallback [costly-no-fallback]
 * corpus/mask-current-gfp-context.c:18:14: note: gfp GFP_NOIO, maybe __GFP_IO | __GFP_FS
 * corpus/mask-current-gfp-context.c:18:14: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/mask-current-gfp-context.c:18:14: note: proven: every path asks for more than order 3
 * check-output-end
 */
