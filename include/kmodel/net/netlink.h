/* Model of include/net/netlink.h (6.12): attributes, their getters, and
 * the shape of a validation policy.  A policy is a static const array of
 * struct nla_policy indexed by attribute type, written with designated
 * initializers and the NLA_POLICY_*() helpers; the helpers expand to
 * designated field initializers (.type, .validation_type, .len, .min,
 * .max), as in the kernel. */
#ifndef _KMODEL_NET_NETLINK_H
#define _KMODEL_NET_NETLINK_H
#include <linux/types.h>
#include <linux/build_bug.h>

struct nlattr {
	u16 nla_len;
	u16 nla_type;
};

#define NLA_HDRLEN	4

/* attribute types of a policy entry */
enum {
	NLA_UNSPEC,
	NLA_U8,
	NLA_U16,
	NLA_U32,
	NLA_U64,
	NLA_STRING,
	NLA_FLAG,
	NLA_MSECS,
	NLA_NESTED,
	NLA_NESTED_ARRAY,
	NLA_NUL_STRING,
	NLA_BINARY,
	NLA_S8,
	NLA_S16,
	NLA_S32,
	NLA_S64,
	NLA_BITFIELD32,
	NLA_REJECT,
	NLA_BE16,
	NLA_BE32,
	NLA_SINT,
	NLA_UINT,
	__NLA_TYPE_MAX,
};

/* what is checked on top of the type */
enum nla_policy_validation {
	NLA_VALIDATE_NONE,
	NLA_VALIDATE_RANGE,
	NLA_VALIDATE_RANGE_WARN_TOO_LONG,
	NLA_VALIDATE_MIN,
	NLA_VALIDATE_MAX,
	NLA_VALIDATE_MASK,
	NLA_VALIDATE_RANGE_PTR,
	NLA_VALIDATE_FUNCTION,
};

struct netlink_range_validation {
	u64 min, max;
};

struct netlink_ext_ack;

struct nla_policy {
	u8 type;
	u8 validation_type;
	u16 len;
	union {
		u16 strict_start_type;
		const u32 mask;
		const struct nla_policy *nested_policy;
		const struct netlink_range_validation *range;
		struct {
			s16 min, max;
		};
		int (*validate)(const struct nlattr *attr, struct netlink_ext_ack *extack);
	};
};

/* The helpers only accept the types they make sense for (a build error
 * otherwise); the model keeps that shape with a zero-sized check. */
#define __NLA_CHECK(cond)		BUILD_BUG_ON_ZERO(!(cond))
#define __NLA_INT_OR_BINARY(tp)	\
	(__NLA_CHECK((tp) != NLA_NESTED && (tp) != NLA_STRING && (tp) != NLA_FLAG) + (tp))

#define NLA_POLICY_RANGE(tp, _min, _max) {		\
	.type = __NLA_INT_OR_BINARY(tp),		\
	.validation_type = NLA_VALIDATE_RANGE,		\
	.min = _min,					\
	.max = _max					\
}
#define NLA_POLICY_MIN(tp, _min) {			\
	.type = __NLA_INT_OR_BINARY(tp),		\
	.validation_type = NLA_VALIDATE_MIN,		\
	.min = _min,					\
}
#define NLA_POLICY_MAX(tp, _max) {			\
	.type = __NLA_INT_OR_BINARY(tp),		\
	.validation_type = NLA_VALIDATE_MAX,		\
	.max = _max,					\
}
#define NLA_POLICY_FULL_RANGE(tp, _range) {		\
	.type = __NLA_INT_OR_BINARY(tp),		\
	.validation_type = NLA_VALIDATE_RANGE_PTR,	\
	.range = _range,				\
}
#define NLA_POLICY_EXACT_LEN(_len)	NLA_POLICY_RANGE(NLA_BINARY, _len, _len)
#define NLA_POLICY_MIN_LEN(_len)	NLA_POLICY_MIN(NLA_BINARY, _len)
#define NLA_POLICY_MAX_LEN(_len)	NLA_POLICY_MAX(NLA_BINARY, _len)
#define NLA_POLICY_NESTED(policy) \
	{ .type = NLA_NESTED, .nested_policy = policy, .len = sizeof(policy) / sizeof((policy)[0]) - 1 }

int nla_parse_nested(struct nlattr *tb[], int maxtype, const struct nlattr *nla,
		     const struct nla_policy *policy, struct netlink_ext_ack *extack);
int nla_memcpy(void *dest, const struct nlattr *src, int count);

static inline void *nla_data(const struct nlattr *nla)
{
	return (char *)nla + NLA_HDRLEN;
}
static inline int nla_len(const struct nlattr *nla)
{
	return nla->nla_len - NLA_HDRLEN;
}
static inline u8 nla_get_u8(const struct nlattr *nla)
{
	return *(u8 *)nla_data(nla);
}
static inline u16 nla_get_u16(const struct nlattr *nla)
{
	return *(u16 *)nla_data(nla);
}
static inline u32 nla_get_u32(const struct nlattr *nla)
{
	return *(u32 *)nla_data(nla);
}
static inline u64 nla_get_u64(const struct nlattr *nla)
{
	return *(u64 *)nla_data(nla);
}

#endif
