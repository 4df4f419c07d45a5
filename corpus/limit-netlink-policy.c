/*
 * Netlink attributes are checked against the family's policy before a
 * handler sees them: NLA_POLICY_MAX() and NLA_POLICY_RANGE() bound the value
 * nla_get_u32() returns, `.len` bounds an NLA_BINARY attribute's nla_len().
 * A validated count and a validated key stay in the slab caches; a bound
 * that still allows a costly table is "likely" and names the policy; an
 * attribute the policy only types is the peer's to choose.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <net/netlink.h>
#include <net/genetlink.h>

enum {
	FLT_A_UNSPEC,
	FLT_A_NRULES,
	FLT_A_KEY,
	FLT_A_NBUCKETS,
	FLT_A_NSTATS,
	__FLT_A_MAX,
};
#define FLT_A_MAX (__FLT_A_MAX - 1)

struct flt_rule {
	u64 match[4];
	u64 mask[4];
};

struct flt_table {
	struct flt_rule *rules;
	void *key;
	struct flt_rule *buckets;
	u64 *stats;
};

static const struct nla_policy flt_policy[FLT_A_MAX + 1] = {
	[FLT_A_NRULES] = NLA_POLICY_MAX(NLA_U32, 64),
	[FLT_A_KEY] = { .type = NLA_BINARY, .len = 512 },
	[FLT_A_NBUCKETS] = NLA_POLICY_RANGE(NLA_U32, 1, 16384),
	[FLT_A_NSTATS] = { .type = NLA_U32 },
};

static int flt_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct flt_table *t = info->user_ptr[0];
	struct nlattr *key = info->attrs[FLT_A_KEY];
	u32 n;

	if (!info->attrs[FLT_A_NRULES] || !key || !info->attrs[FLT_A_NBUCKETS])
		return -EINVAL;
	n = nla_get_u32(info->attrs[FLT_A_NRULES]);
	t->rules = kcalloc(n, sizeof(*t->rules), GFP_KERNEL);
	if (!t->rules)
		return -ENOMEM;
	t->key = kmemdup(nla_data(key), nla_len(key), GFP_KERNEL);
	if (!t->key)
		return -ENOMEM;
	n = nla_get_u32(info->attrs[FLT_A_NBUCKETS]);
	t->buckets = kcalloc(n, sizeof(*t->buckets), GFP_KERNEL); // note: costly-no-fallback // site: order=0..8 conf=likely src=remote
	return t->buckets ? 0 : -ENOMEM;
}

static int flt_stats_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct flt_table *t = info->user_ptr[0];
	u32 n;

	if (!info->attrs[FLT_A_NSTATS])
		return -EINVAL;
	n = nla_get_u32(info->attrs[FLT_A_NSTATS]);
	t->stats = kcalloc(n, sizeof(u64), GFP_KERNEL); // note: costly-no-fallback // site: order=0..10 conf=likely src=remote
	return t->stats ? 0 : -ENOMEM;
}

const struct genl_ops flt_ops[] = {
	{ .cmd = 1, .doit = flt_new_doit, .policy = flt_policy, .maxattr = FLT_A_MAX },
	{ .cmd = 2, .doit = flt_stats_doit, .policy = flt_policy, .maxattr = FLT_A_MAX },
};
/*
 * check-name: netlink policy bounds (NLA_POLICY_MAX/RANGE, .len) bound nla_get_u32() and nla_len()
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/limit-netlink-policy.c:60:15: note: 'kcalloc' can request order 0..8 (64 bytes to 1 MiB): no fallback [costly-no-fallback]
 * corpus/limit-netlink-policy.c:60:15: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/limit-netlink-policy.c:60:15: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/limit-netlink-policy.c:60:15: note: likely: the size comes from netlink attribute FLT_A_NBUCKETS (1..16384 by policy 'flt_policy') (line 59), and nothing here bounds it below order 4
 * corpus/limit-netlink-policy.c:72:13: note: 'kcalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/limit-netlink-policy.c:72:13: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/limit-netlink-policy.c:72:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/limit-netlink-policy.c:72:13: note: likely: the size comes from a netlink attribute (line 71), and nothing here bounds it below order 4
 * check-output-end
 */
