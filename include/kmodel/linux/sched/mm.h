/* Model of include/linux/sched/mm.h: the scoped NOFS/NOIO context that
 * current_gfp_context() applies to a mask. */
#ifndef _KMODEL_LINUX_SCHED_MM_H
#define _KMODEL_LINUX_SCHED_MM_H
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/sched.h>

/* The mask narrowed by the task's memalloc_no{io,fs}_save() scope. */
static inline gfp_t current_gfp_context(gfp_t flags)
{
	unsigned int pflags = READ_ONCE(current->flags);

	if (unlikely(pflags & (PF_MEMALLOC_NOIO | PF_MEMALLOC_NOFS | PF_MEMALLOC_PIN))) {
		/* a NOIO scope is also NOFS */
		if (pflags & PF_MEMALLOC_NOIO)
			flags &= ~(__GFP_IO | __GFP_FS);
		else if (pflags & PF_MEMALLOC_NOFS)
			flags &= ~__GFP_FS;

		if (pflags & PF_MEMALLOC_PIN)
			flags &= ~__GFP_MOVABLE;
	}
	return flags;
}

unsigned int memalloc_noio_save(void);
void memalloc_noio_restore(unsigned int flags);
unsigned int memalloc_nofs_save(void);
void memalloc_nofs_restore(unsigned int flags);

#endif
