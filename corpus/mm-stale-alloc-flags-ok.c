/*
 * alloc_flags kept in step with their mask: derived again after the mask
 * changes, derived together with the mask they are used with, or not used
 * after the change.  No finding.
 */
#include <linux/gfp.h>

#define ALLOC_WMARK_LOW		0x01
#define ALLOC_CPUSET		0x40
#define ALLOC_KSWAPD		0x800

struct page;
struct alloc_context;

unsigned int gfp_to_alloc_flags(gfp_t gfp_mask, unsigned int order);
unsigned int alloc_flags_nofragment(void *zone, gfp_t gfp_mask);
bool prepare_alloc_pages(gfp_t gfp_mask, unsigned int order, int nid,
			 struct alloc_context *ac, gfp_t *alloc_gfp,
			 unsigned int *alloc_flags);
struct page *get_page_from_freelist(gfp_t gfp_mask, unsigned int order,
				    int alloc_flags, const struct alloc_context *ac);
struct page *toy_slow(gfp_t gfp_mask, unsigned int order, struct alloc_context *ac);
bool toy_should_retry(const struct alloc_context *ac);

struct page *toy_rederived(gfp_t gfp_mask, unsigned int order,
			   struct alloc_context *ac)
{
	unsigned int alloc_flags;
	struct page *page;

retry:
	alloc_flags = gfp_to_alloc_flags(gfp_mask, order);
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (!page && toy_should_retry(ac)) {
		gfp_mask |= __GFP_HIGH;
		goto retry;
	}
	return page;
}

/* prepare_alloc_pages() derives the flags and the mask together */
struct page *toy_prepared(gfp_t gfp, unsigned int order, int nid,
			  struct alloc_context *ac)
{
	unsigned int alloc_flags = ALLOC_WMARK_LOW;
	gfp_t alloc_gfp = gfp;
	struct page *page;

	if (!prepare_alloc_pages(gfp, order, nid, ac, &alloc_gfp, &alloc_flags))
		return NULL;
	gfp = alloc_gfp;
	alloc_flags |= alloc_flags_nofragment(NULL, gfp);
	page = get_page_from_freelist(gfp, order, alloc_flags, ac);
	if (page)
		return page;
	/* the slow path derives its own flags from the mask it is given */
	alloc_gfp = gfp & ~__GFP_HARDWALL;
	return toy_slow(alloc_gfp, order, ac);
}
/*
 * check-name: alloc_flags derived again, derived with their mask, or unused after a change
 *
 * check-output-start
 * check-output-end
 */
