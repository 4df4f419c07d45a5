/* Kernel data sources (ksrc.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/ksrc.h"
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
	{ "nla_len", SRC_REMOTE, "a netlink attribute's length", KB_NONE },
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
	{ "i_size_read", SRC_USER, "a file's size", KB_NONE },
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
	if (name && (!strcmp(name, "__val_gu") || !strcmp(name, "__gu_val") || !strcmp(name, "__x"))) {
		if (strcmp(name, "__x")) {
			*why = "get_user()";
			return SRC_USER;
		}
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
