/* Model of include/linux/overflow.h (6.12): the check_*_overflow() macros
 * over the compiler's builtins (through a static inline that only marks
 * the result __must_check), check_shl_overflow() as a statement expression
 * that stores through a pointer temporary, and the size helpers that
 * saturate at SIZE_MAX (which kmalloc refuses) with the array/struct
 * macros over them. */
#ifndef _KMODEL_LINUX_OVERFLOW_H
#define _KMODEL_LINUX_OVERFLOW_H
#include <linux/compiler.h>
#include <linux/types.h>

#define __SIZE_SATURATED	(~(size_t)0)

#define is_signed_type(t)	(((t)(-1)) < (t)1)
#define __type_half_max(t)	((t)1 << (8 * sizeof(t) - 1 - is_signed_type(t)))
#define is_negative(x)		((x) < 0 && is_signed_type(typeof(x)))
#define is_non_negative(x)	(!is_negative(x))

/* constant-expression test, as the kernel spells it */
#define __is_constexpr(x) \
	(sizeof(int) == sizeof(*(8 ? ((void *)((long)(x) * 0l)) : (int *)8)))
#define __must_be_array(a)	0

static __always_inline bool __must_check __must_check_overflow(bool overflow)
{
	return unlikely(overflow);
}

#define check_add_overflow(a, b, d)	__must_check_overflow(__builtin_add_overflow(a, b, d))
#define check_sub_overflow(a, b, d)	__must_check_overflow(__builtin_sub_overflow(a, b, d))
#define check_mul_overflow(a, b, d)	__must_check_overflow(__builtin_mul_overflow(a, b, d))

/* *d = a << s, true when bits are lost or the shift makes no sense */
#define check_shl_overflow(a, s, d) __must_check_overflow(({			\
	typeof(a) __shl_a = a;							\
	typeof(s) __shl_s = s;							\
	typeof(d) __shl_d = d;							\
	unsigned long long __shl_full = __shl_a;				\
	unsigned int __shl_by =							\
		is_non_negative(__shl_s) && __shl_s < 8 * sizeof(*d) ? __shl_s : 0; \
	*__shl_d = (__shl_full << __shl_by);					\
	(__shl_by != __shl_s || is_negative(*__shl_d) || is_negative(__shl_a) || \
	 (*__shl_d >> __shl_by) != __shl_a);					\
}))

static inline size_t __must_check size_mul(size_t factor1, size_t factor2)
{
	size_t bytes;

	if (check_mul_overflow(factor1, factor2, &bytes))
		return __SIZE_SATURATED;
	return bytes;
}

static inline size_t __must_check size_add(size_t addend1, size_t addend2)
{
	size_t bytes;

	if (check_add_overflow(addend1, addend2, &bytes))
		return __SIZE_SATURATED;
	return bytes;
}

static inline size_t __must_check size_sub(size_t minuend, size_t subtrahend)
{
	size_t bytes;

	if (minuend == __SIZE_SATURATED || subtrahend == __SIZE_SATURATED ||
	    check_sub_overflow(minuend, subtrahend, &bytes))
		return __SIZE_SATURATED;
	return bytes;
}

#define array_size(a, b)	size_mul(a, b)
#define array3_size(a, b, c)	size_mul(size_mul(a, b), c)

#define flex_array_size(p, member, count)					\
	__builtin_choose_expr(__is_constexpr(count),				\
		(count) * sizeof(*(p)->member) + __must_be_array((p)->member),	\
		size_mul(count, sizeof(*(p)->member) + __must_be_array((p)->member)))

#define struct_size(p, member, count)						\
	__builtin_choose_expr(__is_constexpr(count),				\
		sizeof(*(p)) + flex_array_size(p, member, count),		\
		size_add(sizeof(*(p)), flex_array_size(p, member, count)))

#define struct_size_t(type, member, count)	struct_size((type *)NULL, member, count)

#endif
