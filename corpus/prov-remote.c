/*
 * A netlink attribute sets the number of entries of a table: a network
 * peer (or an unprivileged user) controls it, "likely" (remote data).
 */
#include <linux/slab.h>
#include <net/netlink.h>
#include <linux/errno.h>

struct flow_ent {
	u64 match[8];
};

int flow_table_set(struct nlattr *attr, struct flow_ent **out)
{
	u32 n = nla_get_u32(attr);

	*out = kmalloc_array(n, sizeof(struct flow_ent), GFP_KERNEL); // note: costly-no-fallback // site: order=0..10 conf=likely src=remote
	return *out ? 0 : -ENOMEM;
}
/*
 * check-name: a netlink attribute sizes a table: likely, remote data
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/prov-remote.c:17:9: note: 'kmalloc_array' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-remote.c:17:9: note: gfp GFP_KERNEL
 * corpus/prov-remote.c:17:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-remote.c:17:9: note: likely: the size comes from a netlink attribute (line 15), and nothing here bounds it below order 4
 * check-output-end
 */
