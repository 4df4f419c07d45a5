/*
 * __GFP_RETRY_MAYFAIL on a costly kvmalloc attempt (the kmalloc-then-vmalloc
 * attempt with the flag is costly-no-noretry's):
 * reclaim and compaction retry in full before the vmalloc fallback.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct map_update {
	void *vals;
	void *keys;
};

int map_update_prepare(struct map_update *u)
{
	u->vals = kvmalloc(SZ_256K, GFP_KERNEL | __GFP_RETRY_MAYFAIL); // warn: costly-retry-mayfail // site: order=6..6 fallback=kvmalloc api=kvmalloc must=RETRY_MAYFAIL mustnot=NORETRY
	if (!u->vals)
		return -ENOMEM;
	u->keys = kmalloc(SZ_128K, GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN); // warn: costly-no-noretry // site: order=5..5 fallback=vmalloc fbat=24 must=RETRY_MAYFAIL
	if (!u->keys)
		u->keys = vmalloc(SZ_128K);
	if (!u->keys)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: __GFP_RETRY_MAYFAIL on a costly kvmalloc attempt
 *
 * check-output-start
 * corpus/rule-costly-retry-mayfail-hit.c:19:12: warning: 'kvmalloc' can request order 6: full retries before vmalloc [costly-retry-mayfail]
 * corpus/rule-costly-retry-mayfail-hit.c:19:12: note: gfp GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL
 * corpus/rule-costly-retry-mayfail-hit.c:19:12: note: fallback kvmalloc: kvmalloc keeps its kmalloc attempt from '__GFP_NORETRY' when the caller passes '__GFP_RETRY_MAYFAIL', so reclaim and compaction retry in full before the vmalloc fallback that would serve at once
 * corpus/rule-costly-retry-mayfail-hit.c:19:12: note: proven: every path asks for more than order 3
 * corpus/rule-costly-retry-mayfail-hit.c:22:12: warning: 'kmalloc' can request order 5 (128 KiB): no __GFP_NORETRY before its fallback [costly-no-noretry]
 * corpus/rule-costly-retry-mayfail-hit.c:22:12: note: gfp GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL
 * corpus/rule-costly-retry-mayfail-hit.c:22:12: note: fallback vmalloc: the attempt has a fallback yet may enter direct reclaim without '__GFP_NORETRY', so it can stall in compaction and reclaim
 * corpus/rule-costly-retry-mayfail-hit.c:22:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
