/*
 * The kvmalloc helper's own definition (the mm/util.c shape): a kmalloc
 * attempt with NORETRY|NOWARN above PAGE_SIZE, then vmalloc.  Its callers
 * cannot change that attempt's mask, so it is judged here, once, as they
 * make it (GFP_KERNEL, a costly size): on the 6.12 allocator the costly
 * NORETRY attempt still compacts.  Upstream's fix strips direct reclaim for
 * costly sizes unless the caller asked for __GFP_RETRY_MAYFAIL.
 */
#include <linux/slab.h>
#include <linux/vmalloc.h>

static gfp_t kv_gfp_adjust(gfp_t flags, size_t size)
{
	if (size > PAGE_SIZE) {
		flags |= __GFP_NOWARN;
		if (!(flags & __GFP_RETRY_MAYFAIL))
			flags |= __GFP_NORETRY;
		flags &= ~__GFP_NOFAIL;
	}
	return flags;
}

void *__kvmalloc_node_noprof(size_t size, gfp_t flags, int node)
{
	void *ret;

	ret = __kmalloc_node_noprof(size, kv_gfp_adjust(flags, size), node); // warn: costly-noretry-compacts // site: order=4..10 fallback=vmalloc must=NORETRY|NOWARN|DIRECT_RECLAIM
	if (ret || size <= PAGE_SIZE)
		return ret;
	if (!(flags & __GFP_DIRECT_RECLAIM))
		return NULL;
	return __vmalloc_node_noprof(size, 1, flags, node, __builtin_return_address(0));
}
/*
 * check-name: the kvmalloc helper's costly NORETRY attempt is judged at its definition
 * check-command: gfpaudit audit --allocator-model 6.12 $file
 *
 * check-output-start
 * corpus/attempt-kvmalloc-helper.c:27:8: warning: '__kmalloc_node_noprof' can request order 4..10 (32769 bytes to 4 MiB) [costly-noretry-compacts]
 * corpus/attempt-kvmalloc-helper.c:27:8: note: gfp GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY
 * corpus/attempt-kvmalloc-helper.c:27:8: note: fallback vmalloc: its costly attempts (orders 4..10) have '__GFP_NORETRY' but may direct-reclaim, and this tree's allocator still runs direct compaction for them (built-in model 6.12), giving up only if it was skipped or deferred, otherwise reclaiming and compacting again
 * corpus/attempt-kvmalloc-helper.c:27:8: note: clear '__GFP_DIRECT_RECLAIM' for orders above 3
 * corpus/attempt-kvmalloc-helper.c:27:8: note: proven: every path asks for more than order 3
 * check-output-end
 */
