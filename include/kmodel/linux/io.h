#ifndef _KMODEL_LINUX_IO_H
#define _KMODEL_LINUX_IO_H
#include <linux/types.h>

u8 readb(const volatile void __iomem *addr);
u16 readw(const volatile void __iomem *addr);
u32 readl(const volatile void __iomem *addr);
void writel(u32 value, volatile void __iomem *addr);
void writeq(u64 value, volatile void __iomem *addr);
phys_addr_t virt_to_phys(volatile void *address);
#define lower_32_bits(n) ((u32)((n) & 0xffffffff))
#define upper_32_bits(n) ((u32)(((n) >> 16) >> 16))

#endif
