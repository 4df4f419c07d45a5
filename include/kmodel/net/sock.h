/* A tiny model of include/net/sock.h: the socket page-fragment refill. */
#ifndef _KMODEL_NET_SOCK_H
#define _KMODEL_NET_SOCK_H
#include <linux/kernel.h>
#include <linux/skbuff.h>

#define SKB_FRAG_PAGE_ORDER	get_order(32768)

struct sock {
	gfp_t sk_allocation;
	struct page_frag sk_frag;
	int sk_sndbuf;
};

void sk_enter_memory_pressure(struct sock *sk);

#endif
