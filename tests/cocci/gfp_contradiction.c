// a test input written for gfpaudit
/*
 * Test input for rules/gfp_contradiction.cocci (tests/t30-cocci.sh).
 * A line that must be reported ends with "cocci: RULE-ID"; every other
 * line must stay quiet ("cocci: ok" marks the interesting misses).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/sizes.h>

#define META_GFP	(GFP_KERNEL | __GFP_RETRY_MAYFAIL)

struct meta {
	struct page *page;
	void *buf;
	void *tab;
};

static void meta_fill(struct meta *m)
{
	m->page = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOFAIL, 0); // cocci: gfp-contradiction
	m->buf = kmalloc(SZ_16K, GFP_NOFS | __GFP_NOFAIL | __GFP_NORETRY); // cocci: gfp-contradiction nofail-high-order
}

static int meta_table(struct meta *m, size_t n)
{
	m->tab = kvmalloc_array(1024, 64, META_GFP | __GFP_NORETRY); // cocci: gfp-contradiction nopatch
	return m->tab ? 0 : -ENOMEM;
}

static void meta_atomic(struct meta *m)
{
	m->page = alloc_page(GFP_ATOMIC | __GFP_NOFAIL); // cocci: gfp-contradiction nopatch
	m->buf = kzalloc(SZ_16K, GFP_ATOMIC | __GFP_NOFAIL); // cocci: gfp-contradiction nofail-high-order nopatch
	m->buf = kzalloc(64, GFP_NOWAIT | __GFP_NOFAIL); // cocci: ok (slab caches serve it: not a page-allocator site)
}

static void meta_var(struct meta *m)
{
	gfp_t gfp = GFP_KERNEL | __GFP_NOFAIL;

	gfp |= __GFP_NORETRY;
	m->page = alloc_pages(gfp, 0); // cocci: gfp-contradiction nopatch
}

/* the allocator gets reclaim back through the caller mask: unknown */
static void meta_param(struct meta *m, gfp_t gfp)
{
	m->page = alloc_pages(gfp | __GFP_NOFAIL, 0); // cocci: ok
}

/* a flag that only some paths set is not a contradiction on every path */
static void meta_maybe(struct meta *m, bool quick)
{
	gfp_t gfp = GFP_KERNEL | __GFP_NOFAIL;

	if (quick)
		gfp |= __GFP_NORETRY;
	m->page = alloc_pages(gfp, 0); // cocci: ok
}

/* ordinary masks */
static void meta_plain(struct meta *m)
{
	m->page = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, 2); // cocci: ok
	m->buf = kmalloc(64, GFP_KERNEL | __GFP_NOFAIL); // cocci: ok
	m->tab = __vmalloc(SZ_1M, GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NORETRY); // cocci: ok (vmalloc is no page-allocator site)
}
