/* Kernel data sources (ksrc.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "gfpaudit/ksrc.h"
#include "gfpaudit/err.h"
#include "gfpaudit/frontend.h"
#include "gfpaudit/strbuf.h"

struct named_src {
	const char *name;
	enum src_kind kind;
	const char *why;
	enum ksrc_bound bound;
};

static const struct named_src returns[] = {
	/* user */
	{ "iov_iter_count", SRC_USER, "iov_iter_count() of a user request", KB_NONE },
	{ "simple_strtoul", SRC_USER, "a number parsed from user text", KB_NONE },
	{ "simple_strtol", SRC_USER, "a number parsed from user text", KB_NONE },
	{ "simple_strtoull", SRC_USER, "a number parsed from user text", KB_NONE },
	{ "simple_strtoll", SRC_USER, "a number parsed from user text", KB_NONE },
	{ "memparse", SRC_USER, "a size parsed from user text", KB_NONE },
	{ "strnlen_user", SRC_USER, "the length of a user string", KB_NONE },
	{ "strlen_user", SRC_USER, "the length of a user string", KB_NONE },
	{ "memdup_user", SRC_USER, "a copy of user memory", KB_NONE },
	{ "vmemdup_user", SRC_USER, "a copy of user memory", KB_NONE },
	{ "memdup_user_nul", SRC_USER, "a copy of user memory", KB_NONE },
	{ "memdup_sockptr", SRC_USER, "a copy of user memory", KB_NONE },
	{ "memdup_sockptr_nul", SRC_USER, "a copy of user memory", KB_NONE },
	/* network */
	{ "nla_len", SRC_REMOTE, "a netlink attribute's length", KB_NLA_PAYLOAD },
	{ "nla_get_u8", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_u16", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_u32", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_u64", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_s8", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_s16", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_s32", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_s64", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_be16", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_be32", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_be64", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_le16", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_le32", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_le64", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_uint", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_sint", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "nla_get_msecs", SRC_REMOTE, "a netlink attribute", KB_NONE },
	{ "ntohs", SRC_REMOTE, "a network-order field", KB_NONE },
	{ "ntohl", SRC_REMOTE, "a network-order field", KB_NONE },
	{ "skb_headlen", SRC_REMOTE, "a packet's length", KB_NONE },
	{ "skb_header_pointer", SRC_REMOTE, "packet data", KB_NONE },
	/* device */
	{ "readb", SRC_DEVICE, "a register read", KB_NONE },
	{ "readw", SRC_DEVICE, "a register read", KB_NONE },
	{ "readl", SRC_DEVICE, "a register read", KB_NONE },
	{ "readq", SRC_DEVICE, "a register read", KB_NONE },
	{ "readb_relaxed", SRC_DEVICE, "a register read", KB_NONE },
	{ "readw_relaxed", SRC_DEVICE, "a register read", KB_NONE },
	{ "readl_relaxed", SRC_DEVICE, "a register read", KB_NONE },
	{ "readq_relaxed", SRC_DEVICE, "a register read", KB_NONE },
	{ "__raw_readb", SRC_DEVICE, "a register read", KB_NONE },
	{ "__raw_readw", SRC_DEVICE, "a register read", KB_NONE },
	{ "__raw_readl", SRC_DEVICE, "a register read", KB_NONE },
	{ "__raw_readq", SRC_DEVICE, "a register read", KB_NONE },
	{ "ioread8", SRC_DEVICE, "a register read", KB_NONE },
	{ "ioread16", SRC_DEVICE, "a register read", KB_NONE },
	{ "ioread32", SRC_DEVICE, "a register read", KB_NONE },
	{ "ioread64", SRC_DEVICE, "a register read", KB_NONE },
	{ "ioread16be", SRC_DEVICE, "a register read", KB_NONE },
	{ "ioread32be", SRC_DEVICE, "a register read", KB_NONE },
	{ "inb", SRC_DEVICE, "a port read", KB_NONE },
	{ "inw", SRC_DEVICE, "a port read", KB_NONE },
	{ "inl", SRC_DEVICE, "a port read", KB_NONE },
	{ "get_unaligned_le16", SRC_DEVICE, "device or wire data", KB_NONE },
	{ "get_unaligned_le32", SRC_DEVICE, "device or wire data", KB_NONE },
	{ "get_unaligned_le64", SRC_DEVICE, "device or wire data", KB_NONE },
	{ "get_unaligned_be16", SRC_DEVICE, "device or wire data", KB_NONE },
	{ "get_unaligned_be32", SRC_DEVICE, "device or wire data", KB_NONE },
	{ "get_unaligned_be64", SRC_DEVICE, "device or wire data", KB_NONE },
	{ "i2c_smbus_read_byte_data", SRC_DEVICE, "a device read", KB_NONE },
	{ "i2c_smbus_read_word_data", SRC_DEVICE, "a device read", KB_NONE },
	{ "of_property_count_elems_of_size", SRC_DEVICE, "a device-tree property", KB_NONE },
	{ "of_property_count_u8_elems", SRC_DEVICE, "a device-tree property", KB_NONE },
	{ "of_property_count_u16_elems", SRC_DEVICE, "a device-tree property", KB_NONE },
	{ "of_property_count_u32_elems", SRC_DEVICE, "a device-tree property", KB_NONE },
	{ "of_property_count_u64_elems", SRC_DEVICE, "a device-tree property", KB_NONE },
	{ "of_property_count_strings", SRC_DEVICE, "a device-tree property", KB_NONE },
	{ "of_get_child_count", SRC_DEVICE, "device-tree children", KB_NONE },
	{ "of_get_available_child_count", SRC_DEVICE, "device-tree children", KB_NONE },
	{ "device_property_count_u8", SRC_DEVICE, "a firmware property", KB_NONE },
	{ "device_property_count_u16", SRC_DEVICE, "a firmware property", KB_NONE },
	{ "device_property_count_u32", SRC_DEVICE, "a firmware property", KB_NONE },
	{ "device_property_count_u64", SRC_DEVICE, "a firmware property", KB_NONE },
	{ "fwnode_property_count_u32", SRC_DEVICE, "a firmware property", KB_NONE },
	{ "device_get_child_node_count", SRC_DEVICE, "firmware child nodes", KB_NONE },
	{ "resource_size", SRC_DEVICE, "a device resource's size", KB_NONE },
	{ "pci_msix_vec_count", SRC_DEVICE, "the device's MSI-X vectors", KB_NONE },
	{ "pci_msi_vec_count", SRC_DEVICE, "the device's MSI vectors", KB_NONE },
	{ "pci_sriov_get_totalvfs", SRC_DEVICE, "the device's VFs", KB_NONE },
	{ "virtio_cread8", SRC_DEVICE, "virtio config space", KB_NONE },
	{ "virtio_cread16", SRC_DEVICE, "virtio config space", KB_NONE },
	{ "virtio_cread32", SRC_DEVICE, "virtio config space", KB_NONE },
	{ "virtio_cread64", SRC_DEVICE, "virtio config space", KB_NONE },
	{ "ceph_decode_8", SRC_REMOTE, "a value decoded from a peer's message", KB_NONE },
	{ "ceph_decode_16", SRC_REMOTE, "a value decoded from a peer's message", KB_NONE },
	{ "ceph_decode_32", SRC_REMOTE, "a value decoded from a peer's message", KB_NONE },
	{ "ceph_decode_64", SRC_REMOTE, "a value decoded from a peer's message", KB_NONE },
	{ "be32_to_cpup", SRC_DEVICE, "a big-endian on-disk or wire field", KB_NONE },
	{ "be16_to_cpup", SRC_DEVICE, "a big-endian on-disk or wire field", KB_NONE },
	{ "le32_to_cpup", SRC_DEVICE, "a little-endian device field", KB_NONE },
	{ "le16_to_cpup", SRC_DEVICE, "a little-endian device field", KB_NONE },
	/* the functions behind those macros in the kernel's byteorder headers */
	{ "__be64_to_cpup", SRC_DEVICE, "a big-endian on-disk or wire field", KB_NONE },
	{ "__be32_to_cpup", SRC_DEVICE, "a big-endian on-disk or wire field", KB_NONE },
	{ "__be16_to_cpup", SRC_DEVICE, "a big-endian on-disk or wire field", KB_NONE },
	{ "__le64_to_cpup", SRC_DEVICE, "a little-endian device field", KB_NONE },
	{ "__le32_to_cpup", SRC_DEVICE, "a little-endian device field", KB_NONE },
	{ "__le16_to_cpup", SRC_DEVICE, "a little-endian device field", KB_NONE },
	{ "i_size_read", SRC_USER, "a file's size", KB_NONE },
	/* the size of an extended attribute's value (a size query with a NULL
	 * buffer): users set them, setxattr() refuses more than XATTR_SIZE_MAX */
	{ "vfs_getxattr", SRC_USER, "the size of an xattr value", KB_XATTR_SIZE_MAX },
	{ "__vfs_getxattr", SRC_USER, "the size of an xattr value", KB_XATTR_SIZE_MAX },
	/* the page cache's folio orders (linux/pagemap.h): the largest is
	 * MAX_PAGECACHE_ORDER on a filesystem with large folios (xfs, bcachefs,
	 * NFS, ...), reached by any large enough write; the smallest comes
	 * from the filesystem's block size (mkfs, on disk) */
	{ "mapping_max_folio_order", SRC_CONFIG, "the mapping's largest folio order (MAX_PAGECACHE_ORDER)",
	  KB_PAGECACHE_ORDER },
	{ "mapping_min_folio_order", SRC_DEVICE, "the mapping's smallest folio order (the filesystem's block size)",
	  KB_PAGECACHE_ORDER },
	/* runtime */
	{ "num_online_cpus", SRC_RUNTIME, "the number of CPUs", KB_NR_CPUS },
	{ "num_present_cpus", SRC_RUNTIME, "the number of CPUs", KB_NR_CPUS },
	{ "num_active_cpus", SRC_RUNTIME, "the number of CPUs", KB_NR_CPUS },
	{ "cpumask_weight", SRC_RUNTIME, "the number of CPUs", KB_NR_CPUS },
	{ "num_online_nodes", SRC_RUNTIME, "the number of NUMA nodes", KB_MAX_NUMNODES },
	{ "totalram_pages", SRC_RUNTIME, "the memory size", KB_NONE },
	{ "nr_free_buffer_pages", SRC_RUNTIME, "the memory size", KB_NONE },
	{ "si_mem_available", SRC_RUNTIME, "the memory size", KB_NONE },
	{ "get_num_physpages", SRC_RUNTIME, "the memory size", KB_NONE },
	{ "netif_get_num_default_rss_queues", SRC_RUNTIME, "the number of queues", KB_NONE },
};

struct out_src {
	const char *name;
	int argi; /* -1: every argument from the third on (sscanf) */
	enum src_kind kind;
	const char *why;
};

static const struct out_src outs[] = {
	{ "copy_from_user", 0, SRC_USER, "copy_from_user() into" },
	{ "_copy_from_user", 0, SRC_USER, "copy_from_user() into" },
	{ "__copy_from_user", 0, SRC_USER, "copy_from_user() into" },
	{ "raw_copy_from_user", 0, SRC_USER, "copy_from_user() into" },
	{ "copy_struct_from_user", 0, SRC_USER, "copy_struct_from_user() into" },
	{ "copy_from_sockptr", 0, SRC_USER, "copy_from_sockptr() into" },
	{ "copy_from_sockptr_offset", 0, SRC_USER, "copy_from_sockptr() into" },
	{ "kstrtoul", 2, SRC_USER, "kstrtoul() into" },
	{ "kstrtol", 2, SRC_USER, "kstrtol() into" },
	{ "kstrtoull", 2, SRC_USER, "kstrtoull() into" },
	{ "kstrtoll", 2, SRC_USER, "kstrtoll() into" },
	{ "kstrtouint", 2, SRC_USER, "kstrtouint() into" },
	{ "kstrtoint", 2, SRC_USER, "kstrtoint() into" },
	{ "kstrtou64", 2, SRC_USER, "kstrtou64() into" },
	{ "kstrtos64", 2, SRC_USER, "kstrtos64() into" },
	{ "kstrtou32", 2, SRC_USER, "kstrtou32() into" },
	{ "kstrtos32", 2, SRC_USER, "kstrtos32() into" },
	{ "kstrtou16", 2, SRC_USER, "kstrtou16() into" },
	{ "kstrtos16", 2, SRC_USER, "kstrtos16() into" },
	{ "kstrtou8", 2, SRC_USER, "kstrtou8() into" },
	{ "kstrtos8", 2, SRC_USER, "kstrtos8() into" },
	{ "kstrtoul_from_user", 3, SRC_USER, "kstrtoul_from_user() into" },
	{ "kstrtol_from_user", 3, SRC_USER, "kstrtol_from_user() into" },
	{ "kstrtoull_from_user", 3, SRC_USER, "kstrtoull_from_user() into" },
	{ "kstrtoll_from_user", 3, SRC_USER, "kstrtoll_from_user() into" },
	{ "kstrtouint_from_user", 3, SRC_USER, "kstrtouint_from_user() into" },
	{ "kstrtoint_from_user", 3, SRC_USER, "kstrtoint_from_user() into" },
	{ "kstrtou64_from_user", 3, SRC_USER, "kstrtou64_from_user() into" },
	{ "kstrtou32_from_user", 3, SRC_USER, "kstrtou32_from_user() into" },
	{ "kstrtou16_from_user", 3, SRC_USER, "kstrtou16_from_user() into" },
	{ "kstrtou8_from_user", 3, SRC_USER, "kstrtou8_from_user() into" },
	{ "sscanf", -1, SRC_USER, "sscanf() into" },
	{ "nla_memcpy", 0, SRC_REMOTE, "nla_memcpy() into" },
	{ "skb_copy_bits", 2, SRC_REMOTE, "skb_copy_bits() into" },
	{ "regmap_read", 2, SRC_DEVICE, "regmap_read() into" },
	{ "regmap_field_read", 1, SRC_DEVICE, "regmap_field_read() into" },
	{ "pci_read_config_byte", 2, SRC_DEVICE, "PCI config read into" },
	{ "pci_read_config_word", 2, SRC_DEVICE, "PCI config read into" },
	{ "pci_read_config_dword", 2, SRC_DEVICE, "PCI config read into" },
	{ "pcie_capability_read_word", 2, SRC_DEVICE, "PCIe capability read into" },
	{ "pcie_capability_read_dword", 2, SRC_DEVICE, "PCIe capability read into" },
	{ "of_property_read_u8", 2, SRC_DEVICE, "device-tree property into" },
	{ "of_property_read_u16", 2, SRC_DEVICE, "device-tree property into" },
	{ "of_property_read_u32", 2, SRC_DEVICE, "device-tree property into" },
	{ "of_property_read_u64", 2, SRC_DEVICE, "device-tree property into" },
	{ "of_property_read_u32_index", 3, SRC_DEVICE, "device-tree property into" },
	{ "device_property_read_u8", 2, SRC_DEVICE, "firmware property into" },
	{ "device_property_read_u16", 2, SRC_DEVICE, "firmware property into" },
	{ "device_property_read_u32", 2, SRC_DEVICE, "firmware property into" },
	{ "device_property_read_u64", 2, SRC_DEVICE, "firmware property into" },
	{ "fwnode_property_read_u16", 2, SRC_DEVICE, "firmware property into" },
	{ "fwnode_property_read_u32", 2, SRC_DEVICE, "firmware property into" },
	{ "fwnode_property_read_u64", 2, SRC_DEVICE, "firmware property into" },
	{ "request_firmware", 0, SRC_DEVICE, "request_firmware() into" },
	{ "virtio_cread_bytes", 2, SRC_DEVICE, "virtio config space into" },
	{ "xdr_stream_decode_u32", 1, SRC_REMOTE, "a peer's message into" },
	{ "request_firmware_direct", 0, SRC_DEVICE, "request_firmware() into" },
	{ "firmware_request_nowarn", 0, SRC_DEVICE, "request_firmware() into" },
};

static const struct named_src globals[] = {
	{ "nr_cpu_ids", SRC_RUNTIME, "nr_cpu_ids", KB_NR_CPUS },
	{ "nr_node_ids", SRC_RUNTIME, "nr_node_ids", KB_MAX_NUMNODES },
	{ "max_pfn", SRC_RUNTIME, "the memory size (max_pfn)", KB_NONE },
	{ "totalram_pages", SRC_RUNTIME, "the memory size", KB_NONE },
	{ "__num_online_cpus", SRC_RUNTIME, "the number of CPUs", KB_NR_CPUS },
};

struct field_src {
	const char *record, *field;
	enum src_kind kind;
	const char *why;
};

static const struct field_src fields[] = {
	{ "firmware", "size", SRC_DEVICE, "the size of a firmware file" },
	{ "iov_iter", "count", SRC_USER, "the size of a user request" },
	{ "sk_buff", "len", SRC_REMOTE, "a packet's length" },
	{ "sk_buff", "data_len", SRC_REMOTE, "a packet's length" },
	{ "nlattr", "nla_len", SRC_REMOTE, "a netlink attribute's length" },
	{ "nlmsghdr", "nlmsg_len", SRC_REMOTE, "a netlink message's length" },
};

static const struct named_src *named_find(const struct named_src *t, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(t[i].name, name))
			return &t[i];
	return NULL;
}

int ksrc_call_return(const char *name, const char **why, enum ksrc_bound *bound)
{
	const struct named_src *e = named_find(returns, sizeof(returns) / sizeof(returns[0]), name);
	if (!e)
		return -1;
	*why = e->why;
	*bound = e->bound;
	return (int)e->kind;
}

int ksrc_call_outparam(const char *name, unsigned argi, const char **why)
{
	for (size_t i = 0; name && i < sizeof(outs) / sizeof(outs[0]); i++)
		if (!strcmp(outs[i].name, name) &&
		    (outs[i].argi == (int)argi || (outs[i].argi < 0 && argi >= 2))) {
			*why = outs[i].why;
			return (int)outs[i].kind;
		}
	return -1;
}

int ksrc_global(const char *name, const char **why, enum ksrc_bound *bound)
{
	const struct named_src *e = named_find(globals, sizeof(globals) / sizeof(globals[0]), name);
	if (!e)
		return -1;
	*why = e->why;
	*bound = e->bound;
	return (int)e->kind;
}

int ksrc_field(const char *record, const char *field, const char *type_spelling, const char **why)
{
	for (size_t i = 0; record && field && i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strcmp(fields[i].record, record) && !strcmp(fields[i].field, field)) {
			*why = fields[i].why;
			return (int)fields[i].kind;
		}
	if (!type_spelling)
		return -1;
	const char *t = type_spelling;
	if (!strncmp(t, "const ", 6))
		t += 6;
	if (!strcmp(t, "__le16") || !strcmp(t, "__le32") || !strcmp(t, "__le64")) {
		*why = "a little-endian device field";
		return SRC_DEVICE;
	}
	if (!strcmp(t, "__be16") || !strcmp(t, "__be32") || !strcmp(t, "__be64")) {
		/* mostly on-disk formats (xfs, gfs2) and device data */
		*why = "a big-endian on-disk or wire field";
		return SRC_DEVICE;
	}
	return -1;
}

int ksrc_macro_local(const char *name, const char **why)
{
	if (!name)
		return -1;
	if (!strcmp(name, "__val_gu") || !strcmp(name, "__gu_val")) {
		*why = "get_user()";
		return SRC_USER;
	}
	/* virtio_cread()/virtio_cread_le(): the config-space field lands in
	 * this temporary (through the transport's get()), then in *ptr */
	if (!strcmp(name, "virtio_cread_v")) {
		*why = "virtio config space (virtio_cread())";
		return SRC_DEVICE;
	}
	return -1;
}

/* ---- module parameters: the variables module_param*() names ----
 *
 * Read from the file's text, not by visiting the translation unit's
 * declarations: with a precompiled header that visit deserializes every
 * declaration of the kernel headers (it made whole audits 40 % slower). */

struct ksrc_params {
	char **name;
	size_t n, alloc;
};

static void add_name(struct ksrc_params *p, const char *b, size_t len)
{
	while (len && (*b == ' ' || *b == '\t' || *b == '&'))
		b++, len--;
	while (len && (b[len - 1] == ' ' || b[len - 1] == '\t'))
		len--;
	if (!len || len > 120)
		return;
	for (size_t i = 0; i < len; i++)
		if (!(b[i] == '_' || (b[i] >= 'a' && b[i] <= 'z') || (b[i] >= 'A' && b[i] <= 'Z') ||
		      (b[i] >= '0' && b[i] <= '9')))
			return;
	if (p->n == p->alloc) {
		p->alloc = p->alloc ? p->alloc * 2 : 16;
		p->name = xrealloc(p->name, p->alloc * sizeof(*p->name));
	}
	p->name[p->n++] = xstrndup(b, len);
}

/* The argument `which` (0-based) of the call starting at `open` (the '('). */
static bool nth_arg(const char *open, const char *end, int which, const char **b, size_t *len)
{
	int depth = 0, arg = 0;
	const char *start = open + 1;
	for (const char *c = open; c < end; c++) {
		if (*c == '(')
			depth++;
		else if (*c == ')' && --depth == 0) {
			if (arg == which) {
				*b = start;
				*len = (size_t)(c - start);
				return true;
			}
			return false;
		} else if (*c == ',' && depth == 1) {
			if (arg == which) {
				*b = start;
				*len = (size_t)(c - start);
				return true;
			}
			arg++;
			start = c + 1;
		}
	}
	return false;
}

struct ksrc_params *ksrc_params_new(const struct tu *t)
{
	/* macro: which argument names the variable */
	static const struct { const char *m; int arg; } macros[] = {
		{ "module_param", 0 }, { "module_param_named", 1 }, { "module_param_unsafe", 0 },
		{ "module_param_named_unsafe", 1 }, { "module_param_cb", 2 }, { "module_param_cb_unsafe", 2 },
		{ "core_param", 1 }, { "module_param_hw", 0 }, { "module_param_hw_named", 1 },
	};
	struct ksrc_params *p = xcalloc(1, sizeof(*p));
	const char *s = t->main_text, *end = s ? s + t->main_len : NULL;
	for (const char *c = s; c && (c = memmem(c, (size_t)(end - c), "param", 5)); c += 5) {
		const char *w = c;
		while (w > s && (w[-1] == '_' || (w[-1] >= 'a' && w[-1] <= 'z')))
			w--;
		const char *e = c + 5;
		while (e < end && (*e == '_' || (*e >= 'a' && *e <= 'z')))
			e++;
		const char *open = e;
		while (open < end && (*open == ' ' || *open == '\t'))
			open++;
		if (open >= end || *open != '(')
			continue;
		for (size_t m = 0; m < sizeof(macros) / sizeof(macros[0]); m++) {
			if (strlen(macros[m].m) != (size_t)(e - w) || strncmp(w, macros[m].m, (size_t)(e - w)))
				continue;
			const char *b;
			size_t len;
			if (nth_arg(open, end, macros[m].arg, &b, &len))
				add_name(p, b, len);
		}
	}
	return p;
}

void ksrc_params_free(struct ksrc_params *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->name[i]);
	free(p->name);
	free(p);
}

bool ksrc_params_has(const struct ksrc_params *p, CXCursor var, bool *has_default, long long *def)
{
	*has_default = false;
	if (!p->n || clang_getCursorKind(var) != CXCursor_VarDecl)
		return false;
	CXString u = clang_getCursorSpelling(var);
	const char *nm = clang_getCString(u);
	bool found = false;
	for (size_t i = 0; i < p->n && !found; i++)
		found = !strcmp(p->name[i], nm);
	clang_disposeString(u);
	/* a module parameter is a file-scope variable of the file */
	if (found && (clang_getCursorLinkage(var) == CXLinkage_NoLinkage ||
		      clang_Cursor_hasVarDeclGlobalStorage(var) == 0))
		found = false;
	if (found) {
		CXCursor d = clang_getCursorDefinition(var);
		if (!clang_Cursor_isNull(d))
			*has_default = tu_eval_int(d, def);
	}
	return found;
}

/* ---- netlink policies: what validation bounds an attribute to ----
 *
 * A file's policies are the arrays of struct nla_policy defined in it,
 * written with designated initializers: [ATTR] = { .type = ..., .len = ...,
 * .validation_type = ..., .min = ..., .max = ... } (what NLA_POLICY_MAX(),
 * NLA_POLICY_RANGE(), NLA_POLICY_EXACT_LEN() expand to).  An entry is
 * keyed by the enumerator that names the attribute.  The NLA_* type and
 * NLA_VALIDATE_* values are the tree's own (its enumerators), never
 * hard-coded.
 *
 * Not modelled: which policy really parsed a given tb[] (every entry of
 * the file for the attribute must bound it, their join is the bound);
 * policies defined in other files or headers; range designators
 * ([A ... B]); NLA_POLICY_FULL_RANGE() (a pointer to a range); validation
 * functions; the lenient NLA_VALIDATE_RANGE_WARN_TOO_LONG (only a warning
 * unless the family parses strictly). */

enum nla_name {
	NN_U8, NN_U16, NN_U32, NN_U64, NN_UINT, NN_S8, NN_S16, NN_S32, NN_S64, NN_SINT,
	NN_STRING, NN_NUL_STRING, NN_BINARY,
	NN_VAL_RANGE, NN_VAL_MIN, NN_VAL_MAX,
	NN__N
};
static const char *const nla_names[NN__N] = {
	"NLA_U8", "NLA_U16", "NLA_U32", "NLA_U64", "NLA_UINT", "NLA_S8", "NLA_S16", "NLA_S32", "NLA_S64", "NLA_SINT",
	"NLA_STRING", "NLA_NUL_STRING", "NLA_BINARY",
	"NLA_VALIDATE_RANGE", "NLA_VALIDATE_MIN", "NLA_VALIDATE_MAX",
};

struct policy_ent {
	char *attr, *policy;
	unsigned line;
	long long type, vtype, len, min, max;
};

struct ksrc_policies {
	const struct tu *t;
	long long val[NN__N];
	bool have[NN__N];
	struct policy_ent *e;
	size_t n, alloc;
	const char *cur_policy; /* while walking one array */
};

static char *spelling_of(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
	clang_disposeString(s);
	return r;
}

struct kids {
	CXCursor c[8];
	unsigned n;
};

static enum CXChildVisitResult kids_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	struct kids *k = d;
	(void)parent;
	if (k->n < sizeof(k->c) / sizeof(k->c[0]))
		k->c[k->n] = c;
	k->n++;
	return CXChildVisit_Continue;
}

static struct kids kids_of(CXCursor c)
{
	struct kids k = { .n = 0 };
	clang_visitChildren(c, kids_visit, &k);
	return k;
}

static enum CXChildVisitResult enum_consts(CXCursor c, CXCursor parent, CXClientData d);

/* The NLA_* enums an entry's values name: their constants are the tree's
 * values of the types and validations (the enums may sit in a
 * precompiled header the TU walk does not show). */
static enum CXChildVisitResult nla_enum_refs(CXCursor c, CXCursor parent, CXClientData d)
{
	struct ksrc_policies *p = d;
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		CXCursor r = clang_getCursorReferenced(c);
		if (clang_getCursorKind(r) == CXCursor_EnumConstantDecl)
			clang_visitChildren(clang_getCursorSemanticParent(r), enum_consts, p);
	}
	return CXChildVisit_Recurse;
}

struct field_walk {
	struct ksrc_policies *p;
	struct policy_ent *e;
};

/* One `.field = value` of an entry. */
static enum CXChildVisitResult policy_field(CXCursor c, CXCursor parent, CXClientData d)
{
	struct field_walk *fw = d;
	struct policy_ent *e = fw->e;
	(void)parent;
	struct kids k = kids_of(c);
	if (k.n < 2 || k.n > 8 || clang_getCursorKind(k.c[k.n - 2]) != CXCursor_MemberRef)
		return CXChildVisit_Continue;
	char *f = spelling_of(k.c[k.n - 2]);
	long long v;
	bool enum_valued = !strcmp(f, "type") || !strcmp(f, "validation_type");
	if (enum_valued && !(fw->p->have[NN_BINARY] && fw->p->have[NN_VAL_MAX]))
		clang_visitChildren(k.c[k.n - 1], nla_enum_refs, fw->p);
	if (tu_eval_int(k.c[k.n - 1], &v)) {
		if (!strcmp(f, "type"))
			e->type = v;
		else if (!strcmp(f, "validation_type"))
			e->vtype = v;
		else if (!strcmp(f, "len"))
			e->len = v;
		else if (!strcmp(f, "min"))
			e->min = v;
		else if (!strcmp(f, "max"))
			e->max = v;
	}
	free(f);
	return CXChildVisit_Continue;
}

/* One `[ATTR] = { ... }` of a policy array. */
static enum CXChildVisitResult policy_entry(CXCursor c, CXCursor parent, CXClientData d)
{
	struct ksrc_policies *p = d;
	(void)parent;
	struct kids k = kids_of(c);
	if (k.n != 2 || clang_getCursorKind(k.c[0]) != CXCursor_DeclRefExpr ||
	    clang_getCursorKind(k.c[1]) != CXCursor_InitListExpr)
		return CXChildVisit_Continue;
	CXCursor en = clang_getCursorReferenced(k.c[0]);
	if (clang_getCursorKind(en) != CXCursor_EnumConstantDecl)
		return CXChildVisit_Continue;
	struct policy_ent e = { .type = -1, .vtype = -1, .len = 0, .min = 0, .max = -1 };
	struct field_walk fw = { p, &e };
	clang_visitChildren(k.c[1], policy_field, &fw);
	e.attr = spelling_of(en);
	e.policy = xstrdup(p->cur_policy);
	CXFile f;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, &e.line, NULL, NULL);
	ALLOC_GROW(p->e, p->n + 1, p->alloc);
	p->e[p->n++] = e;
	return CXChildVisit_Continue;
}

static bool is_policy_array(CXCursor var)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(var));
	if (t.kind != CXType_ConstantArray && t.kind != CXType_IncompleteArray)
		return false;
	CXString s = clang_getTypeSpelling(clang_getArrayElementType(t));
	bool r = strstr(clang_getCString(s), "struct nla_policy") != NULL;
	clang_disposeString(s);
	return r;
}

static enum CXChildVisitResult policy_init(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_InitListExpr)
		clang_visitChildren(c, policy_entry, d);
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult enum_consts(CXCursor c, CXCursor parent, CXClientData d)
{
	struct ksrc_policies *p = d;
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_EnumConstantDecl)
		return CXChildVisit_Continue;
	CXString s = clang_getCursorSpelling(c);
	const char *nm = clang_getCString(s);
	for (int i = 0; nm && !strncmp(nm, "NLA_", 4) && i < NN__N; i++)
		if (!strcmp(nm, nla_names[i])) {
			p->val[i] = clang_getEnumConstantDeclValue(c);
			p->have[i] = true;
		}
	clang_disposeString(s);
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult find_policies(CXCursor c, CXCursor parent, CXClientData d)
{
	struct ksrc_policies *p = d;
	(void)parent;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_VarDecl && clang_isCursorDefinition(c) &&
		 clang_Location_isFromMainFile(clang_getCursorLocation(c)) && is_policy_array(c)) {
		char *nm = spelling_of(c);
		p->cur_policy = nm;
		clang_visitChildren(c, policy_init, p);
		p->cur_policy = NULL;
		free(nm);
	}
	return CXChildVisit_Continue;
}

struct ksrc_policies *ksrc_policies_new(const struct tu *t)
{
	struct ksrc_policies *p = xcalloc(1, sizeof(*p));
	p->t = t;
	clang_visitChildren(clang_getTranslationUnitCursor(t->tu), find_policies, p);
	if (debug_on()) {
		fprintf(stderr, "debug: %zu netlink policy entries; NLA_U32 %s, NLA_BINARY %s\n", p->n,
			p->have[NN_U32] ? "known" : "unknown", p->have[NN_BINARY] ? "known" : "unknown");
		for (size_t i = 0; i < p->n; i++)
			fprintf(stderr, "debug:   %s[%s] type %lld vt %lld len %lld min %lld max %lld\n",
				p->e[i].policy, p->e[i].attr, p->e[i].type, p->e[i].vtype, p->e[i].len,
				p->e[i].min, p->e[i].max);
	}
	return p;
}

void ksrc_policies_free(struct ksrc_policies *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free(p->e[i].attr);
		free(p->e[i].policy);
	}
	free(p->e);
	free(p);
}

static bool nla_is(const struct ksrc_policies *p, long long v, enum nla_name n)
{
	return p->have[n] && p->val[n] == v;
}

static bool nla_int_type(const struct ksrc_policies *p, long long type)
{
	for (int i = NN_U8; i <= NN_SINT; i++)
		if (nla_is(p, type, (enum nla_name)i))
			return true;
	return false;
}

/* The bound one entry puts on what `len` (nla_len) or an integer getter
 * reads; false when it puts none. */
static bool entry_bound(const struct ksrc_policies *p, const struct policy_ent *e, bool len,
			long long *lo, long long *hi)
{
	bool vmax = nla_is(p, e->vtype, NN_VAL_MAX) || nla_is(p, e->vtype, NN_VAL_RANGE);
	bool vmin = nla_is(p, e->vtype, NN_VAL_MIN) || nla_is(p, e->vtype, NN_VAL_RANGE);
	*lo = 0;
	*hi = -1;
	if (len && nla_is(p, e->type, NN_BINARY)) {
		/* the length is checked against .len, and against the range */
		if (e->len > 0)
			*hi = e->len;
		if (vmax && e->max >= 0 && (*hi < 0 || e->max < *hi))
			*hi = e->max;
		if (vmin && e->min > 0)
			*lo = e->min;
	} else if (len && (nla_is(p, e->type, NN_STRING) || nla_is(p, e->type, NN_NUL_STRING))) {
		if (e->len > 0)
			*hi = e->len + 1; /* the string and its NUL */
	} else if (!len && nla_int_type(p, e->type)) {
		if (vmax && e->max >= 0)
			*hi = e->max;
		if (vmin)
			*lo = e->min;
	}
	return *hi >= 0 && *lo <= *hi;
}

bool ksrc_policy_bound(const struct ksrc_policies *p, const char *getter, const char *attr,
		       long long *lo, long long *hi, const char **policy, unsigned *line)
{
	static const char *const int_getters[] = {
		"nla_get_u8", "nla_get_u16", "nla_get_u32", "nla_get_u64", "nla_get_uint",
		"nla_get_s8", "nla_get_s16", "nla_get_s32", "nla_get_s64", "nla_get_sint",
	};
	bool len = getter && !strcmp(getter, "nla_len"), num = false;
	for (size_t i = 0; getter && i < sizeof(int_getters) / sizeof(int_getters[0]); i++)
		num = num || !strcmp(getter, int_getters[i]);
	if (!p || !attr || (!len && !num))
		return false;
	size_t hits = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct policy_ent *e = &p->e[i];
		long long l, h;
		if (strcmp(e->attr, attr))
			continue;
		if (!entry_bound(p, e, len, &l, &h))
			return false; /* some policy lets it through unbounded */
		if (!hits++) {
			*lo = l;
			*hi = h;
			*policy = e->policy;
			*line = e->line;
		} else {
			*lo = l < *lo ? l : *lo;
			*hi = h > *hi ? h : *hi;
		}
	}
	return hits > 0;
}
