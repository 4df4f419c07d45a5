/* Model of include/linux/bug.h and asm-generic/bug.h. */
#ifndef _KMODEL_LINUX_BUG_H
#define _KMODEL_LINUX_BUG_H
#include <linux/compiler.h>
#include <linux/build_bug.h>

void __warn_printk(const char *fmt, ...);
__noreturn void __kmodel_bug(const char *file, int line);

#define BUG()		__kmodel_bug(__FILE__, __LINE__)
#define BUG_ON(cond)	do { if (unlikely(cond)) BUG(); } while (0)

#define WARN_ON(condition) ({						\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on))					\
		__warn_printk("WARNING at %s:%d\n", __FILE__, __LINE__);	\
	unlikely(__ret_warn_on);					\
})
#define WARN_ON_ONCE(condition)		WARN_ON(condition)
#define WARN(condition, fmt, ...) ({					\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on))					\
		__warn_printk(fmt, ##__VA_ARGS__);			\
	unlikely(__ret_warn_on);					\
})
#define WARN_ONCE(condition, fmt, ...)	WARN(condition, fmt, ##__VA_ARGS__)

#define VM_BUG_ON(cond)		BUILD_BUG_ON_INVALID(cond)
#define VM_WARN_ON(cond)	BUILD_BUG_ON_INVALID(cond)
#define VM_WARN_ON_ONCE(cond)	BUILD_BUG_ON_INVALID(cond)
#define BUILD_BUG_ON_INVALID(e)	((void)(sizeof((long)(e))))

#endif
