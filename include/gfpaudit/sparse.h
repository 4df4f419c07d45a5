/* sparse as one more front end (analyzer/frontend/sparse.c): run on a file
 * with the kbuild-like flags frontend/flags.c builds for the tree. */
#ifndef GFPAUDIT_SPARSE_H
#define GFPAUDIT_SPARSE_H

#include <stddef.h>

/* One sparse warning. */
struct sparse_warning {
	int line, col;
	char *text; /* the warning and its continuation lines, joined by "; " */
};
/* Run sparse on `path` with the tree's kbuild-like flags (its arch) or, without
 * a tree, with `include_dir`; keep the warnings about restricted gfp_t.
 * 0, or GA_ETOOL when sparse cannot be run (message says why). */
int sparse_run(const char *path, const char *tree, const char *include_dir,
	       struct sparse_warning **out, size_t *nout);
void sparse_warnings_free(struct sparse_warning *w, size_t n);

#endif
