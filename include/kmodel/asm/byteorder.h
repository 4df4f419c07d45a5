/* Model of asm/byteorder.h on a little-endian machine (x86_64): the
 * little-endian conversions are casts, the big-endian ones swap. */
#ifndef _KMODEL_ASM_BYTEORDER_H
#define _KMODEL_ASM_BYTEORDER_H
#include <linux/types.h>

#define __le16_to_cpu(x)	((__force __u16)(__le16)(x))
#define __le32_to_cpu(x)	((__force __u32)(__le32)(x))
#define __le64_to_cpu(x)	((__force __u64)(__le64)(x))
#define __cpu_to_le16(x)	((__force __le16)(__u16)(x))
#define __cpu_to_le32(x)	((__force __le32)(__u32)(x))
#define __be16_to_cpu(x)	__builtin_bswap16((__force __u16)(__be16)(x))
#define __be32_to_cpu(x)	__builtin_bswap32((__force __u32)(__be32)(x))

/* the pointer forms are inline functions over the value forms */
static __always_inline __u16 __le16_to_cpup(const __le16 *p)
{
	return __le16_to_cpu(*p);
}

static __always_inline __u32 __le32_to_cpup(const __le32 *p)
{
	return __le32_to_cpu(*p);
}

#define le16_to_cpup	__le16_to_cpup
#define le32_to_cpup	__le32_to_cpup
#define le16_to_cpu	__le16_to_cpu
#define le32_to_cpu	__le32_to_cpu
#define le64_to_cpu	__le64_to_cpu
#define cpu_to_le16	__cpu_to_le16
#define cpu_to_le32	__cpu_to_le32
#define be16_to_cpu	__be16_to_cpu
#define be32_to_cpu	__be32_to_cpu

#endif
