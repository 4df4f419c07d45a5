#ifndef _KMODEL_NET_NETLINK_H
#define _KMODEL_NET_NETLINK_H
#include <linux/types.h>

struct nlattr {
	u16 nla_len;
	u16 nla_type;
};
static inline void *nla_data(const struct nlattr *nla)
{
	return (char *)nla + 4;
}
static inline int nla_len(const struct nlattr *nla)
{
	return nla->nla_len - 4;
}
static inline u32 nla_get_u32(const struct nlattr *nla)
{
	return *(u32 *)nla_data(nla);
}
static inline u16 nla_get_u16(const struct nlattr *nla)
{
	return *(u16 *)nla_data(nla);
}

#endif
