#ifndef _KMODEL_LINUX_TOPOLOGY_H
#define _KMODEL_LINUX_TOPOLOGY_H
#include <linux/types.h>
#include <linux/numa.h>

int numa_node_id(void);
int numa_mem_id(void);
int cpu_to_node(int cpu);
bool node_online(int nid);

#endif
