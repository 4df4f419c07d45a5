#ifndef _KMODEL_LINUX_MODULE_H
#define _KMODEL_LINUX_MODULE_H
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/moduleparam.h>

struct module;
#define THIS_MODULE		((struct module *)0)
#define MODULE_LICENSE(x)	_Static_assert(sizeof(x) > 0, "license")
#define MODULE_DESCRIPTION(x)	_Static_assert(sizeof(x) > 0, "description")
#define EXPORT_SYMBOL(sym)	extern typeof(sym) sym
#define EXPORT_SYMBOL_GPL(sym)	extern typeof(sym) sym

#endif
