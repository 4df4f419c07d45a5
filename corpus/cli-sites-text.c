/*
 * --sites prints every site with its facts in text form, flagged or not.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct pair {
	struct page *small;
	struct page *big;
};

int pair_init(struct pair *p)
{
	p->small = alloc_pages(GFP_KERNEL, 1); // ok // site: order=1..1
	if (!p->small)
		return -ENOMEM;
	p->big = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, 4); // warn: costly-no-fallback // site: order=4..4 fallback=none must=NORETRY
	if (!p->big)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: --sites text output lists both sites and the finding
 * check-command: gfpaudit audit --sites $file
 *
 * check-output-start
 * corpus/cli-sites-text.c:15:13: site: 'alloc_pages' in 'pair_init': order 1, gfp GFP_KERNEL, fallback none
 * corpus/cli-sites-text.c:18:11: site: 'alloc_pages' in 'pair_init': order 4, gfp GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY, fallback none
 * corpus/cli-sites-text.c:18:11: warning: 'alloc_pages' can request order 4: no fallback [costly-no-fallback]
 * corpus/cli-sites-text.c:18:11: note: gfp GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY
 * corpus/cli-sites-text.c:18:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/cli-sites-text.c:18:11: note: proven: every path asks for more than order 3
 * check-output-end
 */
