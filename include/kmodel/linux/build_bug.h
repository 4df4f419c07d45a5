/* Model of include/linux/build_bug.h. */
#ifndef _KMODEL_LINUX_BUILD_BUG_H
#define _KMODEL_LINUX_BUILD_BUG_H
#include <linux/compiler.h>

#define BUILD_BUG_ON_ZERO(e)		((int)(sizeof(struct { int:(-!!(e)); })))
#define BUILD_BUG_ON_MSG(cond, msg)	_Static_assert(!(cond), msg)
#define BUILD_BUG_ON(cond)		BUILD_BUG_ON_MSG(cond, "BUILD_BUG_ON failed: " #cond)
#define BUILD_BUG()			do { } while (0)

#define __static_assert(expr, msg, ...)	_Static_assert(expr, msg)
#define static_assert(expr, ...)	__static_assert(expr, ##__VA_ARGS__, #expr)

#endif
