/* Where a size or order value comes from, and how sure a finding is.
 *
 * Every value the interpreter computes carries the set of kinds of data it
 * is made of (a bit mask of enum src_kind) and, for the most telling kind,
 * one line saying what it is ("count of write()", "field 'struct foo.n'").
 * A type's width is never a source: an unknown u16 is "unknown".
 *
 * A site's confidence follows (see site_confidence in site.h):
 *   proven   - constants of this file alone make the order costly, or
 *              every path does, or user data whose only bound is a
 *              kernel limit any user reaches (SRC_USER_LIMIT);
 *   likely   - user, network or module-parameter data can reach a costly
 *              order and nothing known bounds it below, or constants other
 *              files store into a field do;
 *   possible - only device, runtime or unknown data (a field whose stores
 *              are not known, a parameter) would make it costly.
 * Only proven costly orders are warnings; likely and possible ones are
 * notes (judged on 6.12: bench/accuracy/issue14-precision-c.md).
 */
#ifndef GFPAUDIT_PROVENANCE_H
#define GFPAUDIT_PROVENANCE_H
#include <stdbool.h>

enum src_kind {
	SRC_CONST,   /* literals, sizeof, enumerators, constant macros */
	SRC_CONFIG,  /* Kconfig values */
	SRC_PARAM,   /* a module parameter */
	SRC_USER,    /* syscall, ioctl, write() counts, copy_from_user targets */
	SRC_REMOTE,  /* a network peer: netlink attributes, packet fields */
	SRC_DEVICE,  /* registers, descriptors, firmware, device tree */
	SRC_RUNTIME, /* CPUs, queues, memory size */
	SRC_UNKNOWN, /* nothing known: a field, a parameter, a call's result */
	SRC_NKINDS
};
#define SRCB(k) (1u << SRC_##k)
/* Kinds that someone outside the code controls. */
#define SRC_CONTROLLED (SRCB(PARAM) | SRCB(USER) | SRCB(REMOTE) | SRCB(DEVICE))
/* Those that make a costly order "likely" (device data is usually small in
 * practice or checked where it is read: "possible"). */
#define SRC_LIKELY (SRCB(PARAM) | SRCB(USER) | SRCB(REMOTE))
#define SRC_ALL ((1u << SRC_NKINDS) - 1)
/* Not a kind: the value was joined from what other files store into a
 * field or global (the tree's facts; a caller's constant argument is not
 * marked: that call path exists).  Constants joined that way make a costly
 * order "likely" at most: judged on shard 2/4 of 6.12, 3 of 7 such
 * "proven" findings were true (the join takes every store, also those for
 * other instances; bench/accuracy/issue14-precision-c.md). */
#define SRC_FROM_FACTS (1u << 15)
/* Not a kind: the top of the value's range is a kernel-wide limit on data
 * any user chooses (an xattr value's size, up to XATTR_SIZE_MAX: every
 * user who can set an xattr reaches it), so a costly top is a path a user
 * can take at will.  User data with this limit alone (and constants) makes
 * a costly order "proven"; judged in bench/accuracy/judged-recall-s6.tsv.
 * A write() count, an ioctl field or a sysfs number is not such data: its
 * real bound lives in callers, the protocol or the hardware (judged:
 * bench/accuracy/issue14-recall.md, session 6). */
#define SRC_USER_LIMIT (1u << 14)
/* Not a kind, set on a site only (never on a value's kinds): the top of
 * the costly order is reached by user choice alone, whatever else the
 * order is made of (aval.top_user in eval.h).  __filemap_get_folio()'s
 * order is max(the mapping's smallest folio order, the order callers
 * encode from a write's length) capped at the mapping's largest: any user
 * writing 2 MiB to a file of a large-folio filesystem asks for
 * MAX_PAGECACHE_ORDER, whatever the smallest order is.  Makes a costly
 * order "proven". */
#define SRC_TOP_USER (1u << 13)
/* Not a kind, set on a site only: with the module parameters it reads at
 * their defaults (module_param's variable's initializer) and constants,
 * every path asks for a costly order: costly as the code ships, whatever
 * an administrator may set.  Makes a costly order "proven" (judged on
 * 6.12: hfi1's 128 sdma requests, vhost-scsi's 128 queues were worth a
 * change; parameters whose small default only an administrator raises
 * stay "likely": bench/accuracy/judged-issue14-c.tsv). */
#define SRC_AT_DEFAULT (1u << 12)

const char *src_kind_name(enum src_kind k);
int src_kind_lookup(const char *name); /* -1 if unknown */
/* The most telling kind of a mask (user > remote > device > param > runtime
 * > unknown > config > const); -1 for an empty mask. */
int src_primary(unsigned mask);
/* Rank of a kind in that order (higher tells more). */
int src_rank(int kind);

enum confidence {
	CONF_NONE,     /* not judged (the order cannot be costly) */
	CONF_POSSIBLE,
	CONF_LIKELY,
	CONF_PROVEN,
};
const char *confidence_name(enum confidence c);
int confidence_lookup(const char *name); /* -1 if unknown */

/* One copy of each string for the life of the process (what the values'
 * provenance notes point to; they outlive the function models). */
const char *str_intern(const char *s);

#endif
