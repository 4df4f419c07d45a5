/* libFuzzer target: applying an untrusted diff to a tree in memory
 * (vcs/apply.c): libgit2's patch parser on what the mail gave, the path
 * checks, hunk relocation when the context sits elsewhere, and reading the
 * patched files back.  The repository is a tiny one made at start-up.
 * `make fuzz` builds and runs it. */
#include <stdint.h>
#include <stdlib.h>
#include <git2.h>
#include "gfpaudit/apply.h"
#include "fuzz_repo.h"

static struct apply_repo *repo;
static struct apply_tree *base;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *dir;
	static unsigned runs;
	/* the in-memory object store keeps every patched blob: start afresh now and then */
	if (repo && ++runs % 2000 == 0) {
		apply_tree_free(base);
		apply_repo_free(repo);
		repo = NULL;
	}
	if (!repo) {
		char sha[41];
		if (!dir) {
			git_libgit2_init();
			dir = fuzz_repo_create();
		}
		if (!dir || apply_repo_open(dir, &repo) || apply_repo_tree(repo, "HEAD", sha, &base))
			abort();
	}
	struct apply_result res;
	if (apply_patch(repo, base, (const char *)data, size, &res) == 0 && res.applied) {
		for (size_t i = 0; i < res.nfiles; i++) {
			const char *p = res.files[i].new_path;
			char *buf = NULL;
			size_t len = 0;
			char id[41];
			if (!p)
				continue;
			apply_tree_blob_id(res.tree, p, id);
			if (apply_tree_read(repo, res.tree, p, 1 << 20, &buf, &len) == 0)
				free(buf);
		}
	}
	apply_result_release(&res);
	return 0;
}
