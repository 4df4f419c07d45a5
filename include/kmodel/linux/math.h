#ifndef _KMODEL_LINUX_MATH_H
#define _KMODEL_LINUX_MATH_H
#include <linux/const.h>

#define DIV_ROUND_UP(n, d)	__KERNEL_DIV_ROUND_UP(n, d)
#define __round_mask(x, y)	((__typeof__(x))((y) - 1))
#define round_up(x, y)		((((x) - 1) | __round_mask(x, y)) + 1)
#define round_down(x, y)	((x) & ~__round_mask(x, y))
#define roundup(x, y)		((((x) + ((y) - 1)) / (y)) * (y))

#endif
