/* A tiny model of include/linux/skbuff.h: page-fragment code and linear skbs. */
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

struct sk_buff;
/* 320 bytes on 64-bit, as 6.12's with MAX_SKB_FRAGS 17 */
struct skb_shared_info {
	unsigned char flags, meta_len, nr_frags, tx_flags;
	unsigned short gso_size, gso_segs;
	struct sk_buff *frag_list;
	s64 hwtstamp;
	unsigned int gso_type;
	u32 tskey;
	int dataref;
	unsigned int xdp_frags_size;
	void *destructor_arg;
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

#define SMP_CACHE_BYTES 64
#define SKB_DATA_ALIGN(X) ALIGN(X, SMP_CACHE_BYTES)
#define SKB_WITH_OVERHEAD(X) ((X) - SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))
#define NET_SKB_PAD 64

struct net_device;

/* As in 6.12: alloc_skb() and the netdev helpers are static inlines over
 * the exported functions; the data is one kmalloc of the size aligned to
 * SMP_CACHE_BYTES plus the skb_shared_info (net/core/skbuff.c). */
struct sk_buff *__alloc_skb(unsigned int size, gfp_t priority, int flags, int node);
static inline struct sk_buff *alloc_skb(unsigned int size, gfp_t priority)
{
	return __alloc_skb(size, priority, 0, -1);
}
struct sk_buff *__netdev_alloc_skb(struct net_device *dev, unsigned int length, gfp_t gfp_mask);
static inline struct sk_buff *netdev_alloc_skb(struct net_device *dev, unsigned int length)
{
	return __netdev_alloc_skb(dev, length, GFP_ATOMIC);
}
struct sk_buff *alloc_skb_with_frags(unsigned long header_len, unsigned long data_len,
				     int order, int *errcode, gfp_t gfp_mask);
void kfree_skb(struct sk_buff *skb);
void skb_fill_page_desc(struct sk_buff *skb, int i, struct page *page,
			int off, int size);

#endif
