/* The tree's facts in the cache: what every file of a tree publishes
 * (facts.h observations), kept by `gfpaudit facts` so that an audit of part
 * of the tree joins the other files' observations too.
 *
 * Rows are per cache context (tree, configuration, tool: store_context) and
 * reported path, with the file's content and size/mtime when they were
 * made; a file that changed since is left out (counted in `stale`) until it
 * is audited again or the facts are rebuilt.  Audits of part of the tree
 * update the rows of the files they judged.
 */
#ifndef GFPAUDIT_TREEFACTS_H
#define GFPAUDIT_TREEFACTS_H
#include <stdbool.h>
#include <stddef.h>
#include "gfpaudit/result.h"

struct store;

struct treefacts {
	bool built;                  /* the context has tree facts */
	char *root;                  /* what they were built from */
	size_t rows;                 /* files recorded */
	struct file_result **files;  /* loaded: results holding file and facts only */
	size_t n;
	size_t stale;                /* rows left out: the file changed or is gone */
	char digest[41];             /* SHA-1 hex of the root and the rows loaded ("" when not built) */
};

/* Load the rows of `context`, leaving out the files whose real paths are
 * skip[0..nskip) (the files the audit judges itself).  Not built is no error (built false). */
int treefacts_load(struct store *s, const char *context, char *const *skip, size_t nskip, struct treefacts *out);
void treefacts_release(struct treefacts *t);

/* Record the observations of files[0..n) (results of paths[0..n), analyzed
 * ones only).  rebuild: drop the context's rows first and mark it built from
 * root; else only update rows (of a context already built).  only: when
 * not NULL, files[i] with only[i] false are left as they are.  Parses what
 * the results deferred (result.h). */
int treefacts_save(struct store *s, const char *context, const char *root, bool rebuild,
		   struct file_result **files, char *const *paths, size_t n, const bool *only);

#endif
