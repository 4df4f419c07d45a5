/* Model of include/linux/minmax.h: every macro is a statement expression
 * whose result is a conditional over __UNIQUE_ID temporaries, the shape the
 * analyzer has to see through in 6.12 code. */
#ifndef _KMODEL_LINUX_MINMAX_H
#define _KMODEL_LINUX_MINMAX_H
#include <linux/compiler.h>
#include <linux/const.h>
#include <linux/types.h>

#define __cmp_op_min <
#define __cmp_op_max >

#define __cmp(op, x, y)	((x) __cmp_op_##op (y) ? (x) : (y))

#define __cmp_once_unique(op, type, x, y, ux, uy) \
	({ type ux = (x); type uy = (y); __cmp(op, ux, uy); })

#define __cmp_once(op, type, x, y) \
	__cmp_once_unique(op, type, x, y, __UNIQUE_ID(x_), __UNIQUE_ID(y_))

#define __careful_cmp_once(op, x, y, ux, uy) \
	({ __auto_type ux = (x); __auto_type uy = (y); __cmp(op, ux, uy); })

#define __careful_cmp(op, x, y) \
	__careful_cmp_once(op, x, y, __UNIQUE_ID(x_), __UNIQUE_ID(y_))

#define min(x, y)	__careful_cmp(min, x, y)
#define max(x, y)	__careful_cmp(max, x, y)
#define umin(x, y)	__careful_cmp(min, (x) + 0u + 0ul + 0ull, (y) + 0u + 0ul + 0ull)
#define umax(x, y)	__careful_cmp(max, (x) + 0u + 0ul + 0ull, (y) + 0u + 0ul + 0ull)

#define min3(x, y, z)	min((typeof(x))min(x, y), z)
#define max3(x, y, z)	max((typeof(x))max(x, y), z)

#define min_t(type, x, y)	__cmp_once(min, type, x, y)
#define max_t(type, x, y)	__cmp_once(max, type, x, y)

#define __clamp(val, lo, hi) \
	((val) >= (hi) ? (hi) : ((val) <= (lo) ? (lo) : (val)))

#define __clamp_once(type, val, lo, hi, uval, ulo, uhi) \
	({ type uval = (val); type ulo = (lo); type uhi = (hi); __clamp(uval, ulo, uhi); })

#define __careful_clamp(type, val, lo, hi) \
	__clamp_once(type, val, lo, hi, __UNIQUE_ID(v_), __UNIQUE_ID(l_), __UNIQUE_ID(h_))

#define clamp(val, lo, hi)		__careful_clamp(__auto_type, val, lo, hi)
#define clamp_t(type, val, lo, hi)	__careful_clamp(type, val, lo, hi)
#define clamp_val(val, lo, hi)		clamp_t(typeof(val), val, lo, hi)

#define swap(a, b) \
	do { typeof(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)

#endif
