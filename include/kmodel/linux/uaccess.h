#ifndef _KMODEL_LINUX_UACCESS_H
#define _KMODEL_LINUX_UACCESS_H
#include <linux/types.h>
#include <linux/compiler.h>

unsigned long copy_from_user(void *to, const void __user *from, unsigned long n);
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n);
unsigned long __get_user_nocheck_4(const void __user *ptr, int *err);
/* as on x86: the value lands in a temporary, then in x */
#define get_user(x, ptr)						\
({									\
	int __ret_gu = 0;						\
	unsigned long __val_gu = __get_user_nocheck_4((ptr), &__ret_gu);	\
	(x) = (__typeof__(*(ptr)))__val_gu;				\
	__ret_gu;							\
})

#endif
