/*
 * __GFP_NORETRY asks to give up early, __GFP_NOFAIL never to give up: the
 * allocator lets NOFAIL win without saying so.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct meta {
	struct page *page;
};

void meta_init(struct meta *m)
{
	m->page = alloc_page(GFP_KERNEL | __GFP_NORETRY | __GFP_NOFAIL); // warn: gfp-contradiction // site: order=0..0 api=alloc_page must=NORETRY|NOFAIL
}
/*
 * check-name: gfp-contradiction: NORETRY with NOFAIL
 *
 * check-output-start
 * corpus/rule-gfp-contradiction-noretry-nofail.c:14:12: error: 'alloc_page' can request order 0: contradictory gfp flags [gfp-contradiction]
 * corpus/rule-gfp-contradiction-noretry-nofail.c:14:12: note: gfp GFP_KERNEL | __GFP_NOFAIL | __GFP_NORETRY
 * corpus/rule-gfp-contradiction-noretry-nofail.c:14:12: note: fallback none: '__GFP_NORETRY' with '__GFP_NOFAIL': the allocator ignores NORETRY and never fails
 * check-output-end
 */
