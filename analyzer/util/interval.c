/* Interval arithmetic for orders and sizes; saturating at IV_MAX/IV_MIN. */
#include "gfpaudit/order.h"

static int64_t sat(__int128 v)
{
	if (v > IV_MAX)
		return IV_MAX;
	if (v < IV_MIN)
		return IV_MIN;
	return (int64_t)v;
}

static int64_t mn(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t mx(int64_t a, int64_t b) { return a > b ? a : b; }

struct interval iv_join(struct interval a, struct interval b)
{
	return (struct interval){ mn(a.lo, b.lo), mx(a.hi, b.hi), a.known && b.known };
}

struct interval iv_add(struct interval a, struct interval b)
{
	return (struct interval){ sat((__int128)a.lo + b.lo), sat((__int128)a.hi + b.hi), a.known && b.known };
}

struct interval iv_sub(struct interval a, struct interval b)
{
	return (struct interval){ sat((__int128)a.lo - b.hi), sat((__int128)a.hi - b.lo), a.known && b.known };
}

struct interval iv_mul(struct interval a, struct interval b)
{
	__int128 c[4] = { (__int128)a.lo * b.lo, (__int128)a.lo * b.hi,
			  (__int128)a.hi * b.lo, (__int128)a.hi * b.hi };
	__int128 lo = c[0], hi = c[0];
	for (int i = 1; i < 4; i++) {
		if (c[i] < lo) lo = c[i];
		if (c[i] > hi) hi = c[i];
	}
	return (struct interval){ sat(lo), sat(hi), a.known && b.known };
}

struct interval iv_div(struct interval a, struct interval b)
{
	if (b.lo <= 0 || a.lo < 0)
		return (struct interval){ mn(a.lo, 0), mx(a.hi, 0), false };
	return (struct interval){ a.lo / b.hi, a.hi / b.lo, a.known && b.known };
}

struct interval iv_shl(struct interval a, struct interval b)
{
	if (a.lo < 0 || b.lo < 0 || b.hi > 62)
		return (struct interval){ a.lo < 0 ? IV_MIN : a.lo, IV_MAX, false };
	return (struct interval){ sat((__int128)a.lo << b.lo), sat((__int128)a.hi << b.hi), a.known && b.known };
}

struct interval iv_shr(struct interval a, struct interval b)
{
	if (a.lo < 0 || b.lo < 0)
		return (struct interval){ mn(a.lo, 0), mx(a.hi, 0), false };
	int64_t bl = b.lo > 62 ? 62 : b.lo, bh = b.hi > 62 ? 63 : b.hi;
	return (struct interval){ bh > 62 ? 0 : a.lo >> bh, a.hi >> bl, a.known && b.known };
}

struct interval iv_and(struct interval a, struct interval b)
{
	/* x & m with m >= 0 lies in [0, m]; both non-negative: [0, min(hi)] */
	if (a.lo >= 0 && b.lo >= 0) {
		if (iv_is_const(a) && iv_is_const(b))
			return iv_const(a.lo & b.lo);
		return (struct interval){ 0, mn(a.hi, b.hi), a.known || b.known };
	}
	if (b.lo >= 0 && iv_is_const(b))
		return (struct interval){ 0, b.hi, true };
	if (a.lo >= 0 && iv_is_const(a))
		return (struct interval){ 0, a.hi, true };
	/* x >= 0 and a negative constant mask clears low (or some) bits:
	 * [0, x]; ~(2^k - 1), as ALIGN() and NLA_ALIGN() use, rounds down,
	 * which keeps the order: [lo & m, hi & m] */
	if (b.lo < 0 && iv_is_const(b) && a.lo >= 0) {
		uint64_t low = -(uint64_t)b.lo; /* 2^k when b is ~(2^k - 1) */
		if (a.known && !(low & (low - 1)))
			return (struct interval){ a.lo & b.lo, a.hi & b.lo, true };
		return (struct interval){ 0, a.hi, a.known };
	}
	if (a.lo < 0 && iv_is_const(a) && b.lo >= 0)
		return iv_and(b, a);
	return (struct interval){ IV_MIN, IV_MAX, false };
}

struct interval iv_or(struct interval a, struct interval b)
{
	if (a.lo < 0 || b.lo < 0)
		return (struct interval){ IV_MIN, IV_MAX, false };
	if (iv_is_const(a) && iv_is_const(b))
		return iv_const(a.lo | b.lo);
	int64_t m = mx(a.hi, b.hi), p = 1;
	while (p <= m && p < IV_MAX)
		p <<= 1;
	return (struct interval){ mx(a.lo, b.lo), p >= IV_MAX ? IV_MAX : p - 1, a.known && b.known };
}

struct interval iv_min(struct interval a, struct interval b)
{
	return (struct interval){ mn(a.lo, b.lo), mn(a.hi, b.hi), a.known && b.known };
}

int64_t get_order_of(int64_t size, int page_shift)
{
	if (size <= 1)
		return 0;
	int64_t pages = ((size - 1) >> page_shift);
	int o = 0;
	while (pages > 0) {
		o++;
		pages >>= 1;
	}
	return o;
}

struct interval iv_get_order(struct interval s, int page_shift)
{
	int64_t lo = s.lo < 0 ? 0 : s.lo;
	int64_t hi = s.hi < 0 ? 0 : s.hi;
	return (struct interval){ get_order_of(lo, page_shift), get_order_of(hi, page_shift), s.known };
}

static int64_t flog2(int64_t v)
{
	int64_t r = -1;
	while (v > 0) { r++; v >>= 1; }
	return r < 0 ? 0 : r;
}

struct interval iv_ilog2(struct interval v)
{
	return (struct interval){ flog2(v.lo), flog2(v.hi), v.known };
}

struct interval iv_log2_ceil(struct interval v)
{
	int64_t lo = v.lo <= 1 ? 0 : flog2(v.lo - 1) + 1;
	int64_t hi = v.hi <= 1 ? 0 : flog2(v.hi - 1) + 1;
	return (struct interval){ lo, hi, v.known };
}

bool iv_is_const(struct interval a) { return a.known && a.lo == a.hi; }

struct interval iv_type_bound(struct interval a, int bits, bool is_signed)
{
	if (bits <= 0 || bits >= 63)
		return a;
	int64_t lo = is_signed ? -((int64_t)1 << (bits - 1)) : 0;
	int64_t hi = is_signed ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
	struct interval r = { mx(a.lo, lo), mn(a.hi, hi), a.known };
	if (r.lo > r.hi) /* the value wrapped: only the type is known */
		r = (struct interval){ lo, hi, false };
	return r;
}

struct interval iv_norm(struct interval a)
{
	if (a.lo < IV_MIN)
		a.lo = IV_MIN;
	if (a.hi > IV_MAX)
		a.hi = IV_MAX;
	a.known = a.lo > IV_MIN && a.hi < IV_MAX;
	return a;
}
