/*
 * A costly order under GFP_ATOMIC: it cannot stall, but it takes a free
 * block of that order or fails at once, and nothing falls back.  The
 * message says so (not "vmalloc would do": a kvmalloc with a mask that
 * cannot sleep is only its kmalloc).
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/errno.h>

struct pipe_ctx {
	u32 regs[20000];
};

struct pipe_ctx *pipe_ctx_create(void)
{
	struct pipe_ctx *p = kzalloc(sizeof(*p), GFP_ATOMIC); // warn: costly-no-fallback // site: order=5..5 stall=no

	if (!p)
		return NULL;
	memset(p->regs, 0xff, sizeof(p->regs));
	return p;
}
/*
 * check-name: a costly GFP_ATOMIC allocation: cannot stall, fails at once, no fallback
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/rule-costly-no-fallback-atomic.c:17:23: warning: 'kzalloc' can request order 5 (80000 bytes): no fallback [costly-no-fallback]
 * corpus/rule-costly-no-fallback-atomic.c:17:23: note: gfp GFP_ATOMIC | __GFP_ZERO
 * corpus/rule-costly-no-fallback-atomic.c:17:23: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/rule-costly-no-fallback-atomic.c:17:23: note: it cannot stall (no '__GFP_DIRECT_RECLAIM'): it takes a free block of that order or fails at once, and a kvmalloc with this mask is only its kmalloc
 * corpus/rule-costly-no-fallback-atomic.c:17:23: note: proven: every path asks for more than order 3
 * check-output-end
 */
