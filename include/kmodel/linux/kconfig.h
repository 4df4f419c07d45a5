/* Model of the kernel's kconfig.h plus the configuration the model headers
 * describe (x86_64, Debian 6.12 amd64 config where it matters). */
#ifndef _KMODEL_LINUX_KCONFIG_H
#define _KMODEL_LINUX_KCONFIG_H

#define CONFIG_64BIT 1
#define CONFIG_X86_64 1
#define CONFIG_MMU 1
#define CONFIG_NUMA 1
#define CONFIG_SLUB 1
#define CONFIG_TRANSPARENT_HUGEPAGE 1
#define CONFIG_MEMCG 1
#define CONFIG_SLAB_OBJ_EXT 1
#define CONFIG_ZONE_DMA 1
#define CONFIG_ZONE_DMA32 1

/* IS_ENABLED(CONFIG_X): 1 when CONFIG_X is defined to 1, else 0 */
#define __KMODEL_PLACEHOLDER_1 0,
#define __kmodel_second(ignored, val, ...) val
#define __kmodel_defined(x) ___kmodel_defined(x)
#define ___kmodel_defined(val) ____kmodel_defined(__KMODEL_PLACEHOLDER_##val)
#define ____kmodel_defined(arg1_or_junk) __kmodel_second(arg1_or_junk 1, 0, 0)
#define IS_ENABLED(option) __kmodel_defined(option)
#define IS_BUILTIN(option) __kmodel_defined(option)

#endif
