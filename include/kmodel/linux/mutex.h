#ifndef _KMODEL_LINUX_MUTEX_H
#define _KMODEL_LINUX_MUTEX_H
#include <linux/types.h>

struct mutex {
	long owner;
};

void mutex_lock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);

#endif
