/* Findings across a change: which are new, which are fixed, which were there.
 *
 * The checker analyzes each changed C file twice, as it was (old blob) and as
 * it will be (new blob: the staged content for a commit), and sorts the
 * findings:
 *   new       not there before and the site is in a function the change
 *             touches.  "There before" pairs findings one to one by
 *             fingerprint (a second identical call is new too), then by the
 *             fingerprint without the function (a call moved to a helper or
 *             a renamed function is the same call);
 *   indirect  not there before, outside the touched functions (a helper or a
 *             header changed under it);
 *   fixed     there before, gone after;
 *   old       everything else: never reported.
 * Fingerprints do not contain line numbers, so code that only moved is old.
 */
#ifndef GFPAUDIT_CHANGE_H
#define GFPAUDIT_CHANGE_H
#include <stdbool.h>
#include <stddef.h>
#include "gfpaudit/engine.h"
#include "gfpaudit/fnscan.h"
#include "gfpaudit/isolate.h"
#include "gfpaudit/result.h"
#include "gfpaudit/vcs.h"

/* The function scanner (fnscan.h) under its older name. */
static inline void change_scan_functions(const char *src, size_t len, struct fn_extents *out)
{
	fn_scan_functions(src, len, out);
}

struct change_problem {
	char *file;     /* repository-relative */
	char *reason;
	bool failed;    /* the new side could not be analyzed (else: a warning) */
};

struct change_set {
	struct finding *new_, *indirect, *fixed;
	size_t nnew, new_alloc, nindirect, indirect_alloc, nfixed, fixed_alloc;
	size_t nold;
	size_t analyzed, skipped, failed; /* C files, new side */
	size_t not_analyzed;              /* binary, deleted, non-C, too large */
	struct change_problem *problems;
	size_t nproblems, problems_alloc;
};
void change_set_init(struct change_set *s);
void change_set_release(struct change_set *s);

/* One file's two analyses.  Findings whose site.file is `after_file` /
 * `before_file` (the engine's name for the analyzed file) are relabelled
 * with the change's new / old repository path. */
struct change_file {
	const struct vcs_change *change;
	const struct file_result *before; /* NULL: nothing before (added, or not analyzed) */
	const struct file_result *after;
	const char *after_file, *before_file;
};
/* Adds copies of the classified findings to `out`. */
void change_classify(const struct change_file *cf, struct change_set *out);

struct change_opts {
	const char *workdir;  /* the repository's work tree, trailing '/' */
	/* A kernel tree that is not the repository: changed files are analyzed
	 * as <tree>/<path> (its kbuild flags) when that directory exists there. */
	const char *tree;
	/* Always analyze the old side (for fixed and indirect findings); else it
	 * is analyzed only when the new side has findings in touched functions. */
	bool want_old;
	/* Results cache (a directory; NULL: none).  A file's result is reused
	 * when its key matches: the blob, the path, the headers that differ
	 * from HEAD, HEAD's include/ and arch/ trees and the headers beside
	 * the file (needs `vcs`), the tree's .config and autoconf.h, the model
	 * headers, the rules, the allocator tables and this binary.  Headers
	 * of a --tree outside the repository are not in the key. */
	const char *cache_dir;
	struct vcs *vcs;
	/* > 1: parse the old side in a child process while the new side is
	 * parsed, when it will be needed (want_old) or likely (a touched
	 * function mentions an allocation). */
	int jobs;
	/* Blank, on both sides, the bodies of the functions the change
	 * cannot affect before the parse (blank.h): what is new and what is
	 * fixed in the functions it touches stays the same, findings far from
	 * the change are not looked for. */
	bool skip_bodies;
	/* Each side is analyzed in a child process with these limits (isolate.h). */
	struct isolate_limits limits;
	size_t cache_hits, cache_misses; /* out: analyses answered / not answered by the cache */
	size_t spec_used, spec_wasted;   /* out: parallel old-side parses used / cancelled */
};

/* Does the diff hold a C file the checker will analyze? */
bool change_has_c_files(const struct vcs_diff *d);
/* Analyze every changed C file of `d` on both sides and classify.
 * `unstaged` (may be NULL): the work tree against the index; headers edited
 * but not staged are parsed as staged.  Returns 0 (file failures are counted
 * in out->failed and listed in out->problems) or a negative code when the
 * engine cannot go on. */
int change_run(struct engine *e, const struct vcs_diff *d, const struct vcs_diff *unstaged,
	       struct change_opts *o, struct change_set *out);
/* Keep the cache at most `max` entries (least recently used go first). */
void change_cache_prune(const char *dir, size_t max);

#endif
