// a test input written for gfpaudit
/*
 * Test input for rules/costly_no_fallback.cocci (tests/t30-cocci.sh).
 * A line that must be reported ends with "cocci: RULE-ID"; every other
 * line must stay quiet ("cocci: ok" marks the interesting misses).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/vmalloc.h>

#define DESC_RING_ORDER		4
#define DESC_RING_BYTES		(DESC_RING_ORDER * SZ_16K)
#define CMD_BUF_ORDER		get_order(SZ_256K)

struct dev_ring {
	struct page *pages;
	struct folio *folio;
	unsigned long table;
	void *cmd;
	void *log;
};

static int ring_setup(struct dev_ring *r)
{
	r->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, DESC_RING_ORDER); // cocci: costly-no-fallback
	if (!r->pages)
		return -ENOMEM;
	return 0;
}

static int table_setup(struct dev_ring *r)
{
	r->table = __get_free_pages(GFP_KERNEL, get_order(DESC_RING_BYTES)); // cocci: costly-no-fallback
	if (!r->table)
		goto err;
	return 0;
err:
	return -ENOMEM;
}

static int cmd_setup(struct dev_ring *r, int nid)
{
	struct page *page = alloc_pages_node(nid, GFP_KERNEL, CMD_BUF_ORDER); // cocci: costly-no-fallback

	if (unlikely(!page))
		return -ENOMEM;
	r->cmd = page_address(page);
	return 0;
}

static int log_setup(struct dev_ring *r)
{
	r->log = alloc_pages_exact(SZ_1M, GFP_KERNEL); // cocci: costly-no-fallback
	if (!r->log)
		return -ENOMEM;
	return 0;
}

/* exactly PAGE_ALLOC_COSTLY_ORDER: not costly */
static int small_setup(struct dev_ring *r)
{
	r->pages = alloc_pages(GFP_KERNEL, 3); // cocci: ok
	if (!r->pages)
		return -ENOMEM;
	r->log = alloc_pages_exact(SZ_32K, GFP_KERNEL); // cocci: ok
	if (!r->log)
		return -ENOMEM;
	return 0;
}

/* a vmalloc fallback */
static int log_setup_vmalloc(struct dev_ring *r)
{
	r->log = alloc_pages_exact(SZ_128K, GFP_KERNEL | __GFP_NOWARN); // cocci: costly-no-noretry
	if (!r->log) {
		r->log = vzalloc(SZ_128K);
		if (!r->log)
			return -ENOMEM;
	}
	return 0;
}

/* a lower-order retry */
static int ring_setup_retry(struct dev_ring *r)
{
	r->pages = alloc_pages(GFP_KERNEL | __GFP_NORETRY, 5); // cocci: ok
	if (!r->pages)
		r->pages = alloc_pages(GFP_KERNEL, 0);
	return r->pages ? 0 : -ENOMEM;
}

/* the order comes from a plain variable assigned above */
static int pool_grow(struct dev_ring *r)
{
	unsigned int order;

	order = 6;
	r->pages = alloc_pages(GFP_KERNEL, order); // cocci: costly-no-fallback
	if (!r->pages)
		return -ENOMEM;
	return 0;
}

/* an unknown order is not judged here */
static int pool_grow_param(struct dev_ring *r, unsigned int order)
{
	r->pages = alloc_pages(GFP_KERNEL, order); // cocci: ok
	if (!r->pages)
		return -ENOMEM;
	return 0;
}

/* returned unchecked: still no fallback here (the C analyzer agrees) */
static struct page *ring_pages(void)
{
	return alloc_pages(GFP_KERNEL, 5); // cocci: costly-no-fallback
}

/* the check inside the condition */
static int ring_setup_inline(struct dev_ring *r)
{
	if (!(r->folio = folio_alloc(GFP_KERNEL, 9))) // cocci: costly-no-fallback
		return -ENOMEM;
	return 0;
}
