/* Model of include/asm-generic/getorder.h.  get_order() is a function here
 * as in the kernel (a call, not a constant expression, for clang), so the
 * analyzer must give it its meaning by name. */
#ifndef _KMODEL_ASM_GENERIC_GETORDER_H
#define _KMODEL_ASM_GENERIC_GETORDER_H
#include <linux/compiler.h>
#include <linux/bitops.h>
#include <asm/page.h>

/* The order of the smallest block of pages that holds `size` bytes:
 * 0 up to PAGE_SIZE, 1 up to 2 * PAGE_SIZE, 2 up to 4 * PAGE_SIZE ... */
static __always_inline __attribute_const__ int get_order(unsigned long size)
{
	if (size <= (1UL << PAGE_SHIFT))
		return 0;
	return fls64((size - 1) >> PAGE_SHIFT);
}

#endif
