/* What an allocation's memory is used as: must it be physically
 * contiguous, or would vmalloc memory do?
 *
 * The result of the call is followed from where it is stored (a local, a
 * struct field) through plain copies (`priv->buf = buf`), address helpers
 * (`page_address(page)`), pointer arithmetic and casts, in the function, in
 * same-file functions it is passed to (their parameter), and, for a struct
 * field, in every function of the file.  Physical: it reaches DMA mapping,
 * virt_to_phys/__pa, page_to_phys/page_to_pfn and other page-level APIs,
 * scatterlists, remap_pfn_range, set_memory_*, or a register write.
 * Virtual: every use reads, writes, indexes, copies or frees it.  Anything
 * else (handed to a function that is not known here, returned) is unknown.
 */
#ifndef GFPAUDIT_USAGE_H
#define GFPAUDIT_USAGE_H
#include <stddef.h>
#include "gfpaudit/fn.h"
#include "gfpaudit/site.h"

struct factbase;
struct file_result;

struct usage_scope {
	struct fn_model *const *fns; /* the functions of the file */
	size_t n;
	/* the tree's facts (NULL: none): a pointer handed to a function of
	 * another file is physical when that function's parameter is
	 * ("contig:F#i", usage_publish()) */
	const struct factbase *facts;
};

/* `fn` holds the call; `target` is what the call's result goes to (the
 * assignment, the VarDecl, or another node).  Sets *line (0: none) and
 * *why (owned, NULL when nothing decided it). */
enum contiguity usage_contiguity(const struct usage_scope *sc, const struct fn_model *fn,
				 const struct node *target, int *line, char **why);

/* The fact key of parameter i of function `name` ("contig:NAME#I"), new. */
char *usage_key(const char *name, int i);

/* Publish into `out` the pointer parameters of the file's functions that
 * other files can call (not static) whose memory must be physically
 * contiguous by the scan above (it reaches a DMA mapping, a physical
 * address, ...): "contig:F#i" = 1 at the line of that use.  Virtual or
 * unknown parameters publish nothing. */
void usage_publish(const struct usage_scope *sc, const char *file, struct file_result *out);

#endif
