/*
 * A netlink attribute's payload is at most 65531 bytes: its length is a
 * 16-bit field on the wire, less the 4-byte header.  A copy of an
 * attribute with no policy can reach order 4, never order 10; a table of
 * 16-byte entries per payload byte is still unbounded by it.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>

struct act_blob {
	u32 len;
	u8 data[];
};

struct act_blob *act_copy(const struct nlattr *attr)
{
	struct act_blob *b;

	b = kmalloc(sizeof(*b) + nla_len(attr), GFP_KERNEL); // note: costly-no-fallback // site: order=0..4 conf=likely src=remote
	if (!b)
		return NULL;
	b->len = nla_len(attr);
	memcpy(b->data, nla_data(attr), b->len);
	return b;
}

void *act_index(const struct nlattr *attr)
{
	return kcalloc(nla_len(attr), 16, GFP_KERNEL); // note: costly-no-fallback // site: order=0..8 conf=likely src=remote
}
/*
 * check-name: a netlink attribute's payload is at most U16_MAX - NLA_HDRLEN: order 0..4, not 0..10
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/prov-remote-nla-len.c:20:6: note: 'kmalloc' can request order 0..4 (4 bytes to 65535 bytes): no fallback [costly-no-fallback]
 * corpus/prov-remote-nla-len.c:20:6: note: gfp GFP_KERNEL
 * corpus/prov-remote-nla-len.c:20:6: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-remote-nla-len.c:20:6: note: likely: the size comes from a netlink attribute's length (line 20), and nothing here bounds it below order 4
 * corpus/prov-remote-nla-len.c:30:9: note: 'kcalloc' can request order 0..8 (up to 1048496 bytes): no fallback [costly-no-fallback]
 * corpus/prov-remote-nla-len.c:30:9: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/prov-remote-nla-len.c:30:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-remote-nla-len.c:30:9: note: likely: the size comes from a netlink attribute's length (line 30), and nothing here bounds it below order 4
 * check-output-end
 */
