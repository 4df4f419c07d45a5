#ifndef _KMODEL_LINUX_SPINLOCK_H
#define _KMODEL_LINUX_SPINLOCK_H
#include <linux/types.h>

typedef struct spinlock {
	unsigned int val;
} spinlock_t;

void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
void spin_lock_init(spinlock_t *lock);

#endif
