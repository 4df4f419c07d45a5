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
	return kzalloc(MAP_TABLE_BYTES, GFP_KERNEL); // note: costly-no-noretry // site: order=4..4 fallback=caller-other-path fbat=26
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
 * check-output-end
 */
