#ifndef _KMODEL_LINUX_IO_H
#define _KMODEL_LINUX_IO_H
#include <linux/types.h>

u8 readb(const volatile void __iomem *addr);
u16 readw(const volatile void __iomem *addr);
u32 readl(const volatile void __iomem *addr);
void writel(u32 value, volatile void __iomem *addr);

#endif
