/*
 * A hand-rolled kvmalloc (kmalloc, then vmalloc when it fails) whose size
 * only user or module-parameter data makes costly: "likely", which is a
 * note for the other fallbacks, but the vmalloc fallback says its author
 * expects sizes past the slab's reach, so the kmalloc attempt without
 * __GFP_NORETRY is a warning.  A size only the CPU count makes costly
 * ("possible") stays a note.
 */
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#include <linux/cpumask.h>

static unsigned int map_entries = 256;
module_param(map_entries, uint, 0444);

struct map_entry {
	u64 key;
	u64 val;
};

struct map_entry *map_table_alloc(void)
{
	size_t size = map_entries * sizeof(struct map_entry);
	struct map_entry *t;

	t = kmalloc(size, GFP_KERNEL | __GFP_NOWARN); // warn: costly-no-noretry // site: fallback=vmalloc conf=likely src=param
	if (!t)
		t = vmalloc(size);
	return t;
}

void *map_stats_alloc(void)
{
	size_t size = nr_cpu_ids * 256;
	void *p;

	p = kmalloc(size, GFP_KERNEL | __GFP_NOWARN); // note: costly-no-noretry // site: fallback=vmalloc conf=possible src=runtime
	if (!p)
		p = vmalloc(size);
	return p;
}
/*
 * check-name: a hand-rolled kvmalloc with a likely costly size: a warning; a possible one: a note
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/rule-costly-no-noretry-vmalloc-likely.c:28:6: warning: 'kmalloc' can request order 0..10: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/rule-costly-no-noretry-vmalloc-likely.c:28:6: note: gfp GFP_KERNEL | __GFP_NOWARN
 * corpus/rule-costly-no-noretry-vmalloc-likely.c:28:6: note: fallback vmalloc: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/rule-costly-no-noretry-vmalloc-likely.c:28:6: note: likely: the size comes from module parameter 'map_entries' (default 256) (line 25), and nothing here bounds it below order 4
 * corpus/rule-costly-no-noretry-vmalloc-likely.c:28:6: note: a warning although the size is only likely: the vmalloc fallback says the code expects such sizes
 * corpus/rule-costly-no-noretry-vmalloc-likely.c:39:6: note: 'kmalloc' can request order 0..10: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/rule-costly-no-noretry-vmalloc-likely.c:39:6: note: gfp GFP_KERNEL | __GFP_NOWARN
 * corpus/rule-costly-no-noretry-vmalloc-likely.c:39:6: note: fallback vmalloc: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/rule-costly-no-noretry-vmalloc-likely.c:39:6: note: possible: the size comes from nr_cpu_ids (line 36), whose values are not known here
 * check-output-end
 */
