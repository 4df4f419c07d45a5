#ifndef _KMODEL_LINUX_NUMA_H
#define _KMODEL_LINUX_NUMA_H

#define NODES_SHIFT	6
#define MAX_NUMNODES	(1 << NODES_SHIFT)
#define NUMA_NO_NODE	(-1)

#endif
