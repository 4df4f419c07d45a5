/*
 * A read sink that wants order-4 contiguous pages and has no way back to
 * smaller pages: under fragmentation the request just fails (the svcrdma
 * order-4 sinks that went from 74 to 30 GiB/s).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct read_sink {
	struct page *pages;
	unsigned int len;
};

int read_sink_init(struct read_sink *sink)
{
	sink->pages = alloc_pages(GFP_KERNEL, 4); // warn: costly-no-fallback // site: order=4..4 fallback=none api=alloc_pages must=DIRECT_RECLAIM|KSWAPD_RECLAIM|IO|FS mustnot=NORETRY|NOWARN
	if (!sink->pages)
		return -ENOMEM;
	sink->len = PAGE_SIZE << 4;
	return 0;
}
/*
 * check-name: costly-no-fallback: literal order 4, GFP_KERNEL, error return only
 *
 * check-output-start
 * corpus/rule-costly-no-fallback-hit.c:17:16: warning: 'alloc_pages' can request order 4: no fallback [costly-no-fallback]
 * corpus/rule-costly-no-fallback-hit.c:17:16: note: gfp GFP_KERNEL
 * corpus/rule-costly-no-fallback-hit.c:17:16: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/rule-costly-no-fallback-hit.c:17:16: note: proven: every path asks for more than order 3
 * check-output-end
 */
