// a test input written for gfpaudit
/*
 * Read sinks of a fixed order, in the shape of the svcrdma ones that went
 * back to order-0 pages: the order is a macro of this file, so changing
 * it where it is defined keeps every size in step (costly-no-fallback).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

#define SINK_ORDER	4

struct read_sink {
	struct page *page;
	unsigned int len;
};

int read_sink_init(struct read_sink *s)
{
	s->page = alloc_pages(GFP_KERNEL, SINK_ORDER);
	if (!s->page)
		return -ENOMEM;
	s->len = PAGE_SIZE << SINK_ORDER;
	return 0;
}

void read_sink_release(struct read_sink *s)
{
	__free_pages(s->page, SINK_ORDER);
}
