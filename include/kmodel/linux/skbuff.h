/* A tiny model of include/linux/skbuff.h: enough for page-fragment code. */
#ifndef _KMODEL_LINUX_SKBUFF_H
#define _KMODEL_LINUX_SKBUFF_H
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/mm_types.h>

#define MAX_SKB_FRAGS 17

typedef struct skb_frag {
	struct page *netmem;
	unsigned int len;
	unsigned int offset;
} skb_frag_t;

struct skb_shared_info {
	unsigned char nr_frags;
	skb_frag_t frags[MAX_SKB_FRAGS];
};

struct sk_buff {
	struct sk_buff *next;
	unsigned int len, data_len;
	unsigned int truesize;
	unsigned char *head, *data;
	struct skb_shared_info *shinfo;
};

static inline struct skb_shared_info *skb_shinfo(const struct sk_buff *skb)
{
	return skb->shinfo;
}

struct sk_buff *alloc_skb(unsigned int size, gfp_t priority);
void kfree_skb(struct sk_buff *skb);
void skb_fill_page_desc(struct sk_buff *skb, int i, struct page *page,
			int off, int size);

#endif
