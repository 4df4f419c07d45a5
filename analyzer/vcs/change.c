/* Classifying findings across a change (see change.h). */
#define _GNU_SOURCE /* nftw */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/wait.h>
#include <jansson.h>
#include "gfpaudit/alloc_table.h"
#include "gfpaudit/blank.h"
#include "gfpaudit/change.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/version.h"

/* ---- classification ---- */

void change_set_init(struct change_set *s) { memset(s, 0, sizeof(*s)); }

void change_set_release(struct change_set *s)
{
	for (size_t i = 0; i < s->nnew; i++)
		finding_release(&s->new_[i]);
	for (size_t i = 0; i < s->nindirect; i++)
		finding_release(&s->indirect[i]);
	for (size_t i = 0; i < s->nfixed; i++)
		finding_release(&s->fixed[i]);
	free(s->new_);
	free(s->indirect);
	free(s->fixed);
	for (size_t i = 0; i < s->nproblems; i++) {
		free(s->problems[i].file);
		free(s->problems[i].reason);
	}
	free(s->problems);
	change_set_init(s);
}

static void add_problem(struct change_set *s, const char *file, const char *reason, bool failed)
{
	ALLOC_GROW(s->problems, s->nproblems + 1, s->problems_alloc);
	s->problems[s->nproblems].file = xstrdup(file);
	s->problems[s->nproblems].reason = xstrdup(reason ? reason : "");
	s->problems[s->nproblems].failed = failed;
	s->nproblems++;
}

static bool same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* The key two findings match on.  The engine's fingerprint holds the file
 * name, so across a rename both sides are keyed under the new name.  The
 * loose key leaves the function out: a call that moved to another function
 * (a helper split out, a function renamed) is the same call. */
static char *key_of(const struct finding *f, const char *analyzed, const char *canon, bool renamed, bool loose)
{
	if (!renamed && !loose && f->fingerprint)
		return xstrdup(f->fingerprint);
	struct site s = f->site; /* shallow: finding_fingerprint only reads */
	if (renamed && same(s.file, analyzed))
		s.file = (char *)canon;
	if (loose)
		s.function = NULL;
	return finding_fingerprint(f->rule, &s);
}

static void relabel(struct finding *f, const char *from, const char *to)
{
	if (!from || !to)
		return;
	if (same(f->site.file, from)) {
		free(f->site.file);
		f->site.file = xstrdup(to);
	}
	for (size_t i = 0; i < f->site.nev; i++)
		if (same(f->site.ev[i].file, from)) {
			free(f->site.ev[i].file);
			f->site.ev[i].file = xstrdup(to);
		}
}

static void push(struct finding **arr, size_t *n, size_t *alloc, const struct finding *f,
		 const char *from, const char *to)
{
	ALLOC_GROW(*arr, *n + 1, *alloc);
	finding_copy(&(*arr)[*n], f);
	relabel(&(*arr)[*n], from, to);
	(*n)++;
}

/* How close a site is to the change: 2 on a changed line, 1 in a changed
 * function, 0 elsewhere. */
static int touch_rank(const struct finding *f, const struct change_file *cf, const struct fn_extents *fx)
{
	const struct vcs_change *c = cf->change;
	bool here = same(f->site.file, cf->after_file);
	if (here && vcs_change_touches(c, f->site.line, f->site.line))
		return 2;
	const struct fn_extent *hit = NULL;
	if (here)
		for (size_t i = 0; i < fx->n && !hit; i++)
			if (fx->v[i].start <= f->site.line && f->site.line <= fx->v[i].end)
				hit = &fx->v[i];
	if (hit)
		return vcs_change_touches(c, hit->start, hit->end) ? 1 : 0;
	/* the line is not in a body we found (a site reported in a header, or a
	 * scan the preprocessor fooled): go by the function's name */
	for (size_t i = 0; i < fx->n; i++)
		if (same(fx->v[i].name, f->site.function) && vcs_change_touches(c, fx->v[i].start, fx->v[i].end))
			return 1;
	return 0;
}

/* Pair findings after with findings before that have the same key; of
 * several candidates after, those farthest from the change pair first, so
 * the ones the change made stay unpaired. */
static void pair(char **ka, const int *rank, size_t na, bool *used_a, char **kb, size_t nb, bool *used_b)
{
	for (int want = 0; want <= 2; want++)
		for (size_t i = 0; i < na; i++) {
			if (used_a[i] || rank[i] != want)
				continue;
			for (size_t k = 0; k < nb; k++)
				if (!used_b[k] && !strcmp(ka[i], kb[k])) {
					used_a[i] = used_b[k] = true;
					break;
				}
		}
}

void change_classify(const struct change_file *cf, struct change_set *out)
{
	const struct vcs_change *c = cf->change;
	const struct file_result *a = cf->after, *b = cf->before;
	size_t na = a ? a->nfindings : 0, nb = b ? b->nfindings : 0;
	bool renamed = c->old_path && c->new_path && strcmp(c->old_path, c->new_path);
	const char *canon = c->new_path ? c->new_path : c->old_path;
	char **ka = xcalloc(na + 1, sizeof(*ka)), **kb = xcalloc(nb + 1, sizeof(*kb));
	int *rank = xcalloc(na + 1, sizeof(*rank));
	bool *used_a = xcalloc(na + 1, sizeof(*used_a)), *used_b = xcalloc(nb + 1, sizeof(*used_b));
	struct fn_extents fx;
	fn_extents_init(&fx);
	if (c->new_data)
		change_scan_functions(c->new_data, c->new_len, &fx);
	for (size_t i = 0; i < na; i++)
		rank[i] = touch_rank(&a->findings[i], cf, &fx);

	/* exact fingerprints first, then the same call in another function */
	for (int loose = 0; loose <= 1; loose++) {
		for (size_t i = 0; i < na; i++) {
			free(ka[i]);
			ka[i] = key_of(&a->findings[i], cf->after_file, canon, renamed, loose);
		}
		for (size_t i = 0; i < nb; i++) {
			free(kb[i]);
			kb[i] = key_of(&b->findings[i], cf->before_file, canon, renamed, loose);
		}
		pair(ka, rank, na, used_a, kb, nb, used_b);
	}
	for (size_t i = 0; i < na; i++) {
		if (used_a[i])
			out->nold++;
		else if (rank[i] > 0)
			push(&out->new_, &out->nnew, &out->new_alloc, &a->findings[i], cf->after_file, c->new_path);
		else
			push(&out->indirect, &out->nindirect, &out->indirect_alloc, &a->findings[i],
			     cf->after_file, c->new_path);
	}
	for (size_t i = 0; i < nb; i++)
		if (!used_b[i])
			push(&out->fixed, &out->nfixed, &out->fixed_alloc, &b->findings[i], cf->before_file,
			     c->old_path);
	for (size_t i = 0; i < na; i++)
		free(ka[i]);
	for (size_t i = 0; i < nb; i++)
		free(kb[i]);
	free(ka);
	free(kb);
	free(rank);
	free(used_a);
	free(used_b);
	fn_extents_release(&fx);
}

/* ---- running the engine over a diff ---- */

static bool ends_with(const char *s, const char *suf)
{
	size_t n = s ? strlen(s) : 0, k = strlen(suf);
	return n >= k && !strcmp(s + n - k, suf);
}

static bool analyzable(const struct vcs_change *c)
{
	return c->new_path && ends_with(c->new_path, ".c") && c->new_data && !c->binary && !c->too_large &&
	       c->status != VCS_DELETED && c->status != VCS_OTHER;
}

bool change_has_c_files(const struct vcs_diff *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (analyzable(&d->changes[i]))
			return true;
	return false;
}

/* Where the engine is told the file lives (see change_opts.tree). */
static char *abs_path(const struct change_opts *o, const char *rel)
{
	if (o->tree) {
		char *p = xasprintf("%s/%s", o->tree, rel);
		char *slash = strrchr(p, '/');
		struct stat st;
		*slash = 0;
		bool dir_ok = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
		*slash = '/';
		if (dir_ok)
			return p;
		free(p);
	}
	return xasprintf("%s%s", o->workdir, rel);
}

struct unsaved_list {
	struct unsaved_file *v;
	size_t n, alloc;
};

static void unsaved_add(struct unsaved_list *l, char *path, const char *data, size_t len)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].path, path)) {
			free(path);
			return;
		}
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n].path = path;
	l->v[l->n].contents = data;
	l->v[l->n].len = len;
	l->n++;
}

static void unsaved_release(struct unsaved_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free((char *)l->v[i].path);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Headers as they are on each side: the change's own header blobs, and the
 * index copy of headers edited in the work tree but not staged (the same on
 * both sides: the change does not touch them). */
static void collect_headers(const struct change_opts *o, const struct vcs_diff *d, const struct vcs_diff *u,
			    struct unsaved_list *before, struct unsaved_list *after)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct vcs_change *c = &d->changes[i];
		if (c->new_data && ends_with(c->new_path, ".h"))
			unsaved_add(after, abs_path(o, c->new_path), c->new_data, c->new_len);
		if (c->old_data && ends_with(c->old_path, ".h"))
			unsaved_add(before, abs_path(o, c->old_path), c->old_data, c->old_len);
	}
	for (size_t i = 0; u && i < u->n; i++) {
		const struct vcs_change *c = &u->changes[i];
		if (c->old_data && ends_with(c->old_path, ".h")) {
			unsaved_add(after, abs_path(o, c->old_path), c->old_data, c->old_len);
			unsaved_add(before, abs_path(o, c->old_path), c->old_data, c->old_len);
		}
	}
}

/* ---- the results cache ---- */

static void stat_into(struct strbuf *sb, const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0)
		strbuf_addf(sb, " %s:%lld:%lld.%09ld", path, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
			    st.st_mtim.tv_nsec);
	else
		strbuf_addf(sb, " %s:-", path);
}

static struct strbuf *nftw_sb; /* nftw has no user pointer */
static int kmodel_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)f;
	if (type == FTW_F)
		strbuf_addf(nftw_sb, " %s:%lld:%lld.%09ld", path, (long long)st->st_size,
			    (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
	return 0;
}

/* Everything about this run that changes a result without changing a file
 * of the repository. */
static void cache_salt(struct engine *e, struct strbuf *sb)
{
	const struct engine_opts *eo = engine_opts(e);
	/* not the PCH's identity: it is built only when something is parsed,
	 * and a parse through it gives what a plain parse gives */
	strbuf_addf(sb, "gfpaudit-check-cache 1 %s rules=%llx tree=%s compdb=%s\n", gfpaudit_version,
		    (unsigned long long)eo->rules, eo->tree ? eo->tree : "", eo->compdb ? eo->compdb : "");
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		stat_into(sb, exe);
	}
	for (const char **f = eo->allocator_files; f && *f; f++)
		stat_into(sb, *f);
	if (eo->compdb)
		stat_into(sb, eo->compdb);
	if (eo->tree) {
		char *p = xasprintf("%s/.config", eo->tree);
		stat_into(sb, p);
		free(p);
		p = xasprintf("%s/include/generated/autoconf.h", eo->tree);
		stat_into(sb, p);
		free(p);
	} else if (eo->kmodel_dir) {
		nftw_sb = sb;
		nftw(eo->kmodel_dir, kmodel_entry, 16, 0);
		nftw_sb = NULL;
	}
	strbuf_addc(sb, '\n');
}

/* The cache file for one analysis, or NULL when it cannot be keyed. */
static char *cache_file(const struct change_opts *o, const char *salt, const char *abs, const char *rel,
			const char *data, size_t len, const struct unsaved_list *headers)
{
	struct strbuf key = STRBUF_INIT;
	char id[41];
	strbuf_adds(&key, salt);
	vcs_blob_id(data, len, id);
	strbuf_addf(&key, "path %s\nblob %s\nhead", abs, id);
	if (vcs_head_header_key(o->vcs, rel, &key)) {
		strbuf_release(&key);
		return NULL;
	}
	for (size_t i = 0; i < headers->n; i++) {
		vcs_blob_id(headers->v[i].contents, headers->v[i].len, id);
		strbuf_addf(&key, "\nunsaved %s %s", headers->v[i].path, id);
	}
	vcs_blob_id(key.buf, key.len, id);
	strbuf_release(&key);
	return xasprintf("%s/%s.json", o->cache_dir, id);
}

static struct file_result *cache_load(const char *file)
{
	json_t *j = json_load_file(file, 0, NULL);
	struct file_result *r = NULL;
	if (j && file_result_from_json(j, &r) == 0) {
		utimensat(AT_FDCWD, file, NULL, 0); /* recently used */
	} else {
		r = NULL;
	}
	json_decref(j);
	return r;
}

/* Best effort: a cache that cannot be written only costs time. */
static void cache_store(const char *dir, const char *file, const struct file_result *r)
{
	mkdir(dir, 0777);
	char *tmp = xasprintf("%s.%ld.tmp", file, (long)getpid());
	json_t *j = file_result_to_json(r);
	if (json_dump_file(j, tmp, JSON_COMPACT) == 0 && rename(tmp, file) == 0) {
		json_decref(j);
		free(tmp);
		return;
	}
	unlink(tmp);
	json_decref(j);
	free(tmp);
}

struct aged {
	char *name;
	struct timespec t;
};

static int by_age(const void *a, const void *b)
{
	const struct aged *x = a, *y = b;
	if (x->t.tv_sec != y->t.tv_sec)
		return x->t.tv_sec < y->t.tv_sec ? -1 : 1;
	return (x->t.tv_nsec > y->t.tv_nsec) - (x->t.tv_nsec < y->t.tv_nsec);
}

void change_cache_prune(const char *dir, size_t max)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct aged *v = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".json"))
			continue;
		char *p = xasprintf("%s/%s", dir, de->d_name);
		struct stat st;
		if (stat(p, &st) == 0) {
			ALLOC_GROW(v, n + 1, alloc);
			v[n].name = p;
			v[n].t = st.st_mtim;
			n++;
		} else {
			free(p);
		}
	}
	closedir(d);
	if (n > max)
		qsort(v, n, sizeof(*v), by_age);
	for (size_t i = 0; i < n; i++) {
		if (n > max && i < n - max)
			unlink(v[i].name);
		free(v[i].name);
	}
	free(v);
}

/* One side of a file's change, as the engine will see it. */
struct side {
	char *abs;                 /* path given to the engine */
	const char *rel;           /* repository path */
	const char *data;
	size_t len;
	const struct unsaved_list *headers;
	char *cache_file;          /* NULL: not cached */
	char *blanked;             /* data, when it is a blanked copy */
};

static struct file_result *side_cached(const struct change_opts *o, const char *salt, struct side *s)
{
	if (!o->cache_dir || !o->vcs)
		return NULL;
	s->cache_file = cache_file(o, salt, s->abs, s->rel, s->data, s->len, s->headers);
	return s->cache_file ? cache_load(s->cache_file) : NULL;
}

/* The side's analysis starts in a child of its own (isolate.h): a staged file
 * that crashes or hangs the analyzer costs that file, not the commit. */
static int side_start(struct engine *e, const struct change_opts *o, const struct side *s, struct isolate_child *c)
{
	struct unsaved_list l = { 0 };
	/* the file itself first: it wins over a header list entry of the same path */
	unsaved_add(&l, xstrdup(s->abs), s->data, s->len);
	for (size_t i = 0; i < s->headers->n; i++)
		unsaved_add(&l, xstrdup(s->headers->v[i].path), s->headers->v[i].contents, s->headers->v[i].len);
	int rc = isolate_start(e, s->abs, l.v, l.n, &o->limits, c);
	unsaved_release(&l); /* the child has its copy */
	return rc;
}

static int side_run(struct engine *e, const struct change_opts *o, const struct side *s, struct file_result **out)
{
	struct isolate_child c;
	int rc = side_start(e, o, s, &c);
	return rc ? rc : isolate_finish(e, &c, out);
}

static void side_store(struct change_opts *o, const struct side *s, const struct file_result *r)
{
	/* a failure may be the machine's (memory, a timeout): never cached */
	if (s->cache_file && r->status != FILE_FAILED)
		cache_store(o->cache_dir, s->cache_file, r);
}

static void side_release(struct side *s)
{
	free(s->blanked);
	free(s->abs);
	free(s->cache_file);
}

/* Is the old side likely needed: does a function the change touches
 * mention an allocation at all?  Only decides whether to start it early. */
static bool likely_alloc(const struct vcs_change *c)
{
	struct fn_extents fx;
	bool yes = false;
	fn_extents_init(&fx);
	change_scan_functions(c->new_data, c->new_len, &fx);
	for (size_t i = 0; i < fx.n && !yes; i++) {
		if (!vcs_change_touches(c, fx.v[i].start, fx.v[i].end))
			continue;
		/* the function's text: from its first line to its last */
		const char *p = c->new_data, *end = c->new_data + c->new_len;
		for (int line = 1; line < fx.v[i].start && p < end; p++)
			if (*p == '\n')
				line++;
		const char *q = p;
		for (int line = fx.v[i].start; line <= fx.v[i].end && q < end; q++)
			if (*q == '\n')
				line++;
		char *text = xstrndup(p, (size_t)(q - p));
		yes = strstr(text, "alloc") || strstr(text, "GFP") || strstr(text, "order");
		free(text);
	}
	fn_extents_release(&fx);
	return yes;
}

static bool touched_any(const struct file_result *r, const struct vcs_change *c, const char *rp)
{
	struct change_file cf = { .change = c, .after = r, .after_file = rp };
	struct fn_extents fx;
	bool any = false;
	fn_extents_init(&fx);
	change_scan_functions(c->new_data, c->new_len, &fx);
	for (size_t i = 0; i < r->nfindings && !any; i++)
		any = touch_rank(&r->findings[i], &cf, &fx) > 0;
	fn_extents_release(&fx);
	return any;
}

/* The functions of c the analysis must see (blank.h): those its hunks
 * touch, and what blank_plan() adds. */
static void keep_plan(const struct vcs_change *c, const struct blank_names *allocators, struct blank_names *keep)
{
	struct blank_names seed;
	struct fn_extents fx;
	blank_names_init(&seed);
	fn_extents_init(&fx);
	fn_scan_functions(c->new_data, c->new_len, &fx);
	for (size_t i = 0; i < fx.n; i++)
		if (vcs_change_touches(c, fx.v[i].start, fx.v[i].end)) {
			if (!fx.v[i].name)
				seed.all = true; /* a changed body nothing can name */
			else
				blank_names_add(&seed, fx.v[i].name, strlen(fx.v[i].name));
		}
	fn_extents_release(&fx);
	/* the test hook keeps the touched functions alone: t40 shows what the
	 * closure keeps by losing it */
	const char *t = getenv("GFPAUDIT_TEST_NO_CLOSURE");
	if (t && *t && strcmp(t, "0")) {
		for (size_t i = 0; i < seed.cap; i++)
			if (seed.slot[i])
				blank_names_add(keep, seed.slot[i], strlen(seed.slot[i]));
		keep->all |= seed.all;
	} else {
		blank_plan(c->old_data, c->old_data ? c->old_len : 0, c->new_data, c->new_len, &seed, allocators,
			   keep);
	}
	blank_names_release(&seed);
}

/* The names of the engine's allocator table (built in and --allocators). */
static void allocator_names(struct engine *e, struct blank_names *out)
{
	struct alloc_table t;
	const struct engine_opts *eo = engine_opts(e);
	if (alloc_table_init(&t)) {
		out->all = true;
		return;
	}
	for (const char **f = eo->allocator_files; f && *f; f++)
		if (alloc_table_load_file(&t, *f))
			out->all = true;
	for (size_t i = 0; i < t.n; i++)
		blank_names_add(out, t.e[i].name, strlen(t.e[i].name));
	alloc_table_release(&t);
}

/* s->data with the bodies outside *keep blanked, owned by s (unchanged
 * when the text's braces cannot be trusted). */
static void side_blank(struct side *s, const struct blank_names *keep)
{
	char *out;
	size_t len, n;
	if (keep->all || blank_bodies(s->data, s->len, keep, &out, &len, &n))
		return;
	if (getenv("GFPAUDIT_PROFILE")) /* one line a side, as the engine's */
		fprintf(stderr, "profile: %s blanked %zu bodies, kept %zu functions\n", s->rel, n, keep->n);
	if (!n) {
		free(out);
		return;
	}
	s->blanked = out;
	s->data = out;
	s->len = len;
}

int change_run(struct engine *e, const struct vcs_diff *d, const struct vcs_diff *unstaged,
	       struct change_opts *o, struct change_set *out)
{
	struct unsaved_list before = { 0 }, after = { 0 };
	struct strbuf salt = STRBUF_INIT;
	int rc = 0;
	if (o->cache_dir)
		cache_salt(e, &salt);
	collect_headers(o, d, unstaged, &before, &after);
	struct blank_names allocators;
	blank_names_init(&allocators);
	if (o->skip_bodies)
		allocator_names(e, &allocators);
	for (size_t i = 0; i < d->n && !rc; i++) {
		const struct vcs_change *c = &d->changes[i];
		if (!analyzable(c)) {
			out->not_analyzed++;
			continue;
		}
		struct file_result *ra = NULL, *rb = NULL;
		struct side sa = { .abs = abs_path(o, c->new_path), .rel = c->new_path, .data = c->new_data,
				   .len = c->new_len, .headers = &after };
		struct side sb = { 0 };
		struct isolate_child sp = { .pid = -1, .fd = -1 };
		char *rpa = NULL, *rpb = NULL;
		bool old_possible = c->old_data && ends_with(c->old_path, ".c");
		if (old_possible)
			sb = (struct side){ .abs = abs_path(o, c->old_path), .rel = c->old_path, .data = c->old_data,
					    .len = c->old_len, .headers = &before };
		if (o->skip_bodies) {
			struct blank_names keep;
			blank_names_init(&keep);
			keep_plan(c, &allocators, &keep);
			side_blank(&sa, &keep);
			if (old_possible)
				side_blank(&sb, &keep);
			blank_names_release(&keep);
		}
		ra = side_cached(o, salt.buf, &sa);
		rb = old_possible ? side_cached(o, salt.buf, &sb) : NULL;
		ra ? o->cache_hits++ : o->cache_misses++;
		/* engine_prepare before a child forks: they share its PCH */
		if (!ra && old_possible && !rb && o->jobs > 1 && (o->want_old || likely_alloc(c))) {
			if ((rc = engine_prepare(e)))
				goto next;
			side_start(e, o, &sb, &sp); /* parsed while the new side is */
		}
		if (!ra) {
			if ((rc = engine_prepare(e)) || (rc = side_run(e, o, &sa, &ra)))
				goto next;
			side_store(o, &sa, ra);
		}
		rpa = engine_report_path(e, sa.abs);
		if (ra->status == FILE_FAILED) {
			out->failed++;
			add_problem(out, c->new_path, ra->reason, true);
			goto next;
		}
		ra->status == FILE_ANALYZED ? out->analyzed++ : out->skipped++;
		if (ra->partial) /* what the parse errors hide is not judged */
			add_problem(out, c->new_path, ra->reason, false);
		/* the old side only matters when something new may be reported */
		if (old_possible && (o->want_old || touched_any(ra, c, rpa))) {
			if (rb) {
				o->cache_hits++;
			} else {
				o->cache_misses++;
				if (sp.pid > 0) {
					if ((rc = isolate_finish(e, &sp, &rb)))
						goto next;
					o->spec_used++;
				} else if ((rc = engine_prepare(e)) || (rc = side_run(e, o, &sb, &rb))) {
					goto next;
				}
				side_store(o, &sb, rb);
			}
			rpb = engine_report_path(e, sb.abs);
			if (rb->status == FILE_FAILED) {
				char *why = xasprintf("the version before the change failed to analyze (%s): "
						      "every finding in the changed functions counts as new",
						      rb->reason ? rb->reason : "no reason given");
				add_problem(out, c->old_path, why, false);
				free(why);
				file_result_free(rb);
				rb = NULL;
			}
		} else {
			file_result_free(rb);
			rb = NULL;
		}
		struct change_file cf = { .change = c, .before = rb, .after = ra,
					  .after_file = rpa, .before_file = rpb };
		change_classify(&cf, out);
next:
		if (sp.pid > 0) {
			o->spec_wasted++;
			isolate_cancel(&sp);
		}
		file_result_free(ra);
		file_result_free(rb);
		side_release(&sa);
		side_release(&sb);
		free(rpa);
		free(rpb);
	}
	unsaved_release(&before);
	unsaved_release(&after);
	strbuf_release(&salt);
	blank_names_release(&allocators);
	return rc;
}
