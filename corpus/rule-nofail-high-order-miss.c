/*
 * __GFP_NOFAIL at order 1 is allowed; a NOFAIL that only some paths add is
 * not reported (the rule wants it on every path).
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct journal {
	struct page *hdr;
	struct page *log;
};

void journal_init(struct journal *j, bool must_succeed)
{
	gfp_t gfp = GFP_NOFS;

	j->hdr = alloc_pages(GFP_NOFS | __GFP_NOFAIL, 1); // ok // site: order=1..1 must=NOFAIL
	if (must_succeed)
		gfp |= __GFP_NOFAIL;
	j->log = alloc_pages(gfp, 2); // ok // site: order=2..2 may=NOFAIL
}
/*
 * check-name: nofail-high-order miss: order 1, and NOFAIL on some paths only
 *
 * check-output-start
 * check-output-end
 */
