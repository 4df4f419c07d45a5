/* Mailed patches applied to git trees in memory (see apply.h for the trust
 * model).  libgit2 parses (git_diff_from_buffer) and applies
 * (git_apply_to_tree); new objects land in a mempack backend. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include "gfpaudit/apply.h"
#include "gfpaudit/mail.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct apply_repo {
	git_repository *repo;  /* the user's repository: refs, work tree path */
	git_repository *mem;   /* the same objects, read-only, plus a mempack */
	char *root;
};

struct apply_tree {
	git_tree *tree;
};

static const char *git_msg(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}

/* A read-only window on the repository's object database.  libgit2 writes
 * to the first backend that can write, but before writing it "freshens" an
 * object that already exists, touching its file on disk; a backend without
 * write and freshen keeps even that from happening. */
struct ro_backend {
	git_odb_backend parent;
	git_odb *inner;
};

static int ro_read(void **buf, size_t *len, git_object_t *type, git_odb_backend *b, const git_oid *id)
{
	git_odb_object *obj;
	int e = git_odb_read(&obj, ((struct ro_backend *)b)->inner, id);
	if (e < 0)
		return e;
	*len = git_odb_object_size(obj);
	*type = git_odb_object_type(obj);
	*buf = git_odb_backend_data_alloc(b, *len ? *len : 1);
	if (*buf)
		memcpy(*buf, git_odb_object_data(obj), *len);
	git_odb_object_free(obj);
	return *buf ? 0 : -1;
}

static int ro_read_prefix(git_oid *out, void **buf, size_t *len, git_object_t *type, git_odb_backend *b,
			  const git_oid *id, size_t n)
{
	git_odb_object *obj;
	int e = git_odb_read_prefix(&obj, ((struct ro_backend *)b)->inner, id, n);
	if (e < 0)
		return e;
	git_oid_cpy(out, git_odb_object_id(obj));
	*len = git_odb_object_size(obj);
	*type = git_odb_object_type(obj);
	*buf = git_odb_backend_data_alloc(b, *len ? *len : 1);
	if (*buf)
		memcpy(*buf, git_odb_object_data(obj), *len);
	git_odb_object_free(obj);
	return *buf ? 0 : -1;
}

static int ro_read_header(size_t *len, git_object_t *type, git_odb_backend *b, const git_oid *id)
{
	return git_odb_read_header(len, type, ((struct ro_backend *)b)->inner, id);
}

static int ro_exists(git_odb_backend *b, const git_oid *id)
{
	return git_odb_exists(((struct ro_backend *)b)->inner, id);
}

static int ro_exists_prefix(git_oid *out, git_odb_backend *b, const git_oid *id, size_t n)
{
	return git_odb_exists_prefix(out, ((struct ro_backend *)b)->inner, id, n);
}

static void ro_free(git_odb_backend *b)
{
	git_odb_free(((struct ro_backend *)b)->inner);
	free(b);
}

static int ro_backend_new(git_odb *inner, git_odb_backend **out)
{
	struct ro_backend *b = xcalloc(1, sizeof(*b));
	git_odb_init_backend(&b->parent, GIT_ODB_BACKEND_VERSION);
	b->parent.read = ro_read;
	b->parent.read_prefix = ro_read_prefix;
	b->parent.read_header = ro_read_header;
	b->parent.exists = ro_exists;
	b->parent.exists_prefix = ro_exists_prefix;
	b->parent.free = ro_free;
	b->inner = inner;
	*out = &b->parent;
	return 0;
}

int apply_repo_open(const char *path, struct apply_repo **out)
{
	*out = NULL;
	git_libgit2_init();
	struct apply_repo *r = xcalloc(1, sizeof(*r));
	git_odb *inner = NULL, *odb = NULL;
	git_odb_backend *ro = NULL, *mempack = NULL;
	int rc = 0;
	if (git_repository_open_ext(&r->repo, path, 0, NULL) < 0) {
		rc = err_set(GA_ENOTFOUND, "'%s' is not a git repository: %s", path, git_msg());
		goto cleanup;
	}
	/* Patched blobs and trees go to memory (mempack); the repository's own
	 * objects are read through the read-only backend. */
	if (git_repository_odb(&inner, r->repo) < 0 || git_odb_new(&odb) < 0 ||
	    ro_backend_new(inner, &ro) < 0) {
		rc = err_set(GA_ETOOL, "cannot open the object database: %s", git_msg());
		goto cleanup;
	}
	inner = NULL; /* owned by ro now */
	if (git_odb_add_backend(odb, ro, 1) < 0) {
		ro->free(ro);
		rc = err_set(GA_ETOOL, "cannot set up an in-memory object store: %s", git_msg());
		goto cleanup;
	}
	if (git_mempack_new(&mempack) < 0 || git_odb_add_backend(odb, mempack, 2) < 0 ||
	    git_repository_wrap_odb(&r->mem, odb) < 0) {
		rc = err_set(GA_ETOOL, "cannot set up an in-memory object store: %s", git_msg());
		goto cleanup;
	}
	const char *wd = git_repository_workdir(r->repo);
	r->root = xstrdup(wd ? wd : git_repository_path(r->repo));
	size_t n = strlen(r->root);
	while (n > 1 && r->root[n - 1] == '/')
		r->root[--n] = '\0';
cleanup:
	git_odb_free(inner);
	git_odb_free(odb);
	if (rc) {
		apply_repo_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void apply_repo_free(struct apply_repo *r)
{
	if (!r)
		return;
	git_repository_free(r->mem); /* frees the in-memory odb with it */
	git_repository_free(r->repo);
	free(r->root);
	free(r);
	git_libgit2_shutdown();
}

const char *apply_repo_root(const struct apply_repo *r)
{
	return r->root;
}

int apply_repo_tree(struct apply_repo *r, const char *rev, char sha_out[41], struct apply_tree **out)
{
	*out = NULL;
	git_object *obj = NULL, *commit = NULL;
	git_tree *tree = NULL;
	int rc = 0, e = git_revparse_single(&obj, r->repo, rev);
	if (e == GIT_ENOTFOUND || e == GIT_EAMBIGUOUS || e == GIT_EINVALIDSPEC || (e < 0 && e != GIT_ERROR)) {
		rc = err_set(GA_ENOTFOUND, "%s", e == GIT_EAMBIGUOUS ? "ambiguous revision" : "unknown revision");
		goto cleanup;
	}
	if (e < 0) {
		rc = err_set(GA_ENOTFOUND, "unknown revision: %s", git_msg());
		goto cleanup;
	}
	if (git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0) {
		rc = err_set(GA_ENOTFOUND, "'%s' is not a commit", rev);
		goto cleanup;
	}
	/* the tree object of the in-memory repository: what is applied to it
	 * and built from it stays there */
	if (git_tree_lookup(&tree, r->mem, git_commit_tree_id((git_commit *)commit)) < 0) {
		rc = err_set(GA_ETOOL, "cannot read the tree of '%s': %s", rev, git_msg());
		goto cleanup;
	}
	git_oid_tostr(sha_out, 41, git_object_id(commit));
	*out = xcalloc(1, sizeof(**out));
	(*out)->tree = tree;
	tree = NULL;
cleanup:
	git_tree_free(tree);
	git_object_free(commit);
	git_object_free(obj);
	return rc;
}

int apply_repo_find_applied(struct apply_repo *r, const char *text, size_t len, int max,
			    char commit_out[41], char parent_out[41])
{
	git_diff *mail = NULL;
	git_revwalk *w = NULL;
	git_oid want, id;
	int found = 0;
	if (git_diff_from_buffer(&mail, text, len) < 0 || git_diff_patchid(&want, mail, NULL) < 0) {
		git_diff_free(mail);
		return 0; /* not a diff libgit2 reads: nothing to look for */
	}
	if (git_revwalk_new(&w, r->repo) < 0 || git_revwalk_push_head(w) < 0) {
		found = 0; /* no HEAD (an empty repository) */
		goto out;
	}
	git_revwalk_simplify_first_parent(w);
	for (int n = 0; n < max && !found && git_revwalk_next(&id, w) == 0; n++) {
		git_commit *c = NULL, *p = NULL;
		git_tree *ct = NULL, *pt = NULL;
		git_diff *d = NULL;
		git_oid pid;
		if (git_commit_lookup(&c, r->repo, &id) == 0 && git_commit_parentcount(c) == 1 &&
		    git_commit_parent(&p, c, 0) == 0 && git_commit_tree(&ct, c) == 0 && git_commit_tree(&pt, p) == 0 &&
		    git_diff_tree_to_tree(&d, r->repo, pt, ct, NULL) == 0 && git_diff_patchid(&pid, d, NULL) == 0 &&
		    git_oid_equal(&pid, &want)) {
			git_oid_tostr(commit_out, 41, &id);
			git_oid_tostr(parent_out, 41, git_commit_id(p));
			found = 1;
		}
		git_diff_free(d);
		git_tree_free(ct);
		git_tree_free(pt);
		git_commit_free(p);
		git_commit_free(c);
	}
out:
	git_revwalk_free(w);
	git_diff_free(mail);
	return found;
}

void apply_tree_free(struct apply_tree *t)
{
	if (!t)
		return;
	git_tree_free(t->tree);
	free(t);
}

int apply_tree_read(struct apply_repo *r, const struct apply_tree *t, const char *path,
		    size_t max, char **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	git_tree_entry *ent = NULL;
	git_blob *blob = NULL;
	int rc = 0;
	if (git_tree_entry_bypath(&ent, t->tree, path) < 0) {
		rc = err_set(GA_ENOTFOUND, "'%s' is not in the tree", path);
		goto cleanup;
	}
	git_filemode_t mode = git_tree_entry_filemode(ent);
	if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE) {
		rc = err_set(GA_EINVAL, "'%s' is not a regular file in the tree", path);
		goto cleanup;
	}
	if (git_blob_lookup(&blob, r->mem, git_tree_entry_id(ent)) < 0) {
		rc = err_set(GA_ETOOL, "cannot read '%s': %s", path, git_msg());
		goto cleanup;
	}
	git_object_size_t n = git_blob_rawsize(blob);
	if (max && n > max) {
		rc = err_set(GA_EINVAL, "'%s' is %llu bytes, over the %zu-byte limit for one file",
			     path, (unsigned long long)n, max);
		goto cleanup;
	}
	*buf = xmalloc((size_t)n + 1);
	memcpy(*buf, git_blob_rawcontent(blob), (size_t)n);
	(*buf)[n] = '\0';
	*len = (size_t)n;
cleanup:
	git_blob_free(blob);
	git_tree_entry_free(ent);
	return rc;
}

void apply_tree_blob_id(const struct apply_tree *t, const char *path, char out[41])
{
	git_tree_entry *ent = NULL;
	out[0] = '\0';
	if (git_tree_entry_bypath(&ent, t->tree, path) == 0) {
		git_oid_tostr(out, 41, git_tree_entry_id(ent));
		git_tree_entry_free(ent);
	}
}

/* Windows and macOS spell ".git" other ways too (".GIT", ".git.", "git~1");
 * a tree written on such a machine would turn them into the git dir. */
static bool is_dotgit(const char *c, size_t n)
{
	while (n && (c[n - 1] == '.' || c[n - 1] == ' '))
		n--;
	if (n == 4 && !strncasecmp(c, ".git", 4))
		return true;
	return n == 5 && !strncasecmp(c, "git~1", 5);
}

int apply_check_path(const char *path)
{
	if (!path || !*path)
		return err_set(GA_EINVAL, "empty path");
	size_t len = strlen(path);
	if (len > 4096)
		return err_set(GA_EINVAL, "path longer than 4096 bytes");
	if (path[0] == '/')
		return err_set(GA_EINVAL, "absolute path '%s'", path);
	for (const char *p = path; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return err_set(GA_EINVAL, "control character in path '%s'", path);
	const char *c = path;
	for (;;) {
		const char *e = strchr(c, '/');
		size_t n = e ? (size_t)(e - c) : strlen(c);
		if (n == 0)
			return err_set(GA_EINVAL, "empty component in path '%s'", path);
		if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return err_set(GA_EINVAL, "path '%s' leaves the tree ('%.*s' component)", path, (int)n, c);
		if (is_dotgit(c, n))
			return err_set(GA_EINVAL, "path '%s' writes into .git", path);
		if (!e)
			break;
		c = e + 1;
	}
	return 0;
}

static void set_error(struct apply_result *res, char *msg)
{
	free(res->error);
	res->error = msg;
	res->applied = false;
}

/* Paths as the mail names them, before libgit2 sees the text. */
static bool check_text_paths(const char *diff, size_t len, struct apply_result *res)
{
	struct mail_diff_info info;
	if (mail_diff_scan(diff, len, &info)) {
		set_error(res, xstrdup("no diff found"));
		return false;
	}
	bool ok = true;
	for (size_t i = 0; i < info.nfiles && ok; i++) {
		const char *p[4] = { info.files[i].old_path, info.files[i].new_path,
				     info.files[i].rename_from, info.files[i].rename_to };
		for (int k = 0; k < 4 && ok; k++)
			if (p[k] && apply_check_path(p[k])) {
				set_error(res, xasprintf("refused: %s", err_last()));
				ok = false;
			}
	}
	mail_diff_info_release(&info);
	return ok;
}

static char delta_status(git_delta_t s)
{
	switch (s) {
	case GIT_DELTA_ADDED: return 'A';
	case GIT_DELTA_DELETED: return 'D';
	case GIT_DELTA_RENAMED: return 'R';
	case GIT_DELTA_COPIED: return 'C';
	default: return 'M';
	}
}

static bool special_mode(uint16_t mode)
{
	return mode == GIT_FILEMODE_LINK || mode == GIT_FILEMODE_COMMIT || mode == GIT_FILEMODE_TREE;
}

/* The parsed deltas: the paths libgit2 will really write, and no symlinks
 * or submodules (a symlink in the patched tree could point anywhere). */
static bool check_deltas(git_diff *diff, struct apply_result *res)
{
	size_t n = git_diff_num_deltas(diff);
	if (n == 0) {
		set_error(res, xstrdup("the diff changes no file"));
		return false;
	}
	res->files = xcalloc(n, sizeof(*res->files));
	res->hunks = xcalloc(n, sizeof(*res->hunks));
	res->nfiles = n;
	for (size_t i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		struct apply_file *f = &res->files[i];
		f->status = delta_status(d->status);
		f->binary = (d->flags & GIT_DIFF_FLAG_BINARY) != 0;
		if (d->status != GIT_DELTA_ADDED)
			f->old_path = xstrdup(d->old_file.path);
		if (d->status != GIT_DELTA_DELETED)
			f->new_path = xstrdup(d->new_file.path);
		const char *p[2] = { d->old_file.path, d->new_file.path };
		for (int k = 0; k < 2; k++)
			if (p[k] && apply_check_path(p[k])) {
				set_error(res, xasprintf("refused: %s", err_last()));
				return false;
			}
		if ((d->status != GIT_DELTA_ADDED && special_mode(d->old_file.mode)) ||
		    (d->status != GIT_DELTA_DELETED && special_mode(d->new_file.mode))) {
			set_error(res, xasprintf("refused: '%s' is a symlink or submodule",
						 d->new_file.path ? d->new_file.path : d->old_file.path));
			return false;
		}
	}
	return true;
}

static void collect_hunks(git_diff *diff, struct apply_result *res)
{
	for (size_t i = 0; i < res->nfiles; i++) {
		git_patch *patch = NULL;
		if (git_patch_from_diff(&patch, diff, i) < 0 || !patch)
			continue;
		size_t nh = git_patch_num_hunks(patch);
		struct apply_file_hunks *fh = &res->hunks[i];
		fh->hunks = xcalloc(nh ? nh : 1, sizeof(*fh->hunks));
		for (size_t h = 0; h < nh; h++) {
			const git_diff_hunk *gh;
			size_t nl;
			if (git_patch_get_hunk(&gh, &nl, patch, h) < 0)
				break;
			struct apply_hunk *ah = &fh->hunks[fh->nhunks++];
			size_t hl = strnlen(gh->header, gh->header_len < sizeof(gh->header) ? gh->header_len : sizeof(gh->header));
			while (hl && (gh->header[hl - 1] == '\n' || gh->header[hl - 1] == '\r'))
				hl--;
			ah->header = xstrndup(gh->header, hl);
			ah->old_start = gh->old_start;
			ah->old_lines = gh->old_lines;
			ah->new_start = gh->new_start;
			ah->new_lines = gh->new_lines;
			ah->lines = xcalloc(nl ? nl : 1, sizeof(*ah->lines));
			for (size_t k = 0; k < nl; k++) {
				const git_diff_line *gl;
				if (git_patch_get_line_in_hunk(&gl, patch, h, k) < 0)
					break;
				if (gl->origin != ' ' && gl->origin != '+' && gl->origin != '-')
					continue;
				struct apply_hunk_line *al = &ah->lines[ah->nlines++];
				size_t cl = strnlen(gl->content, gl->content_len);
				while (cl && (gl->content[cl - 1] == '\n' || gl->content[cl - 1] == '\r'))
					cl--;
				al->text = xstrndup(gl->content, cl);
				al->origin = gl->origin;
				al->old_line = gl->old_lineno;
				al->new_line = gl->new_lineno;
			}
		}
		git_patch_free(patch);
	}
}

/* Which hunk failed: libgit2 calls these before each file and each hunk,
 * so the last ones seen when it gives up are the culprits. */
struct apply_trace {
	const char *path;
	char hunk[128];
};

static int trace_delta(const git_diff_delta *d, void *payload)
{
	struct apply_trace *t = payload;
	t->path = d->old_file.path ? d->old_file.path : d->new_file.path;
	t->hunk[0] = '\0';
	return 0;
}

static int trace_hunk(const git_diff_hunk *h, void *payload)
{
	struct apply_trace *t = payload;
	size_t n = strnlen(h->header, h->header_len < sizeof(t->hunk) ? h->header_len : sizeof(t->hunk) - 1);
	memcpy(t->hunk, h->header, n);
	while (n && (t->hunk[n - 1] == '\n' || t->hunk[n - 1] == '\r'))
		n--;
	t->hunk[n] = '\0';
	return 0;
}

static void apply_result_release_hunks(struct apply_result *res);

/* ---- hunks at an offset ---- */

struct lines {
	char *buf;
	const char **p;
	size_t *len;
	size_t n;
	/* an index of the lines by hash, built once per file: head[h & mask]
	 * is the first line in that bucket, next[i] the following one,
	 * count[h & mask] how many there are */
	uint32_t *head, *next, *count, mask;
};

#define NO_LINE UINT32_MAX
/* Relocation does at most this much work (lines compared and candidates
 * tried) a patch, on top of RELOC_WORK_PER_LINE for each line of the files
 * and the diff: a hostile mail within the size caps cannot make it slow. */
#define RELOC_WORK_BASE 4000000
#define RELOC_WORK_PER_LINE 64

static uint32_t line_hash(const char *p, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 16777619u;
	return h;
}

static void lines_split(struct lines *l, char *buf, size_t len)
{
	l->buf = buf;
	l->n = 0;
	size_t cap = 16;
	l->p = xmalloc(cap * sizeof(*l->p));
	l->len = xmalloc(cap * sizeof(*l->len));
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		if (l->n == cap) {
			cap *= 2;
			l->p = xrealloc(l->p, cap * sizeof(*l->p));
			l->len = xrealloc(l->len, cap * sizeof(*l->len));
		}
		l->p[l->n] = buf + pos;
		l->len[l->n++] = n;
		pos += n + 1;
	}
	l->head = l->next = l->count = NULL;
	if (l->n >= NO_LINE)
		return; /* no index: relocation leaves this file alone */
	size_t nb = 16;
	while (nb < 2 * l->n)
		nb *= 2;
	l->mask = (uint32_t)(nb - 1);
	l->head = xmalloc(nb * sizeof(*l->head));
	l->count = xcalloc(nb, sizeof(*l->count));
	l->next = xmalloc((l->n + 1) * sizeof(*l->next));
	memset(l->head, 0xff, nb * sizeof(*l->head));
	/* backwards, so each bucket lists its lines in file order */
	for (size_t i = l->n; i-- > 0;) {
		uint32_t b = line_hash(l->p[i], l->len[i]) & l->mask;
		l->next[i] = l->head[b];
		l->head[b] = (uint32_t)i;
		l->count[b]++;
	}
}

static void lines_free(struct lines *l)
{
	free(l->buf);
	free(l->p);
	free(l->len);
	free(l->head);
	free(l->next);
	free(l->count);
	memset(l, 0, sizeof(*l));
}

static bool match_at(const struct lines *img, const struct lines *pre, size_t at, size_t *work)
{
	size_t k = 0;
	while (k < pre->n && img->len[at + k] == pre->len[k] && !memcmp(img->p[at + k], pre->p[k], pre->len[k]))
		k++;
	*work += k + 1;
	return k == pre->n;
}

/* The start (0-based) of `pre` in `img` nearest to `hint`, or -1.  Only
 * the places where the preimage's rarest line occurs are tried, through the
 * image's index, so a hunk costs about its own length, not the file's;
 * *work counts what was done, and nothing is tried past `cap` (-2). */
static long find_nearest(const struct lines *img, const struct lines *pre, long hint, size_t *work, size_t cap)
{
	if (pre->n == 0 || pre->n > img->n || !img->head)
		return -1;
	if (hint >= 0 && (size_t)hint + pre->n <= img->n && match_at(img, pre, (size_t)hint, work))
		return hint;
	size_t anchor = 0;
	uint32_t fewest = UINT32_MAX;
	for (size_t k = 0; k < pre->n && fewest; k++) {
		uint32_t c = img->count[line_hash(pre->p[k], pre->len[k]) & img->mask];
		if (c < fewest) {
			fewest = c;
			anchor = k;
		}
	}
	*work += pre->n;
	long best = -1;
	uint32_t b = line_hash(pre->p[anchor], pre->len[anchor]) & img->mask;
	for (uint32_t i = img->head[b]; i != NO_LINE; i = img->next[i]) {
		if (*work > cap)
			return -2;
		if (i < anchor || i - anchor + pre->n > img->n) {
			(*work)++;
			continue;
		}
		long at = (long)(i - anchor);
		if (best >= 0 && at > hint && at - hint >= labs(best - hint))
			break; /* in file order: the rest are farther */
		if ((best < 0 || labs(at - hint) < labs(best - hint)) && match_at(img, pre, (size_t)at, work))
			best = at;
	}
	return best;
}

/* Rewrite hunk headers so each hunk sits where its preimage is in the file
 * (old side: the file in `pre`; new side: shifted by the hunks before it).
 * Returns the new text, or NULL when no hunk moved. */
static char *relocate(struct apply_repo *r, const struct apply_tree *pre, const char *diff, size_t len,
		      size_t *out_len, int *moved, bool *capped)
{
	struct strbuf sb = STRBUF_INIT;
	struct lines img = { 0 };
	bool have_img = false;
	long delta = 0;
	size_t work = 0, work_cap = RELOC_WORK_BASE;
	*moved = 0;
	*capped = false;
	for (size_t i = 0; i < len; i++)
		work_cap += diff[i] == '\n' ? RELOC_WORK_PER_LINE : 0;
	size_t pos = 0;
	while (pos < len) {
		const char *l = diff + pos, *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) : len - pos, next = nl ? pos + n + 1 : len;
		if (n >= 4 && !memcmp(l, "--- ", 4)) {
			/* a new file section: its preimage is the old path */
			if (have_img)
				lines_free(&img);
			have_img = false;
			delta = 0;
			if (n > 6 && !memcmp(l + 4, "a/", 2)) {
				char *path = xstrndup(l + 6, n - 6), *buf;
				size_t blen;
				if (!apply_tree_read(r, pre, path, 0, &buf, &blen)) {
					lines_split(&img, buf, blen);
					have_img = true;
					work_cap += img.n * RELOC_WORK_PER_LINE;
				}
				free(path);
			}
		} else if (n >= 4 && !memcmp(l, "@@ -", 4)) {
			long os, oc = 1, ns, nc = 1;
			int tail = 0;
			char hdr[64];
			size_t hn = n < sizeof(hdr) - 1 ? n : sizeof(hdr) - 1;
			memcpy(hdr, l, hn);
			hdr[hn] = '\0';
			if (sscanf(hdr, "@@ -%ld,%ld +%ld,%ld @@%n", &os, &oc, &ns, &nc, &tail) < 4 || !tail) {
				oc = nc = 1;
				tail = 0;
				if (sscanf(hdr, "@@ -%ld +%ld,%ld @@%n", &os, &ns, &nc, &tail) < 3 || !tail) {
					nc = 1;
					tail = 0;
					if (sscanf(hdr, "@@ -%ld,%ld +%ld @@%n", &os, &oc, &ns, &tail) < 3 || !tail) {
						oc = 1;
						tail = 0;
						if (sscanf(hdr, "@@ -%ld +%ld @@%n", &os, &ns, &tail) < 2 || !tail)
							break; /* not a header we can rewrite: leave the rest */
					}
				}
			}
			/* the hunk's preimage: context and removed lines */
			struct lines pi = { 0 };
			size_t cap = 16, q = next;
			long o = oc, nw = nc;
			pi.p = xmalloc(cap * sizeof(*pi.p));
			pi.len = xmalloc(cap * sizeof(*pi.len));
			while (q < len && (o > 0 || nw > 0)) {
				const char *hl = diff + q, *hnl = memchr(hl, '\n', len - q);
				size_t hlen = hnl ? (size_t)(hnl - hl) : len - q;
				char c = hlen ? hl[0] : ' ';
				if (c == '\\') {
					q = hnl ? q + hlen + 1 : len;
					continue;
				}
				if (c != ' ' && c != '-' && c != '+')
					break;
				if (c != '+') {
					if (pi.n == cap) {
						cap *= 2;
						pi.p = xrealloc(pi.p, cap * sizeof(*pi.p));
						pi.len = xrealloc(pi.len, cap * sizeof(*pi.len));
					}
					pi.p[pi.n] = hlen ? hl + 1 : hl;
					pi.len[pi.n++] = hlen ? hlen - 1 : 0;
					o--;
				}
				if (c != '-')
					nw--;
				q = hnl ? q + hlen + 1 : len;
			}
			long at = have_img && oc > 0 ? find_nearest(&img, &pi, os - 1, &work, work_cap) : -1;
			free(pi.p);
			free(pi.len);
			if (at == -2) {
				*capped = true;
				break; /* give up: the patch fails as it came */
			}
			if (at >= 0 && at != os - 1) {
				strbuf_addf(&sb, "@@ -%ld,%ld +%ld,%ld @@", at + 1, oc, at + 1 + delta, nc);
				strbuf_add(&sb, l + tail, n - (size_t)tail);
				strbuf_addc(&sb, '\n');
				(*moved)++;
			} else {
				strbuf_add(&sb, l, n);
				strbuf_addc(&sb, '\n');
			}
			delta += nc - oc;
			/* the body as it is: its lines are not headers */
			strbuf_add(&sb, diff + next, q > next ? q - next : 0);
			if (q == len && q > next && diff[len - 1] != '\n')
				strbuf_addc(&sb, '\n');
			pos = q > next ? q : next;
			continue;
		}
		strbuf_add(&sb, l, n);
		strbuf_addc(&sb, '\n');
		pos = next;
	}
	if (have_img)
		lines_free(&img);
	if (!*moved || pos < len) {
		strbuf_release(&sb);
		return NULL;
	}
	*out_len = sb.len;
	return strbuf_detach(&sb);
}

int apply_patch(struct apply_repo *r, const struct apply_tree *pre, const char *text, size_t len,
		struct apply_result *res)
{
	memset(res, 0, sizeof(*res));
	git_diff *diff = NULL;
	git_index *index = NULL;
	char *normalized = NULL;
	int rc = 0;

	if (!check_text_paths(text, len, res))
		goto cleanup;
	/* libgit2 (1.5) copies a line up to its first NUL but keeps the line's
	 * full length: what reads the line then reads past the copy.  A text
	 * patch has no NUL byte; git itself calls such a file binary. */
	if (memchr(text, '\0', len)) {
		set_error(res, xstrdup("the diff holds a NUL byte: not a text patch"));
		goto cleanup;
	}
	if (git_diff_from_buffer(&diff, text, len) < 0 || git_diff_num_deltas(diff) == 0) {
		/* libgit2 reads only git-format patches: retry plain diffs in git form */
		char *first = xstrdup(git_msg());
		git_diff_free(diff);
		diff = NULL;
		size_t nlen;
		normalized = mail_diff_to_git(text, len, &nlen);
		if (nlen == 0 || git_diff_from_buffer(&diff, normalized, nlen) < 0) {
			set_error(res, xasprintf("the diff does not parse: %s", first));
			free(first);
			goto cleanup;
		}
		free(first);
		res->normalized = true;
	}
	if (!check_deltas(diff, res))
		goto cleanup;
	collect_hunks(diff, res);

	struct apply_trace trace = { 0 };
	git_apply_options opts;
	git_apply_options_init(&opts, GIT_APPLY_OPTIONS_VERSION);
	opts.delta_cb = trace_delta;
	opts.hunk_cb = trace_hunk;
	opts.payload = &trace;
	git_error_clear();
	int e = git_apply_to_tree(&index, r->mem, pre->tree, diff, &opts);
	bool reloc_capped = false;
	if (e < 0 && trace.hunk[0]) {
		/* a hunk not where its header says: try its context elsewhere */
		const char *src = normalized ? normalized : text;
		size_t rlen;
		int moved;
		char *moved_text = relocate(r, pre, src, normalized ? strlen(normalized) : len, &rlen, &moved,
					    &reloc_capped);
		git_diff *d2 = NULL;
		struct apply_trace t2 = { 0 };
		if (moved_text && git_diff_from_buffer(&d2, moved_text, rlen) == 0 &&
		    git_diff_num_deltas(d2) == git_diff_num_deltas(diff)) {
			opts.payload = &t2;
			git_error_clear();
			if (git_apply_to_tree(&index, r->mem, pre->tree, d2, &opts) == 0) {
				e = 0;
				res->moved = moved;
				git_diff_free(diff);
				diff = d2;
				d2 = NULL;
				/* the quoted hunks must carry the lines where they landed */
				apply_result_release_hunks(res);
				res->hunks = xcalloc(res->nfiles, sizeof(*res->hunks));
				collect_hunks(diff, res);
			}
		}
		git_diff_free(d2);
		free(moved_text);
	}
	if (e < 0) {
		char blob[41];
		if (trace.path)
			res->failed_file = xstrdup(trace.path);
		if (trace.hunk[0])
			res->failed_hunk = xstrdup(trace.hunk);
		if (trace.path && !trace.hunk[0] && (apply_tree_blob_id(pre, trace.path, blob), !blob[0]))
			set_error(res, xasprintf("'%s' is not in the tree it is applied to", trace.path));
		else if (trace.hunk[0])
			set_error(res, xasprintf("%s: hunk '%s' does not apply%s", trace.path, trace.hunk,
						 reloc_capped ? " (looking for its context elsewhere stopped at the work cap)" : ""));
		else
			set_error(res, xasprintf("%s%s%s", trace.path ? trace.path : "",
						 trace.path ? ": " : "", git_msg()));
		goto cleanup;
	}
	git_oid oid;
	git_tree *tree = NULL;
	if (git_index_write_tree_to(&oid, index, r->mem) < 0 || git_tree_lookup(&tree, r->mem, &oid) < 0) {
		rc = err_set(GA_ETOOL, "cannot build the patched tree: %s", git_msg());
		goto cleanup;
	}
	res->tree = xcalloc(1, sizeof(*res->tree));
	res->tree->tree = tree;
	res->applied = true;
cleanup:
	git_index_free(index);
	git_diff_free(diff);
	free(normalized);
	return rc;
}

static void apply_result_release_hunks(struct apply_result *res)
{
	for (size_t i = 0; i < res->nfiles && res->hunks; i++) {
		for (size_t h = 0; h < res->hunks[i].nhunks; h++) {
			struct apply_hunk *ah = &res->hunks[i].hunks[h];
			for (size_t k = 0; k < ah->nlines; k++)
				free(ah->lines[k].text);
			free(ah->lines);
			free(ah->header);
		}
		free(res->hunks[i].hunks);
	}
	free(res->hunks);
	res->hunks = NULL;
}

void apply_result_release(struct apply_result *res)
{
	apply_result_release_hunks(res);
	for (size_t i = 0; i < res->nfiles; i++) {
		free(res->files[i].old_path);
		free(res->files[i].new_path);
	}
	free(res->files);
	free(res->error);
	free(res->failed_file);
	free(res->failed_hunk);
	apply_tree_free(res->tree);
	memset(res, 0, sizeof(*res));
}

/* ---- the .c files that include a header ---- */

struct includers {
	git_repository *mem;
	const char *dir;        /* the header's directory ("" at the top) */
	const char *base;       /* its file name */
	char *angle;            /* "linux/foo.h" for include/linux/foo.h (or arch/X/include/...), or NULL */
	size_t max;
	char **paths;
	size_t n, alloc;
	bool capped;
};

/* Does `text` have an #include line naming the header? */
static bool names_header(const char *text, size_t len, const struct includers *w, bool same_dir)
{
	for (const char *p = text, *end = text + len; p && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *q = p;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q < end && *q == '#') {
			q++;
			while (q < end && (*q == ' ' || *q == '\t'))
				q++;
			if ((size_t)(end - q) > 7 && !strncmp(q, "include", 7)) {
				q += 7;
				while (q < end && (*q == ' ' || *q == '\t'))
					q++;
				size_t bl = strlen(w->base), al = w->angle ? strlen(w->angle) : 0;
				if (same_dir && q < end && *q == '"' && (size_t)(end - q) > bl + 1 &&
				    !strncmp(q + 1, w->base, bl) && q[bl + 1] == '"')
					return true;
				if (al && q < end && (*q == '<' || *q == '"') && (size_t)(end - q) > al + 1 &&
				    !strncmp(q + 1, w->angle, al) && (q[al + 1] == '>' || q[al + 1] == '"'))
					return true;
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	return false;
}

static int includer_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct includers *w = payload;
	const char *name = git_tree_entry_name(e);
	size_t nl = strlen(name);
	if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
		return name[0] == '.' ? 1 : 0; /* .git-like directories: skip */
	if (nl < 3 || strcmp(name + nl - 2, ".c") || git_tree_entry_filemode(e) != GIT_FILEMODE_BLOB)
		return 0;
	size_t rl = strlen(root);
	bool same_dir = rl == strlen(w->dir) + (rl ? 1 : 0) && !strncmp(root, w->dir, strlen(w->dir));
	if (!same_dir && !w->angle)
		return 0;
	git_blob *blob = NULL;
	if (git_blob_lookup(&blob, w->mem, git_tree_entry_id(e)) < 0)
		return 0;
	bool hit = names_header(git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob), w, same_dir);
	git_blob_free(blob);
	if (!hit)
		return 0;
	if (w->n == w->max) {
		w->capped = true;
		return -1; /* stop the walk */
	}
	ALLOC_GROW(w->paths, w->n + 1, w->alloc);
	w->paths[w->n++] = xasprintf("%s%s", root, name);
	return 0;
}

int apply_tree_includers(struct apply_repo *r, const struct apply_tree *t, const char *header, size_t max,
			 char ***out, size_t *n, bool *capped)
{
	*out = NULL;
	*n = 0;
	*capped = false;
	const char *slash = strrchr(header, '/');
	char *dir = slash ? xstrndup(header, (size_t)(slash - header)) : xstrdup("");
	struct includers w = { .mem = r->mem, .dir = dir, .base = slash ? slash + 1 : header, .max = max };
	/* include/linux/foo.h and arch/X/include/linux/foo.h are <linux/foo.h> */
	const char *inc = !strncmp(header, "include/", 8) ? header + 8 : NULL;
	if (!inc && !strncmp(header, "arch/", 5)) {
		const char *a = strstr(header + 5, "/include/");
		inc = a ? a + 9 : NULL;
	}
	w.angle = inc && *inc ? xstrdup(inc) : NULL;
	int e = git_tree_walk(t->tree, GIT_TREEWALK_PRE, includer_cb, &w);
	free(dir);
	free(w.angle);
	if (e < 0 && !w.capped) {
		for (size_t i = 0; i < w.n; i++)
			free(w.paths[i]);
		free(w.paths);
		return err_set(GA_ETOOL, "cannot walk the tree: %s", git_msg());
	}
	*out = w.paths;
	*n = w.n;
	*capped = w.capped;
	return 0;
}
