/* The kernel's sources of data: which calls, out-parameters, globals and
 * fields give user, network, device, module-parameter or runtime values
 * (provenance.h).  A table of kernel facts (function, field and type
 * names), looked up by the interpreter at the leaves of an expression. */
#ifndef GFPAUDIT_KSRC_H
#define GFPAUDIT_KSRC_H
#include <stdbool.h>
#include <clang-c/Index.h>
#include "gfpaudit/provenance.h"

struct tu;

/* What bounds a quantity (the configuration's and the kernel's limits). */
/* KB_NLA_PAYLOAD: a netlink attribute's payload, at most U16_MAX less the
 * 4-byte header: its length is a 16-bit field on the wire. */
enum ksrc_bound { KB_NONE, KB_NR_CPUS, KB_MAX_NUMNODES, KB_XATTR_SIZE_MAX, KB_PAGECACHE_ORDER, KB_NLA_PAYLOAD };
/* The value a call to `name` returns: its kind (and a note), or -1. */
int ksrc_call_return(const char *name, const char **why, enum ksrc_bound *bound);
/* Argument `argi` of a call to `name` points to what the call fills from
 * that kind of data (copy_from_user's destination, kstrtoul's result):
 * its kind (and a note), or -1. */
int ksrc_call_outparam(const char *name, unsigned argi, const char **why);
/* A global variable read by name (nr_cpu_ids): its kind, or -1. */
int ksrc_global(const char *name, const char **why, enum ksrc_bound *bound);
/* A field read: by record and field name (struct firmware.size), or by
 * the field's declared type (__le32, __be16).  Its kind, or -1. */
int ksrc_field(const char *record, const char *field, const char *type_spelling, const char **why);
/* A local that a kernel macro fills from user memory (get_user's
 * temporary): its kind, or -1. */
int ksrc_macro_local(const char *name, const char **why);

/* The module parameters of the analyzed file (module_param and friends:
 * the globals a __param_* initializer names), collected once per file. */
struct ksrc_params;
struct ksrc_params *ksrc_params_new(const struct tu *t);
void ksrc_params_free(struct ksrc_params *p);
/* Is global `var` one of them?  has_default and def give its initializer when
 * it is constant. */
bool ksrc_params_has(const struct ksrc_params *p, CXCursor var, bool *has_default, long long *def);

/* The netlink policies defined in the analyzed file (static const struct
 * nla_policy arrays with designated initializers), collected once. */
struct ksrc_policies;
struct ksrc_policies *ksrc_policies_new(const struct tu *t);
void ksrc_policies_free(struct ksrc_policies *p);
/* What validation bounds `getter` (nla_get_u32(), nla_len()...) of
 * attribute `attr` (the enumerator that indexes tb[]) to: true with
 * [*lo, *hi], the first policy's name and its entry's line when every
 * entry of the file for `attr` bounds it (their join); false otherwise. */
bool ksrc_policy_bound(const struct ksrc_policies *p, const char *getter, const char *attr,
		       long long *lo, long long *hi, const char **policy, unsigned *line);

#endif
