/* a test input written for gfpaudit */
/*
 * Minimal declarations so that the test inputs in tests/cocci/ and their patched forms parse
 * with clang -fsyntax-only when include/kmodel/ is not there.  Only names,
 * types and values shaped like Linux 6.12; written for these tests.
 */
#ifndef _TEST_KSTUB_H
#define _TEST_KSTUB_H

typedef _Bool bool;
#define true 1
#define false 0
#define NULL ((void *)0)
typedef unsigned long size_t;
typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned int gfp_t;
#define ENOMEM 12
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_ALLOC_COSTLY_ORDER 3
#define SZ_4K 0x00001000
#define SZ_8K 0x00002000
#define SZ_16K 0x00004000
#define SZ_32K 0x00008000
#define SZ_64K 0x00010000
#define SZ_128K 0x00020000
#define SZ_256K 0x00040000
#define SZ_1M 0x00100000

#define __GFP_DMA 0x01u
#define __GFP_HIGHMEM 0x02u
#define __GFP_DMA32 0x04u
#define __GFP_MOVABLE 0x08u
#define __GFP_RECLAIMABLE 0x10u
#define __GFP_HIGH 0x20u
#define __GFP_IO 0x40u
#define __GFP_FS 0x80u
#define __GFP_ZERO 0x100u
#define __GFP_DIRECT_RECLAIM 0x400u
#define __GFP_KSWAPD_RECLAIM 0x800u
#define __GFP_WRITE 0x1000u
#define __GFP_NOWARN 0x2000u
#define __GFP_RETRY_MAYFAIL 0x4000u
#define __GFP_NOFAIL 0x8000u
#define __GFP_NORETRY 0x10000u
#define __GFP_MEMALLOC 0x20000u
#define __GFP_COMP 0x40000u
#define __GFP_NOMEMALLOC 0x80000u
#define __GFP_HARDWALL 0x100000u
#define __GFP_THISNODE 0x200000u
#define __GFP_ACCOUNT 0x400000u
#define __GFP_RECLAIM (__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define GFP_ATOMIC (__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL (__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_KERNEL_ACCOUNT (GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT (__GFP_KSWAPD_RECLAIM | __GFP_NOWARN)
#define GFP_NOIO (__GFP_RECLAIM)
#define GFP_NOFS (__GFP_RECLAIM | __GFP_IO)
#define GFP_USER (__GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_HARDWALL)
#define GFP_HIGHUSER (GFP_USER | __GFP_HIGHMEM)
#define GFP_HIGHUSER_MOVABLE (GFP_HIGHUSER | __GFP_MOVABLE)

struct page;
struct folio;
struct address_space;
struct vm_area_struct;

struct page *alloc_pages(gfp_t gfp, unsigned int order);
#define alloc_page(gfp) alloc_pages(gfp, 0)
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order);
struct folio *folio_alloc(gfp_t gfp, unsigned int order);
struct folio *filemap_alloc_folio(gfp_t gfp, unsigned int order);
struct folio *vma_alloc_folio(gfp_t gfp, int order, struct vm_area_struct *vma, unsigned long addr, bool hugepage);
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
void *alloc_pages_exact(size_t size, gfp_t gfp);
void free_pages(unsigned long addr, unsigned int order);
void *page_address(const struct page *page);
gfp_t readahead_gfp_mask(struct address_space *mapping);
static inline unsigned int get_order(unsigned long size)
{
	return size <= PAGE_SIZE ? 0 : 64 - __builtin_clzl((size - 1) >> PAGE_SHIFT);
}

void *kmalloc(size_t size, gfp_t gfp);
void *kzalloc(size_t size, gfp_t gfp);
void *kmalloc_node(size_t size, gfp_t gfp, int node);
void *kzalloc_node(size_t size, gfp_t gfp, int node);
void *kcalloc(size_t n, size_t size, gfp_t gfp);
void *kmalloc_array(size_t n, size_t size, gfp_t gfp);
void kfree(const void *p);
void kfree_sensitive(const void *p);
void *kvmalloc(size_t size, gfp_t gfp);
void *kvzalloc(size_t size, gfp_t gfp);
void *kvmalloc_node(size_t size, gfp_t gfp, int node);
void *kvzalloc_node(size_t size, gfp_t gfp, int node);
void *kvcalloc(size_t n, size_t size, gfp_t gfp);
void *kvmalloc_array(size_t n, size_t size, gfp_t gfp);
void kvfree(const void *p);
void kvfree_sensitive(const void *p, size_t len);
void *vmalloc(unsigned long size);
void *vzalloc(unsigned long size);
void *__vmalloc(unsigned long size, gfp_t gfp);
void vfree(const void *p);

#endif
