/* Model of include/net/genetlink.h: what a generic netlink operation is
 * handed (the attributes its family's policy validated) and the shape of
 * an operation table. */
#ifndef _KMODEL_NET_GENETLINK_H
#define _KMODEL_NET_GENETLINK_H
#include <net/netlink.h>

struct sk_buff;

struct genl_info {
	u32 snd_seq;
	u32 snd_portid;
	struct nlattr **attrs;
	void *user_ptr[2];
	struct netlink_ext_ack *extack;
};

struct genl_ops {
	int (*doit)(struct sk_buff *skb, struct genl_info *info);
	const struct nla_policy *policy;
	unsigned int maxattr;
	u8 cmd;
	u8 flags;
};

#define GENL_ADMIN_PERM		0x01

#endif
