#ifndef _KMODEL_ASM_SET_MEMORY_H
#define _KMODEL_ASM_SET_MEMORY_H

int set_memory_ro(unsigned long addr, int numpages);
int set_memory_rw(unsigned long addr, int numpages);
int set_memory_uc(unsigned long addr, int numpages);

#endif
