/* Model of include/linux/types.h (x86_64). */
#ifndef _KMODEL_LINUX_TYPES_H
#define _KMODEL_LINUX_TYPES_H
#include <linux/compiler.h>

typedef signed char		__s8;
typedef unsigned char		__u8;
typedef short			__s16;
typedef unsigned short		__u16;
typedef int			__s32;
typedef unsigned int		__u32;
typedef long long		__s64;
typedef unsigned long long	__u64;

typedef __s8	s8;
typedef __u8	u8;
typedef __s16	s16;
typedef __u16	u16;
typedef __s32	s32;
typedef __u32	u32;
typedef __s64	s64;
typedef __u64	u64;

typedef __u16 __bitwise __le16;
typedef __u16 __bitwise __be16;
typedef __u32 __bitwise __le32;
typedef __u32 __bitwise __be32;
typedef __u64 __bitwise __le64;
typedef __u64 __bitwise __be64;

typedef unsigned long		size_t;
typedef long			ssize_t;
typedef long			ptrdiff_t;
typedef unsigned long		uintptr_t;
typedef long long		loff_t;
typedef unsigned long		pgoff_t;
typedef u64			phys_addr_t;
typedef u64			dma_addr_t;
typedef unsigned long		sector_t;
typedef int			pid_t;
typedef unsigned int		fmode_t;

typedef _Bool			bool;
enum { false = 0, true = 1 };

#ifndef NULL
#define NULL ((void *)0)
#endif

/* The allocation-context mask: a plain integer, bitwise for sparse only. */
typedef unsigned int __bitwise gfp_t;
typedef unsigned int __bitwise slab_flags_t;

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	s64 counter;
} atomic64_t;

typedef atomic64_t atomic_long_t;

struct list_head {
	struct list_head *next, *prev;
};

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

#define BITS_PER_LONG		64
#define BITS_PER_LONG_LONG	64
#define BITS_PER_BYTE		8

#endif
