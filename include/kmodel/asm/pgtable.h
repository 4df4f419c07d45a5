#ifndef _KMODEL_ASM_PGTABLE_H
#define _KMODEL_ASM_PGTABLE_H
#include <asm/page.h>
typedef struct { unsigned long pgprot; } pgprot_t;
#define PAGE_KERNEL ((pgprot_t){ 0x163 })
#endif
