/* Model of include/linux/kernel.h: the grab bag kernel files include. */
#ifndef _KMODEL_LINUX_KERNEL_H
#define _KMODEL_LINUX_KERNEL_H
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/const.h>
#include <linux/bits.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/bug.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/overflow.h>
#include <linux/err.h>
#include <linux/errno.h>

#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))
#define ALIGN(x, a)		__ALIGN_KERNEL((x), (a))
#define IS_ALIGNED(x, a)	(((x) & ((typeof(x))(a) - 1)) == 0)
#define PTR_ALIGN(p, a)		((typeof(p))ALIGN((unsigned long)(p), (a)))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define INT_MAX		((int)(~0U >> 1))
#define UINT_MAX	(~0U)
#define LONG_MAX	((long)(~0UL >> 1))
#define ULONG_MAX	(~0UL)
#define SIZE_MAX	(~(size_t)0)

void might_sleep(void);
void cond_resched(void);

#endif
