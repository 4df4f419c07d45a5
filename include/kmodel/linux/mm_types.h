/* Model of include/linux/mm_types.h: only the fields kernel-shaped test code
 * touches. */
#ifndef _KMODEL_LINUX_MM_TYPES_H
#define _KMODEL_LINUX_MM_TYPES_H
#include <linux/types.h>
#include <linux/gfp_types.h>
#include <asm/page.h>
#include <asm/pgtable.h>

struct address_space;
struct mm_struct;
struct file;

struct page {
	unsigned long flags;
	union {
		struct {
			struct list_head lru;
			struct address_space *mapping;
			pgoff_t index;
			unsigned long private;
		};
		struct rcu_head rcu_head;
	};
	atomic_t _refcount;
};

struct folio {
	union {
		struct {
			unsigned long flags;
			struct list_head lru;
			struct address_space *mapping;
			pgoff_t index;
			void *private;
			atomic_t _mapcount;
			atomic_t _refcount;
		};
		struct page page;
	};
	unsigned int _folio_order;
};

struct page_frag {
	struct page *page;
	__u32 offset;
	__u32 size;
};

#define PAGE_FRAG_CACHE_MAX_SIZE	__ALIGN_KERNEL_MASK(32768, ~PAGE_MASK)
#define PAGE_FRAG_CACHE_MAX_ORDER	get_order(PAGE_FRAG_CACHE_MAX_SIZE)

struct page_frag_cache {
	void *va;
	__u16 offset;
	__u16 size;
	unsigned int pagecnt_bias;
	bool pfmemalloc;
};

typedef unsigned long vm_flags_t;

struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
	struct mm_struct *vm_mm;
	pgprot_t vm_page_prot;
	vm_flags_t vm_flags;
	pgoff_t vm_pgoff;
	struct file *vm_file;
	void *vm_private_data;
};

struct mm_struct {
	unsigned long total_vm;
	unsigned long flags;
};

typedef unsigned int __bitwise vm_fault_t;

enum vm_fault_reason {
	VM_FAULT_OOM            = (__force vm_fault_t)0x000001,
	VM_FAULT_SIGBUS         = (__force vm_fault_t)0x000002,
	VM_FAULT_MAJOR          = (__force vm_fault_t)0x000004,
	VM_FAULT_HWPOISON       = (__force vm_fault_t)0x000010,
	VM_FAULT_HWPOISON_LARGE = (__force vm_fault_t)0x000020,
	VM_FAULT_SIGSEGV        = (__force vm_fault_t)0x000040,
	VM_FAULT_NOPAGE         = (__force vm_fault_t)0x000100,
	VM_FAULT_LOCKED         = (__force vm_fault_t)0x000200,
	VM_FAULT_RETRY          = (__force vm_fault_t)0x000400,
	VM_FAULT_FALLBACK       = (__force vm_fault_t)0x000800,
	VM_FAULT_DONE_COW       = (__force vm_fault_t)0x001000,
	VM_FAULT_NEEDDSYNC      = (__force vm_fault_t)0x002000,
	VM_FAULT_COMPLETED      = (__force vm_fault_t)0x004000,
	VM_FAULT_HINDEX_MASK    = (__force vm_fault_t)0x0f0000,
};

#endif
