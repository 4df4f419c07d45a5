// a test input written for gfpaudit
/*
 * Test input for rules/costly_noretry.cocci (tests/t30-cocci.sh).
 * A line that must be reported ends with "cocci: RULE-ID"; every other
 * line must stay quiet ("cocci: ok" marks the interesting misses).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#define RING_ORDER	5
#define SMALL_ORDER	2
#define FRAG_MAX_ORDER	6
#define THP_ORDER	9

struct ring {
	struct page *pages;
	void *buf;
	unsigned int order;
};

/* explicit lower-order retry, mask from the caller */
static struct page *ring_alloc_pages(gfp_t gfp)
{
	struct page *page;

	page = alloc_pages(gfp, RING_ORDER); // cocci: costly-no-noretry
	if (!page)
		page = alloc_pages(gfp, 0);
	return page;
}

/* the same with NORETRY already there */
static struct page *ring_alloc_pages_quiet(gfp_t gfp)
{
	struct page *page;

	page = alloc_pages(gfp | __GFP_NORETRY | __GFP_NOWARN, RING_ORDER); // cocci: ok
	if (!page)
		page = alloc_pages(gfp, 0);
	return page;
}

/* declaration form, unlikely() check, vmalloc fallback */
static void *ring_buf_alloc(struct ring *r)
{
	unsigned long addr = __get_free_pages(GFP_KERNEL, 4); // cocci: costly-no-noretry

	if (unlikely(!addr)) {
		r->buf = vmalloc(16 * PAGE_SIZE);
		return r->buf;
	}
	r->buf = (void *)addr;
	return r->buf;
}

/* no direct reclaim: the attempt cannot stall */
static struct page *ring_alloc_atomic(int nid)
{
	struct page *page;

	page = alloc_pages_node(nid, GFP_ATOMIC | __GFP_COMP, RING_ORDER); // cocci: ok
	if (!page)
		page = alloc_pages_node(nid, GFP_ATOMIC, 0);
	return page;
}

/* direct reclaim cleared on the mask */
static struct page *ring_alloc_light(gfp_t gfp)
{
	struct page *page;

	page = alloc_pages((gfp | __GFP_COMP) & ~__GFP_DIRECT_RECLAIM, 6); // cocci: ok
	if (!page)
		page = alloc_pages(gfp, 0);
	return page;
}

/* not costly */
static struct page *ring_alloc_small(gfp_t gfp)
{
	struct page *page;

	page = alloc_pages(gfp, SMALL_ORDER); // cocci: ok
	if (!page)
		page = alloc_pages(gfp, 0);
	return page;
}

/* costly, but no fallback: costly-no-fallback, not this rule */
static int ring_init(struct ring *r)
{
	r->pages = alloc_pages(GFP_KERNEL, RING_ORDER); // cocci: costly-no-fallback
	if (!r->pages)
		return -ENOMEM;
	return 0;
}

/* a decreasing order loop */
static struct page *frag_refill(gfp_t gfp)
{
	struct page *page = NULL;
	int order;

	for (order = FRAG_MAX_ORDER; order >= 0; order--) {
		page = alloc_pages(gfp | __GFP_COMP, order); // cocci: costly-no-noretry
		if (page)
			break;
	}
	return page;
}

/* the same loop from an order the rule cannot know (nor can the C analyzer) */
static struct page *frag_refill_param(gfp_t gfp, int max_order)
{
	struct page *page = NULL;
	int order;

	for (order = max_order; order >= 0; order--) {
		page = alloc_pages(gfp | __GFP_COMP, order); // cocci: ok
		if (page)
			break;
	}
	return page;
}

/* the loop the page cache writes: NORETRY above the floor */
static struct folio *cache_alloc(gfp_t gfp, unsigned int order, unsigned int min_order)
{
	struct folio *folio = NULL;

	while (order >= min_order) {
		gfp_t alloc_gfp = gfp;

		if (order > min_order)
			alloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;
		folio = filemap_alloc_folio(alloc_gfp, order); // cocci: ok
		if (folio)
			break;
		if (!order)
			break;
		order--;
	}
	return folio;
}

/* the mask variable is built above the call */
static struct page *slab_like_alloc(gfp_t flags, unsigned int order, int node)
{
	struct page *page;
	gfp_t alloc_gfp = (flags | __GFP_NOWARN | __GFP_NORETRY) & ~__GFP_NOFAIL;

	page = alloc_pages_node(node, alloc_gfp, order); // cocci: ok
	if (unlikely(!page)) {
		alloc_gfp = flags;
		page = alloc_pages_node(node, alloc_gfp, 0);
	}
	return page;
}

/* NORETRY only on an unrelated condition: not certain */
static struct page *maybe_quiet_alloc(gfp_t gfp, bool quiet)
{
	struct page *page;

	if (quiet)
		gfp |= __GFP_NORETRY;
	page = alloc_pages(gfp, 7); // cocci: costly-no-noretry
	if (!page)
		page = alloc_pages(gfp, 1);
	return page;
}

/* a while loop that lowers the order in its condition */
static void *chunk_alloc(gfp_t gfp)
{
	struct page *page = NULL;
	unsigned int order = 8;

	while (!page && order-- > 0)
		page = alloc_pages(GFP_KERNEL, order); // cocci: costly-no-noretry
	return page ? page_address(page) : NULL;
}

/* readahead's mask helper carries NORETRY */
static struct folio *ra_alloc(struct address_space *mapping, unsigned int order)
{
	struct folio *folio;

	folio = filemap_alloc_folio(readahead_gfp_mask(mapping), order); // cocci: ok
	if (!folio)
		folio = filemap_alloc_folio(readahead_gfp_mask(mapping), 0);
	return folio;
}

static int thp_next_order(unsigned long *orders, int prev)
{
	*orders &= (1UL << prev) - 1;
	return *orders ? 63 - __builtin_clzl(*orders) : 0;
}

/* order lowered by a helper in the loop body */
static struct folio *thp_alloc(struct vm_area_struct *vma, unsigned long addr,
			       unsigned long orders)
{
	struct folio *folio;
	int order = THP_ORDER;

	while (orders) {
		folio = vma_alloc_folio(GFP_HIGHUSER_MOVABLE, order, vma, addr, true); // cocci: costly-no-noretry
		if (folio)
			return folio;
		order = thp_next_order(&orders, order);
	}
	return NULL;
}

/* the same order again is not a fallback (so: costly-no-fallback) */
static struct page *retry_same(gfp_t gfp)
{
	struct page *page;

	page = alloc_pages(gfp, 5); // cocci: costly-no-fallback
	if (!page)
		page = alloc_pages(gfp, 5); // cocci: costly-no-fallback
	return page;
}

/* a large kmalloc with a vmalloc fallback */
static void *table_alloc(void)
{
	void *t = kmalloc(SZ_128K, GFP_KERNEL | __GFP_NOWARN); // cocci: costly-no-noretry

	if (!t)
		t = vmalloc(SZ_128K);
	return t;
}

/* a small kmalloc is served by the slab caches */
static void *table_alloc_small(void)
{
	void *t = kmalloc(SZ_4K, GFP_KERNEL); // cocci: ok

	if (!t)
		t = vmalloc(SZ_4K);
	return t;
}

/* exact-size pages with a vmalloc fallback */
static void *log_alloc(void)
{
	void *log = alloc_pages_exact(SZ_256K, GFP_KERNEL); // cocci: costly-no-noretry

	if (!log)
		log = vzalloc(SZ_256K);
	return log;
}
