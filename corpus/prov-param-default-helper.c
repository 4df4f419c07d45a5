/*
 * A module parameter read through a helper that takes no argument: the
 * run at the parameters' defaults must not leave its answer where the
 * other functions' runs read the helper's (the cache of summaries with
 * every argument unknown).  Both rings are 4096 entries of 16 bytes by
 * default (64 KiB, order 4, proven); what the code asks for in general is
 * still any order the parameter allows.
 */
#include <linux/module.h>
#include <linux/slab.h>

static unsigned int ring_entries = 4096;
module_param(ring_entries, uint, 0444);

static unsigned int ring_bytes(void)
{
	return ring_entries * 16;
}

void *ring_rx(void)
{
	return kmalloc(ring_bytes(), GFP_KERNEL); // warn: costly-no-fallback // site: order=0..10 conf=proven src=param
}

void *ring_tx(void)
{
	return kmalloc(ring_bytes(), GFP_KERNEL); // warn: costly-no-fallback // site: order=0..10 conf=proven src=param
}
/*
 * check-name: a parameter's default read through a helper: the helpers' cache keeps the general answer
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/prov-param-default-helper.c:22:9: warning: 'kmalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-param-default-helper.c:22:9: note: gfp GFP_KERNEL
 * corpus/prov-param-default-helper.c:22:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-param-default-helper.c:22:9: note: proven: the size comes from module parameter 'ring_entries' (default 4096) (line 17), whose default already makes it costly
 * corpus/prov-param-default-helper.c:27:9: warning: 'kmalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-param-default-helper.c:27:9: note: gfp GFP_KERNEL
 * corpus/prov-param-default-helper.c:27:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-param-default-helper.c:27:9: note: proven: the size comes from module parameter 'ring_entries' (default 4096) (line 17), whose default already makes it costly
 * check-output-end
 */
