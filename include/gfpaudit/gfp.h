/* gfp masks as the analyzer sees them.
 *
 * Bit values of __GFP_* differ between kernel versions, so the analyzer never
 * hard-codes them: each translation unit's values are evaluated by the front
 * end (tu_parse appends probes to the file: frontend/tu.c) and translated
 * into the canonical flag indexes below.  A `struct gfp_bits` holds two sets over those indexes: `must` (set
 * on every path that reaches the site) and `may` (set on at least one path);
 * must is always a subset of may.  An unknown mask is must = 0, may = all.
 */
#ifndef GFPAUDIT_GFP_H
#define GFPAUDIT_GFP_H
#include <stdint.h>
#include <stdbool.h>

/* Single-bit __GFP_* flags gfpaudit knows by name.  Order here is only the
 * canonical index; it is not a bit position in any kernel. */
#define GFP_FLAG_LIST(X) \
	X(DMA) X(HIGHMEM) X(DMA32) X(MOVABLE) X(RECLAIMABLE) X(HIGH) X(IO) X(FS) \
	X(ZERO) X(UNUSED_BIT) X(DIRECT_RECLAIM) X(KSWAPD_RECLAIM) X(WRITE) \
	X(NOWARN) X(RETRY_MAYFAIL) X(NOFAIL) X(NORETRY) X(MEMALLOC) X(COMP) \
	X(NOMEMALLOC) X(HARDWALL) X(THISNODE) X(ACCOUNT) X(ZEROTAGS) \
	X(SKIP_ZERO) X(SKIP_KASAN) X(NOLOCKDEP) X(NO_OBJ_EXT) X(NOTRACK) \
	X(OTHER_NODE) X(NOACCOUNT)

enum gfp_flag {
#define X(n) GFPF_##n,
	GFP_FLAG_LIST(X)
#undef X
	GFPF__COUNT
};

#define GFPB(n) ((uint64_t)1 << GFPF_##n)
#define GFP_ALL_BITS (((uint64_t)1 << GFPF__COUNT) - 1)

struct gfp_bits {
	uint64_t must, may;
};

static inline struct gfp_bits gfp_const(uint64_t v) { return (struct gfp_bits){ v, v }; }
static inline struct gfp_bits gfp_unknown(void) { return (struct gfp_bits){ 0, GFP_ALL_BITS }; }
static inline struct gfp_bits gfp_join(struct gfp_bits a, struct gfp_bits b)
{
	return (struct gfp_bits){ a.must & b.must, a.may | b.may };
}
static inline bool gfp_must(struct gfp_bits g, uint64_t bit) { return (g.must & bit) == bit; }
static inline bool gfp_may(struct gfp_bits g, uint64_t bit) { return (g.may & bit) != 0; }

/* "__GFP_NORETRY" for GFPF_NORETRY; NULL for an out-of-range index. */
const char *gfp_flag_name(enum gfp_flag f);
/* Canonical index of "__GFP_NORETRY" / "NORETRY"; -1 if unknown. */
int gfp_flag_lookup(const char *name);

struct strbuf;
/* The flags of a canonical set by name in index order ("__GFP_IO|__GFP_FS"
 * with sep "|"), or `none` for the empty set. */
void gfp_flags_text(struct strbuf *sb, uint64_t set, const char *sep, const char *none);
/* A set as kernel developers write it: the largest GFP_* mask it holds and
 * the other flags, "GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN"; `none` for
 * the empty set. */
void gfp_kernel_text(struct strbuf *sb, uint64_t set, const char *none);
/* The must set as gfp_kernel_text writes it, then ", maybe F | F" for the
 * flags only some paths set (", maybe any other flag" for an unknown mask). */
void gfp_bits_text(struct strbuf *sb, struct gfp_bits g);

/* A tree's bit values, evaluated in one translation unit. */
struct gfp_table {
	uint64_t value[GFPF__COUNT]; /* 0 when the flag does not exist in this tree */
};
/* Tree bits -> canonical set.  Bits with no known name are dropped. */
uint64_t gfp_table_to_canon(const struct gfp_table *t, uint64_t tree_bits);
/* Canonical set -> tree bits (for printing alloc_flags math in explain). */
uint64_t gfp_table_from_canon(const struct gfp_table *t, uint64_t canon);

#endif
