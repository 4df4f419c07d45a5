/*
 * Module parameters at their defaults.  A ring of 128 request slots of
 * 576 bytes each is 72 KiB (order 5) as the module ships: proven, whatever
 * the parameter may be set to.  A table of 64 pointers by default is
 * small: only an administrator who raises it makes it costly (likely).  A
 * default that is costly only beside a value nothing here bounds proves
 * nothing.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/types.h>

static unsigned int comp_size = 128;
module_param(comp_size, uint, 0444);

static unsigned int queue_size = 64;
module_param(queue_size, uint, 0644);

struct req_slot {
	u64 words[72];
};

struct req_queue {
	struct req_slot *slots;
	void **events;
	u32 *lens;
};

int req_queue_init(struct req_queue *q)
{
	q->slots = kcalloc(comp_size, sizeof(*q->slots), GFP_KERNEL); // warn: costly-no-fallback // site: order=0..10 conf=proven src=param
	if (!q->slots)
		return -ENOMEM;
	q->events = kcalloc(queue_size, sizeof(void *), GFP_KERNEL); // note: costly-no-fallback // site: order=0..10 conf=likely src=param
	if (!q->events)
		return -ENOMEM;
	return 0;
}

int req_queue_lens(struct req_queue *q, unsigned int per_slot)
{
	q->lens = kcalloc(comp_size * per_slot, 4096, GFP_KERNEL); // note: costly-no-fallback // site: order=0..10 conf=likely src=param
	if (!q->lens)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: a module parameter whose default makes a costly order: proven
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/prov-param-default.c:31:13: warning: 'kcalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-param-default.c:31:13: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/prov-param-default.c:31:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-param-default.c:31:13: note: proven: the size comes from module parameter 'comp_size' (default 128) (line 31), whose default already makes it costly
 * corpus/prov-param-default.c:34:14: note: 'kcalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-param-default.c:34:14: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/prov-param-default.c:34:14: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-param-default.c:34:14: note: likely: the size comes from module parameter 'queue_size' (default 64) (line 34), and nothing here bounds it below order 4
 * corpus/prov-param-default.c:42:12: note: 'kcalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-param-default.c:42:12: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/prov-param-default.c:42:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-param-default.c:42:12: note: likely: the size comes from module parameter 'comp_size' (default 128) (line 42), and nothing here bounds it below order 4
 * check-output-end
 */
