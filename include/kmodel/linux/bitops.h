/* Model of include/linux/bitops.h with the x86 fls family.
 * The analyzer knows fls/fls64/__fls/__ffs by name; the bodies only have to
 * be right and parse. */
#ifndef _KMODEL_LINUX_BITOPS_H
#define _KMODEL_LINUX_BITOPS_H
#include <linux/types.h>
#include <linux/bits.h>

/* fls(0) = 0, fls(1) = 1, fls(0x80000000) = 32 */
static __always_inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static __always_inline int fls64(__u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/* index of the highest set bit; undefined for 0 */
static __always_inline unsigned long __fls(unsigned long word)
{
	return 63 - __builtin_clzl(word);
}

/* index of the lowest set bit; undefined for 0 */
static __always_inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

static __always_inline int ffs(int x)
{
	return __builtin_ffs(x);
}

static inline unsigned int hweight_long(unsigned long w)
{
	return __builtin_popcountl(w);
}

#endif
