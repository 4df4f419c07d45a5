/* Model of include/linux/sched.h: current and the PF_MEMALLOC_* flags. */
#ifndef _KMODEL_LINUX_SCHED_H
#define _KMODEL_LINUX_SCHED_H
#include <linux/types.h>

#define PF_MEMALLOC		0x00000800
#define PF_MEMALLOC_NOFS	0x00040000
#define PF_MEMALLOC_NOIO	0x00080000
#define PF_MEMALLOC_PIN		0x10000000

struct task_struct {
	unsigned int flags;
	pid_t pid;
	char comm[16];
	struct mm_struct *mm;
};

struct task_struct *get_current(void);
#define current get_current()

int signal_pending(struct task_struct *p);
int fatal_signal_pending(struct task_struct *p);

#endif
