#ifndef _KMODEL_LINUX_INIT_H
#define _KMODEL_LINUX_INIT_H
#include <linux/compiler.h>

typedef int (*initcall_t)(void);
#define module_init(fn)	static initcall_t __PASTE(__initcall_, fn) __used = fn
#define module_exit(fn)	static void (*__PASTE(__exitcall_, fn))(void) __used = fn

#endif
