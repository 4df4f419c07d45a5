/* What the front end takes in and hands up, for the layers above it that
 * should not see libclang (frontend.h): the files to parse instead of the
 * disk, and the facts of the tree a parsed file belongs to.  Part of
 * frontend/; the engine, the checks and the front ends include this. */
#ifndef GFPAUDIT_SOURCE_H
#define GFPAUDIT_SOURCE_H
#include <stddef.h>

/* An in-memory file that replaces the one on disk (staged blob, patched file). */
struct unsaved_file {
	const char *path; /* absolute, or relative to the tree */
	const char *contents;
	size_t len;
};

struct slowpath_model; /* slowpath.h: what the tree's page allocator does */

/* What the checks may read about the tree the file belongs to. */
struct tree_facts {
	int costly_order;   /* PAGE_ALLOC_COSTLY_ORDER as evaluated (3) */
	int max_order;      /* MAX_PAGE_ORDER / MAX_ORDER as evaluated */
	int page_shift;
	long long nr_cpus;      /* NR_CPUS (0: not known): bounds nr_cpu_ids */
	long long max_numnodes; /* MAX_NUMNODES (0: not known): bounds nr_node_ids */
	long long xattr_size_max; /* XATTR_SIZE_MAX (0: not known): bounds an xattr value's size */
	long long pagecache_max_order; /* MAX_PAGECACHE_ORDER (0: not known): bounds a folio order */
	/* The allocator model of the tree (read from its mm/page_alloc.c, or a
	 * built-in), loaded once per run by the engine (tu_parse leaves it
	 * NULL); NULL: none loaded, and the rules that need it stay quiet. */
	const struct slowpath_model *model;
};

/* The header constants orders and sizes are judged with, as the probes of
 * frontend/tu.c evaluate them (their x86-64 defaults when the headers do
 * not define one): what the Coccinelle rules are handed (cocci.h), since
 * spatch --no-includes cannot read them. */
struct tree_constants {
	int page_shift;            /* PAGE_SHIFT (12) */
	int costly_order;          /* PAGE_ALLOC_COSTLY_ORDER (3) */
	int max_order;             /* MAX_PAGE_ORDER, or MAX_ORDER - 1 before 6.4 (10) */
	long long max_order_macro; /* MAX_ORDER as defined (11 before 6.4); -1: not defined */
	long long kmalloc_max_cache_size; /* KMALLOC_MAX_CACHE_SIZE (2 << PAGE_SHIFT) */
	long long hpage_pmd_order; /* HPAGE_PMD_ORDER (9) */
};

#endif
