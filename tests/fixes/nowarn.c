// a test input written for gfpaudit
/*
 * A best-effort high-order buffer: __GFP_NORETRY says failure is fine,
 * but without __GFP_NOWARN each failure prints a splat
 * (noretry-without-nowarn).
 */
#include <linux/gfp.h>
#include <linux/mm.h>

struct stash {
	struct page *big;
};

void stash_try_grow(struct stash *st)
{
	st->big = alloc_pages(GFP_KERNEL | __GFP_NORETRY, 2);
}
