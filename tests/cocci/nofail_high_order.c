// a test input written for gfpaudit
/*
 * Test input for rules/nofail_high_order.cocci (tests/t30-cocci.sh).
 * A line that must be reported ends with "cocci: RULE-ID"; every other
 * line must stay quiet ("cocci: ok" marks the interesting misses).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sizes.h>

#define JOURNAL_ORDER	2
#define JOURNAL_GFP	(GFP_NOFS | __GFP_NOFAIL)

struct journal {
	struct page *pages;
	void *map;
	void *desc;
	void *tiny;
};

static void journal_grow(struct journal *j)
{
	j->pages = alloc_pages(GFP_NOFS | __GFP_NOFAIL, JOURNAL_ORDER); // cocci: nofail-high-order nopatch
}

static void journal_map(struct journal *j)
{
	j->map = kzalloc(SZ_16K, GFP_KERNEL | __GFP_NOFAIL); // cocci: nofail-high-order
}

static void journal_desc(struct journal *j, int nid)
{
	gfp_t gfp = GFP_KERNEL;

	gfp |= __GFP_NOFAIL;
	j->desc = (void *)__get_free_pages(gfp, 3); // cocci: nofail-high-order nopatch
	j->pages = alloc_pages_node(nid, JOURNAL_GFP, 4); // cocci: nofail-high-order costly-no-fallback nopatch
}

static void journal_release(struct journal *j)
{
	kfree(j->map);
}

/* order 1 is allowed */
static void journal_small(struct journal *j)
{
	j->pages = alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 1); // cocci: ok
	j->tiny = kmalloc(SZ_8K, GFP_KERNEL | __GFP_NOFAIL); // cocci: ok
}

/* NOFAIL only on some paths is not certain */
static void journal_maybe(struct journal *j, bool must)
{
	gfp_t gfp = GFP_KERNEL;

	if (must)
		gfp |= __GFP_NOFAIL;
	j->pages = alloc_pages(gfp, 4); // cocci: costly-no-fallback (NOFAIL is not certain)
}

/* kvmalloc drops NOFAIL from its kmalloc attempt itself */
static void journal_kv(struct journal *j)
{
	j->map = kvmalloc(SZ_1M, GFP_KERNEL | __GFP_NOFAIL); // cocci: ok
}

/* an unknown order is not judged */
static void journal_param(struct journal *j, unsigned int order)
{
	j->pages = alloc_pages(GFP_KERNEL | __GFP_NOFAIL, order); // cocci: ok
}
