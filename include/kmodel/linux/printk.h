#ifndef _KMODEL_LINUX_PRINTK_H
#define _KMODEL_LINUX_PRINTK_H
#include <linux/compiler.h>

__printf(1, 2) int _printk(const char *fmt, ...);
#define printk(fmt, ...)	_printk(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_warn_once(fmt, ...)	printk(fmt, ##__VA_ARGS__)
void dump_stack(void);

#endif
