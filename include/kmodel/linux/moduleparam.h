#ifndef _KMODEL_LINUX_MODULEPARAM_H
#define _KMODEL_LINUX_MODULEPARAM_H
#include <linux/types.h>

struct kernel_param;
struct kernel_param_ops {
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
};
struct kernel_param {
	const char *name;
	const struct kernel_param_ops *ops;
	unsigned short perm;
	void *arg;
};
extern const struct kernel_param_ops param_ops_uint, param_ops_int, param_ops_ulong,
	param_ops_ushort, param_ops_bool;

/* as in the kernel: a __param_<name> record that points at the variable */
#define module_param_named(name, value, type, perm)				\
	static const char __param_str_##name[] = #name;				\
	static const struct kernel_param __param_##name				\
	__attribute__((__used__, __section__("__param"))) =			\
		{ __param_str_##name, &param_ops_##type, perm, &value }
#define module_param(name, type, perm) module_param_named(name, name, type, perm)
#define MODULE_PARM_DESC(p, d) _Static_assert(sizeof(d) > 0, "desc")

#endif
