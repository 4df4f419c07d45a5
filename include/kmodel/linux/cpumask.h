#ifndef _KMODEL_LINUX_CPUMASK_H
#define _KMODEL_LINUX_CPUMASK_H

struct cpumask { unsigned long bits[128]; };
extern const struct cpumask *const cpu_possible_mask;
extern const struct cpumask *const cpu_online_mask;
extern unsigned int nr_cpu_ids;
unsigned int cpumask_weight(const struct cpumask *srcp);
#define num_possible_cpus()	cpumask_weight(cpu_possible_mask)
#define num_online_cpus()	cpumask_weight(cpu_online_mask)

#endif
