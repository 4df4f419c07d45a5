/*
 * __GFP_NOFAIL with a size whose top comes only from a field's type: the
 * depth of an on-disk tree, read from the disk, which the filesystem's
 * verifier bounds in another function.  A u16 reaches order 10 only by
 * its width, so the finding is a note, not an error.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/types.h>

struct tree_hdr {
	__le16 magic;
	u16 depth;
};

struct tree_path {
	void *node;
	u64 key[5];
};

struct tree_path *tree_walk_start(const struct tree_hdr *h)
{
	unsigned int depth = h->depth;

	return kcalloc(depth + 1, sizeof(struct tree_path), GFP_NOFS | __GFP_NOFAIL); // note: costly-no-fallback, nofail-high-order // site: order=0..10
}

/* a constant count above order 1 (24 KiB, order 3): still an error */
struct tree_path *tree_walk_big(void)
{
	return kcalloc(512, sizeof(struct tree_path), GFP_NOFS | __GFP_NOFAIL); // warn: nofail-high-order // site: order=3..3
}
/*
 * check-name: nofail-high-order: a size bounded only by a field's type is a note
 *
 * check-output-start
 * corpus/rule-nofail-high-order-possible.c:31:9: error: 'kcalloc' can request order 3 (24 KiB): __GFP_NOFAIL above order 1 [nofail-high-order]
 * corpus/rule-nofail-high-order-possible.c:31:9: note: gfp GFP_NOFS | __GFP_ZERO | __GFP_NOFAIL
 * corpus/rule-nofail-high-order-possible.c:31:9: note: fallback none: '__GFP_NOFAIL' above order 1 warns in the allocator and can loop in reclaim forever
 * check-output-end
 */
