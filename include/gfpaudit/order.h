/* Integer intervals for orders and sizes.
 *
 * `known` false means nothing was proved: lo/hi are then the widest bounds
 * the context allows (for an order, 0..MAX_PAGE_ORDER of the tree).
 * Arithmetic saturates at IV_MAX so sizes never wrap.
 */
#ifndef GFPAUDIT_ORDER_H
#define GFPAUDIT_ORDER_H
#include <stdint.h>
#include <stdbool.h>

#define IV_MAX ((int64_t)1 << 62)
#define IV_MIN (-((int64_t)1 << 62))

struct interval {
	int64_t lo, hi;
	bool known;
};

static inline struct interval iv_const(int64_t v) { return (struct interval){ v, v, true }; }
static inline struct interval iv_range(int64_t lo, int64_t hi) { return (struct interval){ lo, hi, true }; }
static inline struct interval iv_unknown(void) { return (struct interval){ IV_MIN, IV_MAX, false }; }
struct interval iv_join(struct interval a, struct interval b);
struct interval iv_add(struct interval a, struct interval b);
struct interval iv_sub(struct interval a, struct interval b);
struct interval iv_mul(struct interval a, struct interval b);
struct interval iv_div(struct interval a, struct interval b);
struct interval iv_shl(struct interval a, struct interval b);
struct interval iv_shr(struct interval a, struct interval b);
struct interval iv_and(struct interval a, struct interval b);
struct interval iv_or(struct interval a, struct interval b);
struct interval iv_min(struct interval a, struct interval b);
/* get_order(size) with page_shift of the tree; monotonic. */
struct interval iv_get_order(struct interval size, int page_shift);
/* ilog2 / fls-style monotonic log2 (floor) and order_base_2 (ceil). */
struct interval iv_ilog2(struct interval v);
struct interval iv_log2_ceil(struct interval v);
bool iv_is_const(struct interval a);
/* Saturate to [IV_MIN, IV_MAX] and set `known` to "both bounds finite". */
struct interval iv_norm(struct interval a);
/* Clamp to the bounds of an integer type of `bits` width and signedness. */
struct interval iv_type_bound(struct interval a, int bits, bool is_signed);
int64_t get_order_of(int64_t size, int page_shift);

/* An order range as reported: lo/hi valid when known. */
struct order_range {
	int lo, hi;
	bool known;
};

#endif
