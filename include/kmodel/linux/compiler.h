/* Model of include/linux/compiler.h. */
#ifndef _KMODEL_LINUX_COMPILER_H
#define _KMODEL_LINUX_COMPILER_H
#include <linux/compiler_types.h>

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define barrier()	__asm__ __volatile__("" : : : "memory")

/* one fresh identifier per expansion, like the kernel's */
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)

#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, val)	do { *(volatile typeof(x) *)&(x) = (val); } while (0)

#define __same_type(a, b)	__builtin_types_compatible_p(typeof(a), typeof(b))
#define statically_true(x)	(__builtin_constant_p(x) && (x))

#define _RET_IP_		((unsigned long)__builtin_return_address(0))
#define _THIS_IP_		({ __label__ __here; __here: (unsigned long)&&__here; })

#endif
