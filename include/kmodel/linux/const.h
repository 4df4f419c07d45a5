/* Model of include/linux/const.h and uapi/linux/const.h. */
#ifndef _KMODEL_LINUX_CONST_H
#define _KMODEL_LINUX_CONST_H

#define __AC(X, Y)	(X##Y)
#define _AC(X, Y)	__AC(X, Y)
#define _UL(x)		(_AC(x, UL))
#define _ULL(x)		(_AC(x, ULL))
#define UL(x)		(_UL(x))
#define ULL(x)		(_ULL(x))

#define __ALIGN_KERNEL_MASK(x, mask)	(((x) + (mask)) & ~(mask))
#define __ALIGN_KERNEL(x, a)		__ALIGN_KERNEL_MASK(x, (typeof(x))(a) - 1)
#define __KERNEL_DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

#endif
