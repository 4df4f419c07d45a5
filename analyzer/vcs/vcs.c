/* Repository access and diffs through libgit2 (see vcs.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <git2.h>
#include "gfpaudit/vcs.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct vcs {
	git_repository *repo;
	git_index *index;   /* GIT_INDEX_FILE's index, or NULL: the repository's */
	char *commondir;
};

/* libgit2's message for the call that just failed, after our own words. */
static int git_fail(int code, const char *what)
{
	const git_error *e = git_error_last();
	return err_set(code, "%s: %s", what, e && e->message ? e->message : "libgit2 error");
}

int vcs_open(const char *dir, unsigned flags, struct vcs **out)
{
	git_repository *repo = NULL;
	int rc = 0;
	git_libgit2_init();
	const char *gitdir = (flags & VCS_OPEN_ENV) && !dir ? getenv("GIT_DIR") : NULL;
	if (gitdir && *gitdir) {
		if (git_repository_open_ext(&repo, gitdir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
			rc = git_fail(GA_ENOTFOUND, "cannot open $GIT_DIR");
			goto fail;
		}
		const char *wt = getenv("GIT_WORK_TREE");
		if (wt && *wt && git_repository_set_workdir(repo, wt, 0) < 0) {
			rc = git_fail(GA_EINVAL, "cannot use $GIT_WORK_TREE");
			goto fail;
		}
	} else if (git_repository_open_ext(&repo, dir ? dir : ".", 0, NULL) < 0) {
		rc = git_fail(GA_ENOTFOUND, "not in a git repository");
		goto fail;
	}
	struct vcs *v = xcalloc(1, sizeof(*v));
	v->repo = repo;
	v->commondir = xstrdup(git_repository_commondir(repo));
	const char *idx = (flags & VCS_OPEN_ENV) && !dir ? getenv("GIT_INDEX_FILE") : NULL;
	if (idx && *idx && git_index_open(&v->index, idx) < 0) {
		rc = git_fail(GA_EIO, "cannot read $GIT_INDEX_FILE");
		vcs_free(v);
		return rc;
	}
	*out = v;
	return 0;
fail:
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}

void vcs_free(struct vcs *v)
{
	if (!v)
		return;
	git_index_free(v->index);
	git_repository_free(v->repo);
	free(v->commondir);
	free(v);
	git_libgit2_shutdown();
}

const char *vcs_workdir(const struct vcs *v) { return git_repository_workdir(v->repo); }
const char *vcs_commondir(const struct vcs *v) { return v->commondir; }

int vcs_identity(struct vcs *v, char **out)
{
	git_config *cfg = NULL;
	git_buf name = { 0 }, mail = { 0 };
	int rc = 0;
	git_libgit2_init();
	int e = v ? git_repository_config_snapshot(&cfg, v->repo) : git_config_open_default(&cfg);
	if (e < 0) {
		rc = git_fail(GA_EIO, "cannot read the git configuration");
		git_libgit2_shutdown();
		return rc;
	}
	if (git_config_get_string_buf(&name, cfg, "user.name") || git_config_get_string_buf(&mail, cfg, "user.email"))
		rc = err_set(GA_ENOTFOUND, "user.name and user.email are not both set in the git configuration");
	else
		*out = xasprintf("%s <%s>", name.ptr, mail.ptr);
	git_buf_dispose(&name);
	git_buf_dispose(&mail);
	git_config_free(cfg);
	git_libgit2_shutdown();
	return rc;
}

int vcs_config_path(struct vcs *v, const char *key, char **out)
{
	git_config *cfg = NULL;
	git_buf b = { 0 };
	int rc = 0;
	if (git_repository_config_snapshot(&cfg, v->repo) < 0)
		return git_fail(GA_EIO, "cannot read the git configuration");
	int g = git_config_get_path(&b, cfg, key);
	if (g == GIT_ENOTFOUND)
		rc = err_set(GA_ENOTFOUND, "'%s' is not set", key);
	else if (g < 0)
		rc = git_fail(GA_EINVAL, key);
	else
		*out = xstrdup(b.ptr);
	git_buf_dispose(&b);
	git_config_free(cfg);
	return rc;
}

void vcs_diff_init(struct vcs_diff *d) { memset(d, 0, sizeof(*d)); }

void vcs_diff_release(struct vcs_diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		struct vcs_change *c = &d->changes[i];
		free(c->old_path);
		free(c->new_path);
		free(c->old_data);
		free(c->new_data);
		free(c->hunks);
	}
	free(d->changes);
	free(d->old_desc);
	free(d->new_desc);
	vcs_diff_init(d);
}

bool vcs_change_touches(const struct vcs_change *c, int lo, int hi)
{
	for (size_t i = 0; i < c->nhunks; i++) {
		const struct vcs_lines *h = &c->hunks[i];
		if (h->count > 0) {
			if (h->start <= hi && h->start + h->count - 1 >= lo)
				return true;
		} else if (lo <= h->start && h->start + 1 <= hi) {
			/* lines went away between start and start+1: both inside */
			return true;
		}
	}
	return false;
}

static bool keep_path(const char *path, const struct vcs_diff_opts *o)
{
	if (!o || !o->suffixes || !o->suffixes[0])
		return true;
	size_t n = strlen(path);
	for (const char *const *s = o->suffixes; *s; s++) {
		size_t k = strlen(*s);
		if (!k || (n >= k && !strcmp(path + n - k, *s)))
			return true;
	}
	return false;
}

static int load_blob(git_repository *repo, const git_oid *id, char **data, size_t *len, size_t max,
		     bool *binary, bool *too_large)
{
	git_blob *b = NULL;
	if (git_blob_lookup(&b, repo, id) < 0)
		return git_fail(GA_EIO, "cannot read a blob");
	git_object_size_t n = git_blob_rawsize(b);
	if (n > max) {
		*too_large = true;
	} else if (git_blob_is_binary(b)) {
		*binary = true;
	} else {
		*data = xmalloc((size_t)n + 1);
		memcpy(*data, git_blob_rawcontent(b), (size_t)n);
		(*data)[n] = 0;
		*len = (size_t)n;
	}
	git_blob_free(b);
	return 0;
}

static enum vcs_status map_status(const git_diff_delta *d)
{
	switch (d->status) {
	case GIT_DELTA_ADDED: return VCS_ADDED;
	case GIT_DELTA_DELETED: return VCS_DELETED;
	case GIT_DELTA_MODIFIED: return VCS_MODIFIED;
	case GIT_DELTA_RENAMED: return VCS_RENAMED;
	case GIT_DELTA_COPIED: return VCS_COPIED;
	default: return VCS_OTHER;
	}
}

static bool regular(uint16_t mode)
{
	return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE;
}

/* Turn a libgit2 diff into changes: paths, blobs, hunk lines. */
static int collect(struct vcs *v, git_diff *diff, const struct vcs_diff_opts *o, struct vcs_diff *out)
{
	size_t max = o && o->max_blob ? o->max_blob : (size_t)16 << 20;
	git_diff_find_options fo;
	git_diff_find_options_init(&fo, GIT_DIFF_FIND_OPTIONS_VERSION);
	fo.flags = GIT_DIFF_FIND_RENAMES;
	if (git_diff_find_similar(diff, &fo) < 0)
		return git_fail(GA_ETOOL, "rename detection failed");
	size_t nd = git_diff_num_deltas(diff);
	for (size_t i = 0; i < nd; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *path = d->status == GIT_DELTA_DELETED ? d->old_file.path : d->new_file.path;
		if (d->status == GIT_DELTA_UNMODIFIED || !keep_path(path, o)) {
			out->nfiltered++;
			continue;
		}
		ALLOC_GROW(out->changes, out->n + 1, out->alloc);
		struct vcs_change *c = &out->changes[out->n++];
		memset(c, 0, sizeof(*c));
		c->status = map_status(d);
		if (c->status != VCS_ADDED)
			c->old_path = xstrdup(d->old_file.path);
		if (c->status != VCS_DELETED)
			c->new_path = xstrdup(d->new_file.path);
		/* symlinks and submodules have "blobs" that are not C */
		if ((c->old_path && !regular(d->old_file.mode)) || (c->new_path && !regular(d->new_file.mode)))
			c->status = VCS_OTHER;
		if (c->status == VCS_OTHER)
			continue;
		bool bin = d->flags & GIT_DIFF_FLAG_BINARY;
		int rc = 0;
		if (!bin && c->old_path)
			rc = load_blob(v->repo, &d->old_file.id, &c->old_data, &c->old_len, max, &bin, &c->too_large);
		if (!rc && !bin && !c->too_large && c->new_path) {
			/* a work-tree side (vcs_diff_unstaged) has no blob yet: not loaded */
			if (!git_oid_is_zero(&d->new_file.id) && (d->new_file.flags & GIT_DIFF_FLAG_VALID_ID))
				rc = load_blob(v->repo, &d->new_file.id, &c->new_data, &c->new_len, max, &bin,
					       &c->too_large);
		}
		if (rc)
			return rc;
		c->binary = bin;
		if (bin || c->too_large) {
			free(c->old_data);
			free(c->new_data);
			c->old_data = c->new_data = NULL;
			c->old_len = c->new_len = 0;
			continue;
		}
		git_patch *p = NULL;
		if (git_patch_from_diff(&p, diff, i) < 0)
			return git_fail(GA_ETOOL, "cannot compute a patch");
		if (p) {
			size_t nh = git_patch_num_hunks(p);
			for (size_t k = 0; k < nh; k++) {
				const git_diff_hunk *h = NULL;
				size_t nl;
				if (git_patch_get_hunk(&h, &nl, p, k) < 0) {
					git_patch_free(p);
					return git_fail(GA_ETOOL, "cannot read a hunk");
				}
				ALLOC_GROW(c->hunks, c->nhunks + 1, c->hunks_alloc);
				c->hunks[c->nhunks].start = h->new_start;
				c->hunks[c->nhunks].count = h->new_lines;
				c->nhunks++;
			}
			/* the patch decided binary-ness from the content */
			if (git_patch_get_delta(p)->flags & GIT_DIFF_FLAG_BINARY)
				c->binary = true;
			git_patch_free(p);
		}
	}
	return 0;
}

static void diff_opts_init(git_diff_options *d)
{
	git_diff_options_init(d, GIT_DIFF_OPTIONS_VERSION);
	d->context_lines = 0;   /* hunks cover exactly the changed lines */
	d->interhunk_lines = 0;
}

static int tree_of(git_repository *repo, const git_object *obj, git_tree **out)
{
	git_object *t = NULL;
	if (git_object_peel(&t, obj, GIT_OBJECT_TREE) < 0)
		return git_fail(GA_EINVAL, "not a commit or tree");
	*out = (git_tree *)t;
	(void)repo;
	return 0;
}

static char *oid_desc(const git_object *o)
{
	char buf[GIT_OID_HEXSZ + 1];
	git_oid_tostr(buf, sizeof(buf), git_object_id(o));
	return xstrndup(buf, 12);
}

int vcs_diff(struct vcs *v, const char *spec, const struct vcs_diff_opts *o, struct vcs_diff *out)
{
	git_diff_options dopts;
	git_diff *diff = NULL;
	git_tree *old_tree = NULL, *new_tree = NULL;
	git_index *index = NULL;
	git_revspec rs = { 0 };
	git_object *mb = NULL;
	int rc = 0;
	vcs_diff_init(out);
	diff_opts_init(&dopts);
	if (!spec || !strcmp(spec, "--staged") || !strcmp(spec, "--cached")) {
		if (git_repository_is_bare(v->repo)) {
			rc = err_set(GA_EINVAL, "a bare repository has no staged changes");
			goto cleanup;
		}
		int unborn = git_repository_head_unborn(v->repo);
		if (unborn < 0) {
			rc = git_fail(GA_EIO, "cannot read HEAD");
			goto cleanup;
		}
		if (!unborn) {
			git_object *head = NULL;
			if (git_revparse_single(&head, v->repo, "HEAD^{tree}") < 0) {
				rc = git_fail(GA_EIO, "cannot read HEAD");
				goto cleanup;
			}
			old_tree = (git_tree *)head;
		}
		if (v->index)
			index = v->index;
		else if (git_repository_index(&index, v->repo) < 0) {
			rc = git_fail(GA_EIO, "cannot read the index");
			goto cleanup;
		}
		out->old_desc = xstrdup(old_tree ? "HEAD" : "(empty)");
		out->new_desc = xstrdup("index");
		if (git_diff_tree_to_index(&diff, v->repo, old_tree, index, &dopts) < 0) {
			rc = git_fail(GA_ETOOL, "cannot diff the index against HEAD");
			goto cleanup;
		}
	} else {
		if (git_revparse(&rs, v->repo, spec) < 0) {
			rc = git_fail(GA_EINVAL, spec);
			goto cleanup;
		}
		if (rs.flags & GIT_REVSPEC_SINGLE) {
			git_object *c = NULL;
			if (git_object_peel(&c, rs.from, GIT_OBJECT_COMMIT) < 0) {
				rc = git_fail(GA_EINVAL, spec);
				goto cleanup;
			}
			rc = tree_of(v->repo, c, &new_tree);
			if (!rc && git_commit_parentcount((git_commit *)c) > 0) {
				git_commit *parent = NULL;
				if (git_commit_parent(&parent, (git_commit *)c, 0) < 0)
					rc = git_fail(GA_EIO, "cannot read the parent commit");
				else {
					rc = tree_of(v->repo, (git_object *)parent, &old_tree);
					out->old_desc = oid_desc((git_object *)parent);
					git_commit_free(parent);
				}
			}
			out->new_desc = oid_desc(c);
			git_object_free(c);
			if (rc)
				goto cleanup;
		} else {
			const git_object *from = rs.from;
			if (rs.flags & GIT_REVSPEC_MERGE_BASE) {
				git_oid base;
				if (git_merge_base(&base, v->repo, git_object_id(rs.from), git_object_id(rs.to)) < 0 ||
				    git_object_lookup(&mb, v->repo, &base, GIT_OBJECT_COMMIT) < 0) {
					rc = git_fail(GA_EINVAL, "no merge base");
					goto cleanup;
				}
				from = mb;
			}
			if ((rc = tree_of(v->repo, from, &old_tree)) || (rc = tree_of(v->repo, rs.to, &new_tree)))
				goto cleanup;
			out->old_desc = oid_desc(from);
			out->new_desc = oid_desc(rs.to);
		}
		if (!out->old_desc)
			out->old_desc = xstrdup("(empty)");
		if (git_diff_tree_to_tree(&diff, v->repo, old_tree, new_tree, &dopts) < 0) {
			rc = git_fail(GA_ETOOL, "cannot diff the trees");
			goto cleanup;
		}
	}
	rc = collect(v, diff, o, out);
cleanup:
	if (rc)
		vcs_diff_release(out);
	git_diff_free(diff);
	git_tree_free(old_tree);
	git_tree_free(new_tree);
	git_object_free(rs.from);
	git_object_free(rs.to);
	git_object_free(mb);
	if (index != v->index)
		git_index_free(index);
	return rc;
}

/* A work-tree file git's stat cache says may differ from its index entry. */
static bool stat_dirty(const git_index_entry *e, const struct stat *st, time_t index_mtime)
{
	if ((uint32_t)st->st_size != e->file_size || (e->ino && (uint32_t)st->st_ino != e->ino) ||
	    (uint32_t)st->st_mtime != (uint32_t)e->mtime.seconds ||
	    (e->mtime.nanoseconds && (uint32_t)st->st_mtim.tv_nsec != e->mtime.nanoseconds))
		return true;
	/* racily clean: written in the same second the index was, so the stat
	 * data cannot tell; hash it */
	return st->st_mtime >= index_mtime;
}

int vcs_diff_unstaged(struct vcs *v, const struct vcs_diff_opts *o, struct vcs_diff *out)
{
	git_index *index = NULL;
	int rc = 0;
	vcs_diff_init(out);
	const char *wd = git_repository_workdir(v->repo);
	if (!wd)
		return 0;
	if (v->index)
		index = v->index;
	else if (git_repository_index(&index, v->repo) < 0)
		return git_fail(GA_EIO, "cannot read the index");
	out->old_desc = xstrdup("index");
	out->new_desc = xstrdup("work tree");
	size_t max = o && o->max_blob ? o->max_blob : (size_t)16 << 20;
	struct stat ist;
	const char *ipath = git_index_path(index);
	time_t index_mtime = ipath && stat(ipath, &ist) == 0 ? ist.st_mtime : 0;
	/* Walk the index and lstat its entries, as git's stat cache does, instead
	 * of a work-tree diff: that walks every directory of the tree (0.35 s on
	 * a kernel tree), this only the tracked files the filter keeps. */
	struct strbuf path = STRBUF_INIT;
	size_t n = git_index_entrycount(index);
	for (size_t i = 0; i < n && !rc; i++) {
		const git_index_entry *e = git_index_get_byindex(index, i);
		if (git_index_entry_stage(e) != 0 || !regular(e->mode) || !keep_path(e->path, o))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s%s", wd, e->path);
		struct stat st;
		bool gone = lstat(path.buf, &st) < 0 || !S_ISREG(st.st_mode);
		if (!gone) {
			if (!stat_dirty(e, &st, index_mtime))
				continue;
			git_oid id;
			if (git_repository_hashfile(&id, v->repo, e->path, GIT_OBJECT_BLOB, NULL) < 0) {
				rc = git_fail(GA_EIO, e->path);
				break;
			}
			if (git_oid_equal(&id, &e->id))
				continue;
		}
		ALLOC_GROW(out->changes, out->n + 1, out->alloc);
		struct vcs_change *c = &out->changes[out->n++];
		memset(c, 0, sizeof(*c));
		c->status = gone ? VCS_DELETED : VCS_MODIFIED;
		c->old_path = xstrdup(e->path);
		c->new_path = gone ? NULL : xstrdup(e->path);
		bool bin = false;
		rc = load_blob(v->repo, &e->id, &c->old_data, &c->old_len, max, &bin, &c->too_large);
		c->binary = bin;
	}
	strbuf_release(&path);
	if (rc)
		vcs_diff_release(out);
	if (index != v->index)
		git_index_free(index);
	return rc;
}

void vcs_blob_id(const char *data, size_t len, char out[41])
{
	git_oid id;
	if (git_odb_hash(&id, data, len, GIT_OBJECT_BLOB) < 0)
		memset(&id, 0, sizeof(id));
	git_oid_tostr(out, 41, &id);
}

static void add_entry_id(git_tree *t, const char *path, struct strbuf *out)
{
	git_tree_entry *e = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	if (git_tree_entry_bypath(&e, t, path) < 0) {
		git_error_clear();
		return;
	}
	git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
	strbuf_addf(out, " %s=%s", path, hex);
	git_tree_entry_free(e);
}

int vcs_head_header_key(struct vcs *v, const char *path, struct strbuf *out)
{
	git_tree *head = NULL, *dir = NULL;
	int unborn = git_repository_head_unborn(v->repo);
	if (unborn < 0)
		return git_fail(GA_EIO, "cannot read HEAD");
	if (unborn)
		return 0;
	git_object *ho = NULL;
	if (git_revparse_single(&ho, v->repo, "HEAD^{tree}") < 0)
		return git_fail(GA_EIO, "cannot read HEAD");
	head = (git_tree *)ho;
	add_entry_id(head, "include", out);
	add_entry_id(head, "arch", out);
	/* the headers beside the file ("internal.h"), not the directory: the
	 * directory's id changes with the .c file itself */
	const char *slash = strrchr(path, '/');
	int rc = 0;
	if (!slash) {
		dir = head;
	} else {
		char *d = xstrndup(path, (size_t)(slash - path));
		git_tree_entry *e = NULL;
		if (git_tree_entry_bypath(&e, head, d) == 0 && git_tree_entry_type(e) == GIT_OBJECT_TREE)
			rc = git_tree_lookup(&dir, v->repo, git_tree_entry_id(e));
		git_error_clear();
		git_tree_entry_free(e);
		free(d);
	}
	if (rc < 0)
		rc = git_fail(GA_EIO, "cannot read a tree");
	for (size_t i = 0; dir && !rc && i < git_tree_entrycount(dir); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(dir, i);
		const char *n = git_tree_entry_name(e);
		size_t len = strlen(n);
		if (len > 2 && !strcmp(n + len - 2, ".h")) {
			char hex[GIT_OID_HEXSZ + 1];
			git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
			strbuf_addf(out, " %s=%s", n, hex);
		}
	}
	if (dir != head)
		git_tree_free(dir);
	git_tree_free(head);
	return rc;
}
