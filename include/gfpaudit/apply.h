/* Apply mailed patches to a git tree in memory (libgit2).
 *
 * Trust model (README, "Reviewing mailed patch series"): the patches are
 * untrusted.  Nothing here writes
 * a work tree, an index file or a ref: new blobs and trees go to an
 * in-memory object store (libgit2 mempack) stacked on the repository's
 * object database and vanish with the apply_repo.  Paths are checked before
 * anything is applied: absolute paths, ".." components, ".git" components,
 * empty components and control characters are refused.
 */
#ifndef GFPAUDIT_APPLY_H
#define GFPAUDIT_APPLY_H
#include <stdbool.h>
#include <stddef.h>

struct apply_repo;
struct apply_tree; /* an immutable tree of the repository (or of the mempack) */

/* Open the repository at (or above) `path`.  0, GA_ENOTFOUND (not a git
 * repository) or GA_ETOOL. */
int apply_repo_open(const char *path, struct apply_repo **out);
void apply_repo_free(struct apply_repo *r);
/* The work tree root (or the git dir of a bare repository), no trailing /. */
const char *apply_repo_root(const struct apply_repo *r);

/* Resolve a revision to a commit and take its tree.  `sha_out` receives the
 * full commit id (41 bytes).  GA_ENOTFOUND when the repository does not have
 * it (err_last() says so). */
int apply_repo_tree(struct apply_repo *r, const char *rev, char sha_out[41], struct apply_tree **out);
void apply_tree_free(struct apply_tree *t);
/* Is the mailed diff (text, len) already a commit on HEAD's first-parent
 * line, among its newest `max`?  Compared by git's patch-id (whitespace
 * and line numbers do not count).  1 with the commit's id and its first
 * parent's in commit_out/parent_out, 0 when none is, <0 on error. */
int apply_repo_find_applied(struct apply_repo *r, const char *text, size_t len, int max,
			    char commit_out[41], char parent_out[41]);
/* Blob contents at `path` in `t`: *buf is NUL-terminated (caller frees).
 * GA_ENOTFOUND when absent, GA_EINVAL when not a regular file (symlink,
 * submodule, directory), GA_EINVAL when over `max` bytes (0: no cap). */
int apply_tree_read(struct apply_repo *r, const struct apply_tree *t, const char *path,
		    size_t max, char **buf, size_t *len);
/* 40-hex id of the blob at `path`, or "" when absent. */
void apply_tree_blob_id(const struct apply_tree *t, const char *path, char out[41]);

/* 0 when `path` may be written by a patch, GA_EINVAL with a reason otherwise. */
int apply_check_path(const char *path);
/* The .c files of tree `t` that #include `header` (a path in the tree): by
 * its name in quotes from its own directory, or as <linux/foo.h> for
 * include/linux/foo.h and arch/X/include/linux/foo.h.  At most `max` of
 * them, in tree order; *capped when there are more.  Paths are allocated
 * (caller frees each and the array). */
int apply_tree_includers(struct apply_repo *r, const struct apply_tree *t, const char *header, size_t max,
			 char ***out, size_t *n, bool *capped);

/* One file a patch touches. */
struct apply_file {
	char *old_path, *new_path; /* NULL when added / deleted */
	char status;               /* 'A' added, 'D' deleted, 'M' modified, 'R' renamed, 'C' copied */
	bool binary;
};

struct apply_hunk_line {
	int old_line, new_line; /* -1 when not on that side */
	char origin;            /* ' ', '+', '-' */
	char *text;             /* without the newline */
};
struct apply_hunk {
	char *header;           /* "@@ -10,6 +10,8 @@ static int foo(void)" */
	int old_start, old_lines, new_start, new_lines;
	struct apply_hunk_line *lines;
	size_t nlines;
};
struct apply_file_hunks {
	size_t nhunks;
	struct apply_hunk *hunks;
};

struct apply_result {
	bool applied;
	bool normalized;      /* a plain `diff -u` was rewritten into git form */
	int moved;            /* hunks applied at an offset (their context found elsewhere) */
	char *error;          /* why it did not apply (or was refused), or NULL */
	char *failed_file;    /* the file whose hunk failed, or NULL */
	char *failed_hunk;    /* that hunk's "@@ ... @@" line, or NULL */
	struct apply_file *files;
	struct apply_file_hunks *hunks; /* parallel to files */
	size_t nfiles;
	struct apply_tree *tree;        /* the tree after the patch (when applied) */
};

/* Apply one patch (`diff`, the diff part of a mail) to `pre`.  libgit2
 * applies a hunk only where its header says; when a hunk does not fit there,
 * hunks whose context and removed lines occur elsewhere in the file are
 * moved to the nearest such place (as `git apply` does, without fuzz) and
 * the patch is applied once more.  Returns 0
 * with res->applied false and res->error set when the patch is refused
 * (bad path, symlink) or does not apply; a negative code only when the
 * repository itself fails.  `res` is always initialised; release it. */
int apply_patch(struct apply_repo *r, const struct apply_tree *pre, const char *diff, size_t len,
		struct apply_result *res);
void apply_result_release(struct apply_result *res);

#endif
