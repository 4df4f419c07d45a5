#ifndef _KMODEL_LINUX_SCATTERLIST_H
#define _KMODEL_LINUX_SCATTERLIST_H
#include <linux/types.h>
#include <linux/mm_types.h>

struct scatterlist {
	unsigned long page_link;
	unsigned int offset;
	unsigned int length;
	dma_addr_t dma_address;
};

void sg_init_table(struct scatterlist *sgl, unsigned int nents);
void sg_init_one(struct scatterlist *sg, const void *buf, unsigned int buflen);
void sg_set_buf(struct scatterlist *sg, const void *buf, unsigned int buflen);
void sg_set_page(struct scatterlist *sg, struct page *page, unsigned int len, unsigned int offset);

#endif
