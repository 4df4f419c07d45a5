/* Model of include/linux/slab.h (6.12, SLUB, x86_64): kmalloc and friends
 * as alloc_hooks() macros over static inline *_noprof wrappers, with the
 * parameter names of 6.12.  Sizes above KMALLOC_MAX_CACHE_SIZE go to the
 * page allocator at get_order(size). */
#ifndef _KMODEL_LINUX_SLAB_H
#define _KMODEL_LINUX_SLAB_H
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/overflow.h>
#include <linux/alloc_tag.h>
#include <asm/page.h>

#define KMALLOC_SHIFT_HIGH	(PAGE_SHIFT + 1)
#define KMALLOC_SHIFT_MAX	(MAX_PAGE_ORDER + PAGE_SHIFT)
#define KMALLOC_SHIFT_LOW	3
#define KMALLOC_MAX_SIZE	(1UL << KMALLOC_SHIFT_MAX)
#define KMALLOC_MAX_CACHE_SIZE	(1UL << KMALLOC_SHIFT_HIGH)
#define KMALLOC_MAX_ORDER	(KMALLOC_SHIFT_MAX - PAGE_SHIFT)
#define KMALLOC_MIN_SIZE	(1 << KMALLOC_SHIFT_LOW)

#define SLAB_HWCACHE_ALIGN	((__force slab_flags_t)0x00002000U)
#define SLAB_ACCOUNT		((__force slab_flags_t)0x04000000U)
#define ZERO_SIZE_PTR		((void *)16)

struct kmem_cache;

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *));
void kmem_cache_destroy(struct kmem_cache *s);
void *kmem_cache_alloc_noprof(struct kmem_cache *cachep, gfp_t flags) __malloc;
#define kmem_cache_alloc(...)		alloc_hooks(kmem_cache_alloc_noprof(__VA_ARGS__))
#define kmem_cache_zalloc(_k, _flags)	kmem_cache_alloc(_k, (_flags) | __GFP_ZERO)
void kmem_cache_free(struct kmem_cache *s, void *objp);

void kfree(const void *objp);
void kfree_sensitive(const void *objp);
size_t ksize(const void *objp);
size_t kmalloc_size_roundup(size_t size);

void *__kmalloc_noprof(size_t size, gfp_t flags)
	__assume_kmalloc_alignment __alloc_size(1);
void *__kmalloc_node_noprof(size_t size, gfp_t flags, int node)
	__assume_kmalloc_alignment __alloc_size(1);
void *__kmalloc_large_noprof(size_t size, gfp_t flags)
	__assume_page_alignment __alloc_size(1);
void *__kmalloc_large_node_noprof(size_t size, gfp_t flags, int node)
	__assume_page_alignment __alloc_size(1);

static __always_inline __alloc_size(1) void *kmalloc_noprof(size_t size, gfp_t flags)
{
	/* constant sizes above the largest cache skip the slab layer */
	if (__builtin_constant_p(size) && size > KMALLOC_MAX_CACHE_SIZE)
		return __kmalloc_large_noprof(size, flags);
	return __kmalloc_noprof(size, flags);
}
#define kmalloc(...)			alloc_hooks(kmalloc_noprof(__VA_ARGS__))

static __always_inline __alloc_size(1) void *kmalloc_node_noprof(size_t size, gfp_t flags, int node)
{
	if (__builtin_constant_p(size) && size > KMALLOC_MAX_CACHE_SIZE)
		return __kmalloc_large_node_noprof(size, flags, node);
	return __kmalloc_node_noprof(size, flags, node);
}
#define kmalloc_node(...)		alloc_hooks(kmalloc_node_noprof(__VA_ARGS__))

static inline __alloc_size(1, 2) void *kmalloc_array_noprof(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (unlikely(check_mul_overflow(n, size, &bytes)))
		return NULL;
	return kmalloc_noprof(bytes, flags);
}
#define kmalloc_array(...)		alloc_hooks(kmalloc_array_noprof(__VA_ARGS__))

static inline __alloc_size(1, 2) void *kmalloc_array_node_noprof(size_t n, size_t size,
								  gfp_t flags, int node)
{
	size_t bytes;

	if (unlikely(check_mul_overflow(n, size, &bytes)))
		return NULL;
	return kmalloc_node_noprof(bytes, flags, node);
}
#define kmalloc_array_node(...)		alloc_hooks(kmalloc_array_node_noprof(__VA_ARGS__))

#define kcalloc(n, size, flags)		kmalloc_array(n, size, (flags) | __GFP_ZERO)
#define kcalloc_node(_n, _size, _flags, _node) \
	kmalloc_array_node(_n, _size, (_flags) | __GFP_ZERO, _node)

void *krealloc_noprof(const void *objp, size_t new_size, gfp_t flags) __realloc_size(2);
#define krealloc(...)			alloc_hooks(krealloc_noprof(__VA_ARGS__))

static inline __realloc_size(2, 3) void *krealloc_array_noprof(void *p, size_t new_n,
							       size_t new_size, gfp_t flags)
{
	size_t bytes;

	if (unlikely(check_mul_overflow(new_n, new_size, &bytes)))
		return NULL;
	return krealloc_noprof(p, bytes, flags);
}
#define krealloc_array(...)		alloc_hooks(krealloc_array_noprof(__VA_ARGS__))

static inline __alloc_size(1) void *kzalloc_noprof(size_t size, gfp_t flags)
{
	return kmalloc_noprof(size, flags | __GFP_ZERO);
}
#define kzalloc(...)			alloc_hooks(kzalloc_noprof(__VA_ARGS__))
#define kzalloc_node(_size, _flags, _node) kmalloc_node(_size, (_flags) | __GFP_ZERO, _node)

/* kvmalloc: a kmalloc attempt (NORETRY|NOWARN above PAGE_SIZE unless
 * RETRY_MAYFAIL), then vmalloc when the mask may block. */
void *__kvmalloc_node_noprof(size_t size, gfp_t flags, int node) __alloc_size(1);
#define kvmalloc_node_noprof(size, flags, node) \
	__kvmalloc_node_noprof(size, flags, node)
#define kvmalloc_node(...)		alloc_hooks(kvmalloc_node_noprof(__VA_ARGS__))

#define kvmalloc(_size, _flags)		kvmalloc_node(_size, _flags, NUMA_NO_NODE)
#define kvmalloc_noprof(_size, _flags)	kvmalloc_node_noprof(_size, _flags, NUMA_NO_NODE)
#define kvzalloc(_size, _flags)		kvmalloc(_size, (_flags) | __GFP_ZERO)
#define kvzalloc_node(_size, _flags, _node) kvmalloc_node(_size, (_flags) | __GFP_ZERO, _node)

static inline __alloc_size(1, 2) void *
kvmalloc_array_node_noprof(size_t n, size_t size, gfp_t flags, int node)
{
	size_t bytes;

	if (unlikely(check_mul_overflow(n, size, &bytes)))
		return NULL;
	return kvmalloc_node_noprof(bytes, flags, node);
}

#define kvmalloc_array_noprof(...)	kvmalloc_array_node_noprof(__VA_ARGS__, NUMA_NO_NODE)
#define kvcalloc_node_noprof(_n, _s, _f, _node) \
	kvmalloc_array_node_noprof(_n, _s, (_f) | __GFP_ZERO, _node)
#define kvcalloc_noprof(...)		kvcalloc_node_noprof(__VA_ARGS__, NUMA_NO_NODE)

#define kvmalloc_array(...)		alloc_hooks(kvmalloc_array_noprof(__VA_ARGS__))
#define kvcalloc_node(...)		alloc_hooks(kvcalloc_node_noprof(__VA_ARGS__))
#define kvcalloc(...)			alloc_hooks(kvcalloc_noprof(__VA_ARGS__))

void *kvrealloc_noprof(const void *p, size_t size, gfp_t flags) __realloc_size(2);
#define kvrealloc(...)			alloc_hooks(kvrealloc_noprof(__VA_ARGS__))

void kvfree(const void *addr);
void kvfree_sensitive(const void *addr, size_t len);

#endif
