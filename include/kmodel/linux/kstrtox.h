#ifndef _KMODEL_LINUX_KSTRTOX_H
#define _KMODEL_LINUX_KSTRTOX_H
#include <linux/types.h>
#include <linux/compiler.h>

int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtoint(const char *s, unsigned int base, int *res);
int kstrtou16(const char *s, unsigned int base, u16 *res);
int kstrtou8(const char *s, unsigned int base, u8 *res);
static inline int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	return kstrtoull(s, base, (unsigned long long *)res);
}
int kstrtouint_from_user(const char __user *s, size_t count, unsigned int base, unsigned int *res);
unsigned long long simple_strtoull(const char *cp, char **endp, unsigned int base);

#endif
