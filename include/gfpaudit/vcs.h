/* Git access (libgit2): open a repository, list what a change touches, and
 * install the pre-commit hook.
 *
 * A change is read from the object database, never from the work tree: the
 * "new" side of `--staged` is the blob in the index, so a partially staged
 * file is judged as it will be committed.  Every function returns 0 or a
 * negative GA_E* code with err_set() (libgit2's message included).
 */
#ifndef GFPAUDIT_VCS_H
#define GFPAUDIT_VCS_H
#include <stdbool.h>
#include <stddef.h>
#include "gfpaudit/strbuf.h"

struct vcs;

enum {
	/* Honour GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE as git does when it
	 * runs a hook (`git commit -a` hands the hook a temporary index). */
	VCS_OPEN_ENV = 1 << 0,
};

/* Discover the repository containing `dir` (NULL: the current directory);
 * works in linked worktrees and before the first commit.  GA_ENOTFOUND when
 * there is none. */
int vcs_open(const char *dir, unsigned flags, struct vcs **out);
void vcs_free(struct vcs *v);
/* The work tree root with a trailing '/', or NULL for a bare repository. */
const char *vcs_workdir(const struct vcs *v);
/* The directory shared by all worktrees (holds hooks/ and config). */
const char *vcs_commondir(const struct vcs *v);
/* "Name <email>" from user.name and user.email of v's configuration (NULL:
 * the user's and the system's); GA_ENOTFOUND unless both are set. */
int vcs_identity(struct vcs *v, char **out);
/* A path-valued config key (`~` expanded); GA_ENOTFOUND when unset. */
int vcs_config_path(struct vcs *v, const char *key, char **out);

enum vcs_status {
	VCS_ADDED,
	VCS_MODIFIED,
	VCS_DELETED,
	VCS_RENAMED,
	VCS_COPIED,
	VCS_OTHER,    /* type change, submodule, symlink, conflict: not a C file to read */
};

/* Lines of the new version a hunk covers, as git counts them: `count` lines
 * from `start`; count 0 is a pure deletion between line `start` and the
 * next one (start 0: at the top of the file). */
struct vcs_lines {
	int start, count;
};

struct vcs_change {
	enum vcs_status status;
	bool binary;          /* libgit2 saw binary content: no blobs loaded */
	bool too_large;       /* a blob above max_blob: no blobs loaded */
	char *old_path;       /* repository-relative; NULL when added */
	char *new_path;       /* repository-relative; NULL when deleted */
	char *old_data;       /* old blob (NUL-terminated); NULL when added */
	size_t old_len;
	char *new_data;       /* new blob: staged content for --staged; NULL when deleted */
	size_t new_len;
	struct vcs_lines *hunks; /* in new-version order */
	size_t nhunks, hunks_alloc;
};

struct vcs_diff_opts {
	/* Keep only paths ending in one of these ("" or NULL list: all);
	 * NULL-terminated. */
	const char *const *suffixes;
	size_t max_blob;      /* 0: 16 MiB */
};

struct vcs_diff {
	struct vcs_change *changes;
	size_t n, alloc;
	size_t nfiltered;     /* changed paths left out by the suffix filter */
	char *old_desc, *new_desc; /* "HEAD", "index", "<sha>", "(empty)" */
};

void vcs_diff_init(struct vcs_diff *d);
void vcs_diff_release(struct vcs_diff *d);

/* What `spec` names, against what:
 *   NULL or "--staged": the index against HEAD (against nothing before the
 *                       first commit);
 *   "REV":              a commit against its first parent (a root commit
 *                       against nothing);
 *   "A..B", "A...B":    tree A (the merge base for "...") against tree B.
 * Renames are followed: a renamed file's old blob comes from its old path.
 * GA_EINVAL for a spec that does not resolve. */
int vcs_diff(struct vcs *v, const char *spec, const struct vcs_diff_opts *o, struct vcs_diff *out);
/* Tracked files whose work-tree copy differs from the index (git's stat
 * cache, then a hash): status MODIFIED or DELETED, old side = the index blob,
 * no new side, no hunks.  The checker uses it to find headers edited but
 * not staged, so that their staged content, not the edit, is what a parse
 * sees. */
int vcs_diff_unstaged(struct vcs *v, const struct vcs_diff_opts *o, struct vcs_diff *out);

/* Does hunk list `c` touch the lines [lo, hi] of the new version? */
bool vcs_change_touches(const struct vcs_change *c, int lo, int hi);

/* Git's blob id of `data` (hex, 40 characters and a NUL). */
void vcs_blob_id(const char *data, size_t len, char out[41]);
/* Append to `out` the ids that stand for the headers a parse of `path`
 * (repository-relative) reads from HEAD: the trees include/ and arch/ and
 * the headers beside the file.  Nothing before the first commit.  Used in
 * cache keys: when any of them changes, the key does. */
int vcs_head_header_key(struct vcs *v, const char *path, struct strbuf *out);

/* ---- the pre-commit hook ---- */

/* Where git looks for hooks: core.hooksPath (relative to the work tree, as
 * git reads it) or <common dir>/hooks. */
int vcs_hooks_dir(struct vcs *v, char **out);

enum {
	VCS_HOOK_FORCE = 1 << 0, /* replace a foreign hook (kept as pre-commit.gfpaudit-saved) */
	VCS_HOOK_CHAIN = 1 << 1, /* keep a foreign hook as pre-commit.gfpaudit-chained, run it first */
};

/* Outcome of install/uninstall, for the command's message. */
enum vcs_hook_outcome {
	VCS_HOOK_INSTALLED,   /* no hook was there */
	VCS_HOOK_UPDATED,     /* ours was there: rewritten */
	VCS_HOOK_CHAINED,     /* a foreign hook now runs first */
	VCS_HOOK_REPLACED,    /* a foreign hook was moved aside (--force) */
	VCS_HOOK_REMOVED,     /* uninstall: ours removed */
	VCS_HOOK_RESTORED,    /* uninstall: ours removed, the chained one put back */
	VCS_HOOK_ABSENT,      /* uninstall: no hook of ours */
};

/* The marker line that says a hook is ours. */
#define VCS_HOOK_MARKER "# gfpaudit-hook: v1"

/* Write <hooks>/pre-commit running `<bin> check --staged`.  GA_EINVAL (with
 * the way out in the message) when a foreign hook is there and neither
 * FORCE nor CHAIN is given; *path_out (optional) gets the hook's path.
 * FORCE moves the foreign hook to pre-commit.gfpaudit-saved, or to
 * pre-commit.gfpaudit-saved.N when an earlier one is saved there (a saved
 * hook is never overwritten); *saved_out (optional) gets where. */
int vcs_hook_install(struct vcs *v, const char *bin, unsigned flags,
		     enum vcs_hook_outcome *outcome, char **path_out, char **saved_out);
/* Remove our hook (restoring a chained one).  GA_EINVAL when the hook there
 * is not ours. */
int vcs_hook_uninstall(struct vcs *v, enum vcs_hook_outcome *outcome, char **path_out);
/* The hook script text for `bin` (exposed for tests). */
char *vcs_hook_script(const char *bin);

#endif
