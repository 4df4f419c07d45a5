/* The allocator table: which functions allocate, and where their gfp mask,
 * order, size and count come from.  Data, not code: the built-in table is
 * analyzer/data/allocators.tbl (compiled in); users add files of the same
 * format with --allocators or $GFPAUDIT_ALLOCATORS. */
#ifndef GFPAUDIT_ALLOC_TABLE_H
#define GFPAUDIT_ALLOC_TABLE_H
#include "gfpaudit/site.h"

/* Where a role's value comes from. */
struct arg_ref {
	enum { ARG_NONE, ARG_PARAM, ARG_INDEX, ARG_CONST } how;
	int index;    /* ARG_INDEX; also resolved ARG_PARAM */
	char *text;   /* ARG_PARAM: parameter name; ARG_CONST: expression */
};

struct alloc_entry {
	char *name;
	enum api_kind kind;
	struct arg_ref gfp, order, size, count;
	/* Wrappers found in the analyzed file: how the wrapper changes the mask
	 * it is given (value.must = (arg.must & ~gfp_clr_may) | gfp_set_must,
	 * value.may = (arg.may & ~gfp_clr) | gfp_set_may), or the mask it
	 * always uses when gfp.how == ARG_NONE and gfp_fixed; and a fallback the
	 * wrapper has inside (-1: none, the caller's own fallback decides). */
	bool wrapper, gfp_fixed;
	struct gfp_bits gfp_bits;
	uint64_t gfp_set_must, gfp_set_may, gfp_clr, gfp_clr_may;
	int fallback;
	int probe; /* ARG_CONST gfp: index of the TU probe evaluating it */
	uint64_t adds; /* canonical __GFP_ flags the API always adds */
	/* Bytes the API asks the slab for beyond the size it is given: the
	 * size plus size_pad, rounded up to size_align (0: not rounded), plus
	 * size_extra (alloc_skb: the data aligned to SMP_CACHE_BYTES, then
	 * the skb_shared_info at its end; netdev_alloc_skb pads NET_SKB_PAD
	 * first).  The table's pad=, align=, extra=. */
	int64_t size_pad, size_align, size_extra;
	/* The memory must be physically contiguous whatever the caller does
	 * with it (mem=physical: an skb's data, which the stack maps into
	 * pages and drivers map for DMA): no kvmalloc fix. */
	bool physical;
};

struct alloc_table {
	struct alloc_entry *e;
	size_t n, alloc;
};

/* Load the built-in table. */
int alloc_table_init(struct alloc_table *t);
/* Add entries from text / a file (later entries override earlier ones). 
 * GA_EINVAL with "FILE:LINE: ..." in err_last() on a bad line. */
int alloc_table_parse(struct alloc_table *t, const char *text, const char *origin);
int alloc_table_load_file(struct alloc_table *t, const char *path);
void alloc_table_release(struct alloc_table *t);
/* Look up a called function; a "_noprof" suffix is ignored. Lent or NULL. */
const struct alloc_entry *alloc_table_find(const struct alloc_table *t, const char *fn);
/* Add a wrapper found in the analyzed file (owned by the table). */
struct alloc_entry *alloc_table_add(struct alloc_table *t, const char *name, enum api_kind kind);

#endif
