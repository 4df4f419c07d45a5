/*
 * Linear socket buffers are slab sites: alloc_skb() and netdev_alloc_skb()
 * (static inlines over __alloc_skb() and __netdev_alloc_skb(), as in 6.12)
 * ask kmalloc for the size aligned to 64 bytes plus the 320-byte
 * skb_shared_info (net/core/skbuff.c), netdev_alloc_skb() pads NET_SKB_PAD
 * first.  A 32 KiB linear skb is order 4; SKB_WITH_OVERHEAD(32 KiB), the
 * cap upstream uses, is order 3; a 64 KiB jumbo receive buffer is order 5
 * and GFP_ATOMIC.  alloc_skb_with_frags() puts the data in page fragments
 * with its own fallback: no site.
 */
#include <linux/skbuff.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct ring {
	struct sk_buff *tx, *cap, *rx, *big;
};

int ring_fill(struct ring *r, struct net_device *dev)
{
	int err;

	r->tx = alloc_skb(SZ_32K, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 api=alloc_skb
	if (!r->tx)
		return -ENOMEM;
	r->cap = alloc_skb(SKB_WITH_OVERHEAD(SZ_32K), GFP_KERNEL); // ok // site: order=3..3 api=alloc_skb
	if (!r->cap)
		return -ENOMEM;
	r->rx = netdev_alloc_skb(dev, SZ_64K); // note: costly-no-fallback // site: order=5..5 api=netdev_alloc_skb
	if (!r->rx)
		return -ENOMEM;
	r->big = alloc_skb_with_frags(SZ_1K, SZ_64K, 3, &err, GFP_KERNEL);
	if (!r->big)
		return err;
	return 0;
}
/*
 * check-name: linear socket buffers: the skb's own overhead decides the order
 *
 * check-output-start
 * corpus/api-skb-linear.c:23:10: warning: 'alloc_skb' can request order 4 (33088 bytes): no fallback [costly-no-fallback]
 * corpus/api-skb-linear.c:23:10: note: gfp GFP_KERNEL
 * corpus/api-skb-linear.c:23:10: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/api-skb-linear.c:23:10: note: proven: every path asks for more than order 3
 * check-output-end
 */
