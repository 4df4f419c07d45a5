#ifndef _KMODEL_LINUX_UACCESS_H
#define _KMODEL_LINUX_UACCESS_H
#include <linux/types.h>
#include <linux/compiler.h>

unsigned long copy_from_user(void *to, const void __user *from, unsigned long n);
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n);
int get_user_u32(u32 *x, const u32 __user *ptr);
#define get_user(x, ptr)	get_user_u32(&(x), (ptr))

#endif
