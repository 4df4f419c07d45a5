/* Model of include/linux/overflow.h. */
#ifndef _KMODEL_LINUX_OVERFLOW_H
#define _KMODEL_LINUX_OVERFLOW_H
#include <linux/compiler.h>
#include <linux/types.h>

#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d)	__builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

static inline size_t size_mul(size_t factor1, size_t factor2)
{
	size_t bytes;

	if (check_mul_overflow(factor1, factor2, &bytes))
		return (size_t)-1;
	return bytes;
}

static inline size_t size_add(size_t addend1, size_t addend2)
{
	size_t bytes;

	if (check_add_overflow(addend1, addend2, &bytes))
		return (size_t)-1;
	return bytes;
}

#define array_size(a, b)	size_mul(a, b)
#define struct_size(p, member, count) \
	size_add(sizeof(*(p)), size_mul(sizeof(*(p)->member), count))

#endif
