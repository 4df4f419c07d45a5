/* Apply a one-file diff to a text with libgit2, entirely in memory.
 *
 * libgit2 has no "apply to a buffer" call, so the text goes into a blob of
 * a repository whose object database is a mempack (nothing on disk), a tree
 * holds it at `path`, git_apply_to_tree() applies the parsed diff and the
 * blob at `path` in the resulting index is the patched text.  This is the
 * same applier `review` trusts for series from the lists, and it checks
 * context lines exactly as `git apply` does.
 */
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include "gfpaudit/fix.h"
#include "gfpaudit/err.h"

static int git_fail(const char *what)
{
	const git_error *ge = git_error_last();
	return err_set(GA_ETOOL, "%s: %s", what, ge && ge->message ? ge->message : "libgit2 error");
}

/* A tree holding `blob` at `path` ("mm/filemap.c": nested trees). */
static int tree_with_blob(git_repository *repo, const char *path, const git_oid *blob, git_oid *out)
{
	char *p = xstrdup(path);
	git_oid cur = *blob;
	git_filemode_t mode = GIT_FILEMODE_BLOB;
	int rc = 0;
	for (;;) {
		char *slash = strrchr(p, '/');
		const char *name = slash ? slash + 1 : p;
		git_treebuilder *tb = NULL;
		if (git_treebuilder_new(&tb, repo, NULL) ||
		    git_treebuilder_insert(NULL, tb, name, &cur, mode) ||
		    git_treebuilder_write(&cur, tb)) {
			rc = git_fail("building the preimage tree");
			git_treebuilder_free(tb);
			break;
		}
		git_treebuilder_free(tb);
		mode = GIT_FILEMODE_TREE;
		if (!slash)
			break;
		*slash = '\0';
	}
	free(p);
	*out = cur;
	return rc;
}

static bool path_ok(const char *path)
{
	if (!*path || path[0] == '/' || strstr(path, "//"))
		return false;
	for (const char *p = path; p; p = strchr(p, '/')) {
		if (*p == '/')
			p++;
		if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2]))
			return false;
		if (p[0] == '.' && (p[1] == '/' || !p[1]))
			return false;
	}
	return true;
}

int fix_patch_apply(const char *diff, size_t difflen, const char *path,
		    const char *text, size_t len, struct strbuf *out)
{
	git_odb *odb = NULL;
	git_odb_backend *mp = NULL;
	git_repository *repo = NULL;
	git_diff *d = NULL;
	git_tree *tree = NULL;
	git_index *idx = NULL;
	git_blob *blob = NULL;
	git_oid boid, toid;
	int rc = 0;

	if (!path_ok(path))
		return err_set(GA_EINVAL, "'%s' is not a relative path inside a tree", path);
	git_libgit2_init();
	if (git_odb_new(&odb) || git_mempack_new(&mp)) {
		rc = git_fail("in-memory object database");
		goto cleanup;
	}
	if (git_odb_add_backend(odb, mp, 1)) {
		mp->free(mp);
		rc = git_fail("in-memory object database");
		goto cleanup;
	}
	if (git_repository_wrap_odb(&repo, odb)) {
		rc = git_fail("in-memory repository");
		goto cleanup;
	}
	if (git_blob_create_from_buffer(&boid, repo, text, len)) {
		rc = git_fail("storing the preimage");
		goto cleanup;
	}
	if ((rc = tree_with_blob(repo, path, &boid, &toid)))
		goto cleanup;
	if (git_tree_lookup(&tree, repo, &toid)) {
		rc = git_fail("preimage tree");
		goto cleanup;
	}
	if (git_diff_from_buffer(&d, diff, difflen)) {
		const git_error *ge = git_error_last();
		rc = err_set(GA_EINVAL, "the diff does not parse: %s", ge && ge->message ? ge->message : "?");
		goto cleanup;
	}
	if (git_diff_num_deltas(d) != 1) {
		rc = err_set(GA_EINVAL, "the diff touches %zu files, expected 1", git_diff_num_deltas(d));
		goto cleanup;
	}
	const git_diff_delta *dd = git_diff_get_delta(d, 0);
	if (!dd->new_file.path || strcmp(dd->new_file.path, path) ||
	    !dd->old_file.path || strcmp(dd->old_file.path, path)) {
		rc = err_set(GA_EINVAL, "the diff names '%s', expected '%s'",
			     dd->new_file.path ? dd->new_file.path : "?", path);
		goto cleanup;
	}
	int grc = git_apply_to_tree(&idx, repo, tree, d, NULL);
	if (grc) {
		const git_error *ge = git_error_last();
		rc = err_set(grc == GIT_EAPPLYFAIL ? GA_EINVAL : GA_ETOOL, "the diff does not apply: %s",
			     ge && ge->message ? ge->message : "?");
		goto cleanup;
	}
	const git_index_entry *ie = git_index_get_bypath(idx, path, 0);
	if (!ie) {
		rc = err_set(GA_EINVAL, "the diff removes '%s'", path);
		goto cleanup;
	}
	if (git_blob_lookup(&blob, repo, &ie->id)) {
		rc = git_fail("patched blob");
		goto cleanup;
	}
	strbuf_reset(out);
	strbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
cleanup:
	git_blob_free(blob);
	git_index_free(idx);
	git_diff_free(d);
	git_tree_free(tree);
	git_repository_free(repo);
	git_odb_free(odb);
	git_libgit2_shutdown();
	return rc;
}
