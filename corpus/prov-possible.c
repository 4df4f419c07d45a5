/*
 * Sizes that only runtime or unknown data would make costly are "possible"
 * and reported as notes: the number of CPUs times a big per-CPU record; a
 * u16 count read from a field nothing in the file stores (its type's width
 * is no realistic bound); a parameter of an exported function.
 */
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/errno.h>

struct pcpu_stat {
	u64 ctr[64];
};

struct queue_set {
	u16 nr_queues;
	void *qs;
};

struct pcpu_stat *stats_alloc(void)
{
	return kcalloc(num_possible_cpus(), sizeof(struct pcpu_stat), GFP_KERNEL); // note: costly-no-fallback // site: conf=possible src=runtime
}

int queues_alloc(struct queue_set *s)
{
	s->qs = kcalloc(s->nr_queues, 128, GFP_KERNEL); // note: costly-no-fallback // site: order=0..10 conf=possible src=unknown
	return s->qs ? 0 : -ENOMEM;
}

void *buf_alloc(size_t len)
{
	return kmalloc(len, GFP_KERNEL); // site: order=? conf=none
}
/*
 * check-name: runtime and unknown sizes: possible, notes
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/prov-possible.c:22:9: note: 'kcalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-possible.c:22:9: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/prov-possible.c:22:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-possible.c:22:9: note: possible: the size comes from the number of CPUs (line 22), whose values are not known here
 * corpus/prov-possible.c:27:10: note: 'kcalloc' can request order 0..10 (up to 8388480 bytes): no fallback [costly-no-fallback]
 * corpus/prov-possible.c:27:10: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/prov-possible.c:27:10: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-possible.c:27:10: note: possible: the size comes from field 'queue_set.nr_queues', whose values are not known here
 * check-output-end
 */
