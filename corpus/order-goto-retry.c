/*
 * A goto retry at a lower order: first order 5, then order 0.  The costly
 * attempt keeps direct reclaim and has no NORETRY.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

#define MSG_BIG_ORDER	5

struct msg_buf {
	struct page *page;
	unsigned int order;
};

int msg_buf_alloc(struct msg_buf *m)
{
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN;
	unsigned int order = MSG_BIG_ORDER;
	struct page *page;

retry:
	page = alloc_pages(gfp, order); // warn: costly-no-noretry // site: order=0..5 must=NOWARN mustnot=NORETRY
	if (!page) {
		if (order) {
			order = 0;
			goto retry;
		}
		return -ENOMEM;
	}
	m->page = page;
	m->order = order;
	return 0;
}
/*
 * check-name: goto retry at order 0 after an order-5 attempt
 *
 * check-output-start
 * corpus/order-goto-retry.c:23:9: warning: 'alloc_pages' can request order 0..5: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/order-goto-retry.c:23:9: note: gfp GFP_KERNEL | __GFP_NOWARN
 * corpus/order-goto-retry.c:23:9: note: fallback order-loop: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/order-goto-retry.c:23:9: note: proven: constants give the order
 * check-output-end
 */
