#ifndef _KMODEL_LINUX_LIST_H
#define _KMODEL_LINUX_LIST_H
#include <linux/types.h>

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void list_add_tail(struct list_head *entry, struct list_head *head)
{
	struct list_head *prev = head->prev;

	entry->next = head;
	entry->prev = prev;
	prev->next = entry;
	head->prev = entry;
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

#endif
