/*
 * A module parameter sets a ring's page order: the administrator controls
 * it, so the order is "likely" costly whatever its default.  A constant
 * order above 3 is "proven".
 */
#include <linux/module.h>
#include <linux/gfp.h>
#include <linux/mm.h>

static unsigned int ring_order = 2;
module_param(ring_order, uint, 0444);

struct page *ring_alloc(void)
{
	return alloc_pages(GFP_KERNEL, ring_order); // note: costly-no-fallback // site: order=0..10 conf=likely src=param
}

struct page *stats_alloc(void)
{
	return alloc_pages(GFP_KERNEL, 5); // warn: costly-no-fallback // site: order=5..5 conf=proven src=const
}
/*
 * check-name: a module parameter as the order: likely; a constant: proven
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/prov-param.c:15:9: note: 'alloc_pages' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-param.c:15:9: note: gfp GFP_KERNEL
 * corpus/prov-param.c:15:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-param.c:15:9: note: likely: the order comes from module parameter 'ring_order' (default 2) (line 15), and nothing here bounds it below order 4
 * corpus/prov-param.c:20:9: warning: 'alloc_pages' can request order 5: no fallback [costly-no-fallback]
 * corpus/prov-param.c:20:9: note: gfp GFP_KERNEL
 * corpus/prov-param.c:20:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-param.c:20:9: note: proven: every path asks for more than order 3
 * check-output-end
 */
