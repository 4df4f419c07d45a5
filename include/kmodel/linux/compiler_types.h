/* Model of include/linux/compiler_types.h: annotations that sparse reads and
 * clang ignores, plus the attribute spellings kernel code uses. */
#ifndef _KMODEL_LINUX_COMPILER_TYPES_H
#define _KMODEL_LINUX_COMPILER_TYPES_H
#include <linux/kconfig.h>

/* sparse address spaces and type annotations: empty for clang */
#define __user
#define __kernel
#define __iomem
#define __percpu
#define __rcu
#define __force
#define __bitwise
#define __nocast
#define __safe
#define __must_hold(x)
#define __acquires(x)
#define __releases(x)

#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)

#define __always_inline		inline __attribute__((__always_inline__))
#define noinline		__attribute__((__noinline__))
#define __maybe_unused		__attribute__((__unused__))
#define __always_unused		__attribute__((__unused__))
#define __used			__attribute__((__used__))
#define __must_check		__attribute__((__warn_unused_result__))
#define __attribute_const__	__attribute__((__const__))
#define __pure			__attribute__((__pure__))
#define __cold			__attribute__((__cold__))
#define __malloc		__attribute__((__malloc__))
#define __packed		__attribute__((__packed__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define __noreturn		__attribute__((__noreturn__))
#define __alloc_size(x, ...)	__attribute__((__alloc_size__(x, ## __VA_ARGS__)))
#define __realloc_size(x, ...)	__attribute__((__alloc_size__(x, ## __VA_ARGS__)))
#define __assume_kmalloc_alignment
#define __assume_page_alignment
#define __section(s)		__attribute__((__section__(s)))

#define notrace
#define __init
#define __exit
#define __meminit
#define __initdata
#define __read_mostly

#endif
