/*
 * The page cache's folio loop before the v2 fix: NORETRY|NOWARN for every
 * attempt above the mapping's minimum order.  The costly attempts (orders
 * 4 and up) still may enter direct reclaim, and the 6.12 allocator runs
 * direct compaction for a costly NORETRY request before it gives up: the
 * pgbench regression.  The non-costly ones and the floor are fine.
 */
#include <linux/pagemap.h>
#include <linux/errno.h>

struct folio *rd_get_folio(struct address_space *mapping, pgoff_t index,
			   fgf_t fgp_flags, gfp_t gfp)
{
	unsigned int min_order = mapping_min_folio_order(mapping);
	unsigned int order = max(min_order, FGF_GET_ORDER(fgp_flags));
	struct folio *folio;

	if (order > mapping_max_folio_order(mapping))
		order = mapping_max_folio_order(mapping);

	do {
		gfp_t alloc_gfp = gfp;

		if (order > min_order)
			alloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;
		folio = filemap_alloc_folio(alloc_gfp, order); // site: fallback=order-loop att=4..9/fallback/+NORETRY|NOWARN att=1..3/fallback/+NORETRY|NOWARN // warn: costly-noretry-compacts
		if (folio)
			return folio;
	} while (order-- > min_order);
	return ERR_PTR(-ENOMEM);
}
/*
 * check-name: seed v2's unfixed original: costly NORETRY attempts still compact on 6.12
 * check-command: gfpaudit audit --severity note --allocator-model 6.12 $file
 *
 * check-output-start
 * corpus/attempt-seed-v2-unfixed.c:26:11: warning: 'filemap_alloc_folio' can request order 0..9 [costly-noretry-compacts]
 * corpus/attempt-seed-v2-unfixed.c:26:11: note: its attempts at orders 4..9 (with a fallback after them, when order > min_order) get gfp __GFP_NOWARN | __GFP_NORETRY, maybe any other flag
 * corpus/attempt-seed-v2-unfixed.c:26:11: note: fallback order-loop: its costly attempts (orders 4..9) have '__GFP_NORETRY' but may direct-reclaim, and this tree's allocator still runs direct compaction for them (built-in model 6.12), giving up only if it was skipped or deferred, otherwise reclaiming and compacting again
 * corpus/attempt-seed-v2-unfixed.c:26:11: note: clear '__GFP_DIRECT_RECLAIM' for orders above 3
 * corpus/attempt-seed-v2-unfixed.c:26:11: note: proven: the order comes from the folio order callers encode in fgp flags (fgf_set_order() of a write's length) (line 15), which users set, up to the kernel's limit
 * check-output-end
 */
