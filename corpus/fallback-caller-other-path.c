/*
 * A helper allocates a 64 KiB table with kzalloc and hands a NULL back;
 * its only caller tries vzalloc then.  The fallback is in the caller.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/errno.h>

#define MAP_TABLE_BYTES	(64 * 1024)

struct map_ctx {
	void *table;
};

static void *map_table_alloc(void)
{
	return kzalloc(MAP_TABLE_BYTES, GFP_KERNEL); // warn: costly-no-noretry // site: order=4..4 fallback=caller-other-path fbat=26
}

int map_init(struct map_ctx *m)
{
	void *t = map_table_alloc();

	if (!t)
		t = vzalloc(MAP_TABLE_BYTES);
	if (!t)
		return -ENOMEM;
	m->table = t;
	return 0;
}
/*
 * check-name: a caller in the file falls back to vzalloc (caller-other-path)
 *
 * check-output-start
 * corpus/fallback-caller-other-path.c:18:9: warning: 'kzalloc' can request order 4 (64 KiB): no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/fallback-caller-other-path.c:18:9: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/fallback-caller-other-path.c:18:9: note: fallback caller-other-path: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/fallback-caller-other-path.c:18:9: note: proven: every path asks for more than order 3
 * check-output-end
 */
