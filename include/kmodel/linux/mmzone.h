/* Model of include/linux/mmzone.h: the order limits. */
#ifndef _KMODEL_LINUX_MMZONE_H
#define _KMODEL_LINUX_MMZONE_H
#include <linux/types.h>
#include <linux/numa.h>
#include <asm/page.h>

#define MAX_PAGE_ORDER		10
#define MAX_ORDER_NR_PAGES	(1 << MAX_PAGE_ORDER)
#define NR_PAGE_ORDERS		(MAX_PAGE_ORDER + 1)

/* Orders above this are "costly": the allocator compacts for them and does
 * not retry them forever. */
#define PAGE_ALLOC_COSTLY_ORDER 3

#define pageblock_order		MAX_PAGE_ORDER
#define pageblock_nr_pages	(1UL << pageblock_order)

typedef struct {
	unsigned long bits[MAX_NUMNODES / BITS_PER_LONG + 1];
} nodemask_t;

struct zone;
struct zonelist;
struct per_cpu_pages;

enum zone_type {
	ZONE_DMA,
	ZONE_DMA32,
	ZONE_NORMAL,
	ZONE_MOVABLE,
	__MAX_NR_ZONES
};

#endif
