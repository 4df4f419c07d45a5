/* An allocation site: one call, as the user wrote it, with what was proved.
 *
 * Sites are plain data (strings owned by the site) so they can cross process
 * boundaries as JSON (see result.h) and be stored in the cache.
 */
#ifndef GFPAUDIT_SITE_H
#define GFPAUDIT_SITE_H
#include <stddef.h>
#include "gfpaudit/gfp.h"
#include "gfpaudit/order.h"
#include "gfpaudit/provenance.h"

enum fallback_kind {
	FB_NONE,        /* nothing catches a failure but an error return */
	FB_ORDER_LOOP,  /* an enclosing loop lowers the order and retries */
	FB_LOWER_ORDER, /* an explicit retry at a lower order after a NULL check */
	FB_VMALLOC,     /* a vmalloc-family retry after a NULL check */
	FB_KVMALLOC,    /* the API falls back itself (kvmalloc family) */
	FB_UNKNOWN,     /* the result leaves the function unchecked */
	/* Every caller the tree shows copes with the failure the function
	 * returns (callers.h, through the fact base): */
	FB_CALLER_SMALLER, /* it calls again with a smaller size or order */
	FB_CALLER_PATH,    /* it gets the same thing another way (another allocator) */
	FB_CALLER_OFF,     /* it goes on without it: a feature off */
	/* The function itself: the failure goes on past a test that returns
	 * on success, into a call of this file's that allocates (readahead's
	 * `if (!err) return; fallback: do_page_cache_ra(...)`). */
	FB_OTHER_PATH,
	/* The function itself goes on without it: it returns void, a failure
	 * ends it without storing an errno (its callers cannot see it), and
	 * the memory must be physically contiguous, so kvmalloc is no fix
	 * (sdhci's bounce buffer: "falling back to single segments"). */
	FB_FEATURE_OFF,
};
/* A fallback in the callers (FB_CALLER_*). */
#define FB_IS_CALLER(k) ((k) >= FB_CALLER_SMALLER && (k) <= FB_CALLER_OFF)
/* Something other than the order loop itself catches a failed attempt
 * (an explicit retry, another allocator or path, a caller that copes):
 * every attempt at the site is then a fallback attempt. */
bool fallback_catches(enum fallback_kind k);
const char *fallback_name(enum fallback_kind k);
int fallback_lookup(const char *name); /* -1 if unknown */

/* Can an attempt stall in direct reclaim and compaction? */
enum stall_kind {
	STALL_MAYBE, /* the mask may or may not carry __GFP_DIRECT_RECLAIM (a parameter) */
	STALL_YES,   /* every path sets __GFP_DIRECT_RECLAIM */
	STALL_NO,    /* no path does: the attempt takes free blocks or fails */
};
const char *stall_name(enum stall_kind k);
int stall_lookup(const char *name); /* -1 if unknown */

/* What the memory is used as (see usage.h). */
enum contiguity {
	CONTIG_UNKNOWN,  /* handed on where it cannot be followed */
	CONTIG_PHYSICAL, /* reaches DMA mapping, physical addresses, scatterlists, page-level APIs */
	CONTIG_VIRTUAL,  /* only read, written, indexed, copied: vmalloc memory would do */
};
const char *contiguity_name(enum contiguity c);
int contiguity_lookup(const char *name); /* -1 if unknown */

/* What kind of allocator the API is (from the allocator table). */
enum api_kind {
	API_PAGES,   /* page allocator: order argument */
	API_EXACT,   /* page allocator sized in bytes (alloc_pages_exact) */
	API_SLAB,    /* kmalloc family: page allocator above KMALLOC_MAX_CACHE_SIZE */
	API_KV,      /* kvmalloc family: NORETRY|NOWARN kmalloc, then vmalloc */
	API_VMALLOC, /* vmalloc family: never a high-order site */
	API_WRAPPER, /* a function of the analyzed file that forwards gfp/order */
};
const char *api_kind_name(enum api_kind k);

/* One attempt class: the orders of the site that get one mask and play one
 * role (see attempts.h for how they are cut). */
enum attempt_role {
	ROLE_FALLBACK, /* something retries smaller (or vmalloc) after it fails */
	ROLE_LAST,     /* a failure here is the caller's failure */
};
const char *attempt_role_name(enum attempt_role r); /* "fallback", "last" */

struct attempt {
	struct order_range orders;
	enum attempt_role role;
	struct gfp_bits gfp;
	char *when; /* "order > min_order" when a symbolic floor cuts it, else NULL */
};

struct evidence {
	char *file;   /* relative path as reported */
	int line;
	char *note;   /* "order: order = min(...)" */
};

struct site {
	char *file;       /* as reported (relative to the tree root with --tree) */
	int line, col;
	char *function;   /* enclosing function */
	char *api;        /* as written: alloc_pages, not alloc_pages_noprof */
	enum api_kind kind;

	struct gfp_bits gfp;       /* join over every path to the call */
	/* The attempt classes, ordered by role (fallback first) then orders
	 * from high to low; never empty once the model built the site. */
	struct attempt *att;
	size_t natt;
	struct order_range order;  /* requested order (for slab: page-allocator order) */
	struct interval size;      /* bytes, for API_SLAB/API_KV/API_EXACT */
	enum fallback_kind fallback;
	int fallback_line;         /* where the fallback is (0: none or the API's own) */
	char *fallback_file;       /* in that file (a caller's), NULL: in this one */
	enum stall_kind stall;     /* of the costly attempts (of all when none is costly) */
	enum contiguity contig;
	int contig_line;           /* the use that decided it (0: none) */
	char *contig_why;          /* "reaches 'dma_map_single'", or NULL */

	/* Provenance of the order (or size): the kinds of data it is made of
	 * (SRCB bits), the most telling one in words and its line (0: none),
	 * and what that makes of a costly order (CONF_NONE: cannot be costly,
	 * or not known).  unknown_why says why an order is not known. */
	unsigned src;
	char *src_why;
	int src_line;
	enum confidence conf;
	char *unknown_why;

	char *gfp_expr;   /* normalized source text of the mask argument */
	char *order_expr; /* normalized source text of the order/size argument */

	struct evidence *ev;
	size_t nev, ev_alloc;

	/* Where the call and its arguments are spelled in the analyzed file:
	 * byte offsets [begin, end) into the file as written, 0/0 when the
	 * spelling is not in the file (inside a macro body).  Fix generation
	 * edits these; they are not part of the JSON form. */
	unsigned call_begin, call_end;
	unsigned gfp_begin, gfp_end;
	unsigned order_begin, order_end;
	char *result_lvalue; /* normalized text the result is stored to, or NULL */
};

void site_init(struct site *s);
void site_release(struct site *s);
void site_copy(struct site *dst, const struct site *src);
void site_add_evidence(struct site *s, const char *file, int line, const char *note);
/* Append an attempt class (strings copied). */
void site_add_attempt(struct site *s, struct order_range orders, enum attempt_role role,
		      struct gfp_bits gfp, const char *when);
/* The classes a site has when nothing in its function cuts the orders:
 * one mask (s->gfp) for all; in an order loop the attempts above the lowest
 * order have a fallback, the lowest is the last.  Replaces any classes. */
void site_default_attempts(struct site *s);
/* The join of the masks of the classes with role `role` whose orders reach
 * above `above` (-1: any); false (and *out untouched) when there is none. */
bool site_role_mask(const struct site *s, enum attempt_role role, int above, struct gfp_bits *out);
/* Page-allocator orders of the tree the site came from. */
#define PAGE_ALLOC_COSTLY_ORDER_DEFAULT 3
bool site_can_be_costly(const struct site *s, int costly_order);
/* Whether the attempts above costly_order (all attempts when none is
 * known to be) can stall: from their masks' __GFP_DIRECT_RECLAIM. */
enum stall_kind site_stall_of(const struct site *s, int costly_order);
/* How sure "the order can exceed costly_order" is, from the order range and
 * its provenance (provenance.h). */
enum confidence site_confidence(const struct site *s, int costly_order);
/* Set the provenance (why and unknown_why copied). */
void site_set_source(struct site *s, unsigned src, const char *why, int line);

#endif
