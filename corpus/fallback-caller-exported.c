/*
 * The failure travels up through an exported function before a caller
 * copes (the mm/huge_memory.c shape): zp_alloc() is static, allocates
 * order 9 and returns false on failure; the exported zp_get() returns NULL
 * when zp_alloc() failed; zp_fault() returns ZP_FAULT_FALLBACK on NULL
 * (small pages), and zp_copy() only takes a reference, discarding the
 * result.  zp_get()'s callers may be in any file: the site takes their
 * handling from the fact base's fails:zp_get, here the callers of this
 * file.  When an exported function's caller returns the error
 * (zp_ring_get()), nothing copes; a static function handed on by an
 * exported function nobody calls (zp_spare_get()) has no caller the tree
 * shows.
 */
#include <linux/gfp.h>
#include <linux/types.h>
#include <linux/errno.h>

#define ZP_ORDER	9

enum zp_fault {
	ZP_FAULT_DONE,
	ZP_FAULT_OOM,
	ZP_FAULT_FALLBACK,
};

struct zp_mm {
	struct page *zero;
	struct page *ring;
	struct page *spare;
	unsigned long flags;
};

static bool zp_alloc(struct zp_mm *mm)
{
	mm->zero = alloc_pages(GFP_KERNEL | __GFP_ZERO, ZP_ORDER); // warn: costly-no-noretry // site: order=9..9 fallback=caller-smaller fbat=54
	if (!mm->zero)
		return false;
	return true;
}

struct page *zp_get(struct zp_mm *mm)
{
	if (mm->flags & 1)
		return mm->zero;
	if (!zp_alloc(mm))
		return NULL;
	mm->flags |= 1;
	return mm->zero;
}

enum zp_fault zp_fault(struct zp_mm *mm)
{
	if (!zp_get(mm))
		return ZP_FAULT_FALLBACK;
	return ZP_FAULT_DONE;
}

void zp_copy(struct zp_mm *dst)
{
	zp_get(dst);
}

/* an exported function whose caller returns the error: nothing copes */
static bool zp_ring_alloc(struct zp_mm *mm)
{
	mm->ring = alloc_pages(GFP_KERNEL, ZP_ORDER); // warn: costly-no-fallback // site: order=9..9 fallback=none
	return mm->ring != NULL;
}

struct page *zp_ring_get(struct zp_mm *mm)
{
	if (!zp_ring_alloc(mm))
		return NULL;
	return mm->ring;
}

int zp_ring_init(struct zp_mm *mm)
{
	if (!zp_ring_get(mm))
		return -ENOMEM;
	return 0;
}

/* an exported function nobody calls: no caller the tree shows */
static bool zp_spare_alloc(struct zp_mm *mm)
{
	mm->spare = alloc_pages(GFP_KERNEL, ZP_ORDER); // warn: costly-no-fallback // site: order=9..9 fallback=none
	return mm->spare != NULL;
}

struct page *zp_spare_get(struct zp_mm *mm)
{
	if (!zp_spare_alloc(mm))
		return NULL;
	return mm->spare;
}
/*
 * check-name: an exported function hands a static one's failure to callers that cope (forwarded)
 *
 * check-output-start
 * corpus/fallback-caller-exported.c:35:13: warning: 'alloc_pages' can request order 9: no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/fallback-caller-exported.c:35:13: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/fallback-caller-exported.c:35:13: note: fallback caller-smaller: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/fallback-caller-exported.c:35:13: note: proven: every path asks for more than order 3
 * corpus/fallback-caller-exported.c:66:13: warning: 'alloc_pages' can request order 9: no fallback [costly-no-fallback]
 * corpus/fallback-caller-exported.c:66:13: note: gfp GFP_KERNEL
 * corpus/fallback-caller-exported.c:66:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-exported.c:66:13: note: proven: every path asks for more than order 3
 * corpus/fallback-caller-exported.c:87:14: warning: 'alloc_pages' can request order 9: no fallback [costly-no-fallback]
 * corpus/fallback-caller-exported.c:87:14: note: gfp GFP_KERNEL
 * corpus/fallback-caller-exported.c:87:14: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-exported.c:87:14: note: proven: every path asks for more than order 3
 * check-output-end
 */
