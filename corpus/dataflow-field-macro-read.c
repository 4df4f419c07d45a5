/*
 * A limit kept in a struct field, set to a small constant where the
 * resources are read, and read back through accessor macros when the
 * filter tables are allocated.  The file's stores bound the field (64
 * entries of 6 bytes): nothing costly.  One accessor reaches the field
 * through a call's result, a path the function cannot track; the
 * joined stores bound that read as well, not only its kind.  A field
 * nothing here bounds stays a note.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/types.h>
#include <linux/errno.h>

#define NIC_MAX_MC	64

struct nic_res {
	u16 max_mc;
	u16 max_uc;
	u16 max_vlans;
};

struct nic {
	struct nic_res res;
	u8 (*mc_list)[6];
	u8 (*uc_list)[6];
	u16 *vids;
};

struct nic_res *nic_res_of(struct nic *n);
u16 nic_query_vlans(struct nic *n);

#define nic_max_mc(n)		((n)->res.max_mc)
#define nic_max_uc(n)		(nic_res_of(n)->max_uc)
#define nic_max_vlans(n)	((n)->res.max_vlans)

void nic_get_resources(struct nic *n)
{
	n->res.max_mc = NIC_MAX_MC;
	n->res.max_uc = 32;
	n->res.max_vlans = nic_query_vlans(n);
}

int nic_filters_create(struct nic *n)
{
	n->mc_list = kcalloc(nic_max_mc(n), sizeof(*n->mc_list), GFP_KERNEL);
	if (!n->mc_list)
		return -ENOMEM;
	n->uc_list = kcalloc(nic_max_uc(n), sizeof(*n->uc_list), GFP_KERNEL);
	if (!n->uc_list)
		return -ENOMEM;
	n->vids = kcalloc(nic_max_vlans(n), sizeof(*n->vids), GFP_KERNEL); // site: order=0..5 api=kcalloc // note: costly-no-fallback
	if (!n->vids)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: a field read through an accessor macro takes the file's stores
 * check-command: gfpaudit audit --sites --severity note $file
 *
 * check-output-start
 * corpus/dataflow-field-macro-read.c:52:12: site: 'kcalloc' in 'nic_filters_create': orders 0..5, size 0..131070, gfp GFP_KERNEL | __GFP_ZERO, fallback none
 * corpus/dataflow-field-macro-read.c:52:12: note: 'kcalloc' can request order 0..5 (up to 131070 bytes): no fallback [costly-no-fallback]
 * corpus/dataflow-field-macro-read.c:52:12: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/dataflow-field-macro-read.c:52:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/dataflow-field-macro-read.c:52:12: note: possible: the size comes from field:nic_res.max_vlans (1 store across the tree, e.g. corpus/dataflow-field-macro-read.c:41), whose values are not known here
 * check-output-end
 */
