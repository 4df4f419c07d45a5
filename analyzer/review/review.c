/* gfpaudit review: the series, its base, patch-by-patch apply and analysis,
 * and the before/after classification of findings (see review.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gfpaudit/review.h"
#include "gfpaudit/result.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

const char *review_base_source_name(enum review_base_source s)
{
	switch (s) {
	case BASE_TRAILER: return "base-commit";
	case BASE_OPTION: return "--base";
	default: return "HEAD";
	}
}

/* ---- classification ---- */

static const char *fp_of(const struct finding *f)
{
	return f->fingerprint ? f->fingerprint : "";
}

void review_classify(const struct finding *before, size_t nb, const struct finding *after, size_t na,
		     size_t **intro, size_t *nintro, size_t **fixed, size_t *nfixed)
{
	bool *used = xcalloc(nb ? nb : 1, sizeof(bool));
	*intro = xcalloc(na ? na : 1, sizeof(size_t));
	*fixed = xcalloc(nb ? nb : 1, sizeof(size_t));
	*nintro = *nfixed = 0;
	for (size_t i = 0; i < na; i++) {
		bool matched = false;
		for (size_t k = 0; k < nb && !matched; k++)
			if (!used[k] && !strcmp(fp_of(&after[i]), fp_of(&before[k])))
				used[k] = matched = true;
		if (!matched)
			(*intro)[(*nintro)++] = i;
	}
	for (size_t k = 0; k < nb; k++)
		if (!used[k])
			(*fixed)[(*nfixed)++] = k;
	free(used);
}

/* ---- analysis of one file in one tree ---- */

struct cached {
	char *key;
	struct file_result *fr; /* NULL: not analyzable, note says why */
	char *note;
};

struct ctx {
	const struct review_opts *o;
	struct review *r;
	struct apply_repo *repo;
	struct engine *e;
	struct cached *cache;
	size_t ncache, cache_alloc;
	char **touched;         /* every path the applied patches named */
	size_t ntouched, touched_alloc;
};

static bool is_header(const char *p)
{
	size_t n = strlen(p);
	return n > 2 && !strcmp(p + n - 2, ".h");
}

static bool series_touches_header(const struct mail_series *s)
{
	for (size_t i = 0; i < s->npatches; i++) {
		const struct mail_diff_info *d = &mail_series_patch(s, i)->files;
		for (size_t k = 0; k < d->nfiles; k++) {
			const struct mail_diff_file *f = &d->files[k];
			const char *p[] = { f->old_path, f->new_path, f->rename_from, f->rename_to };
			for (size_t j = 0; j < 4; j++)
				if (p[j] && is_header(p[j]))
					return true;
		}
	}
	return false;
}

static bool is_c(const char *p)
{
	size_t n = p ? strlen(p) : 0;
	return n > 2 && !strcmp(p + n - 2, ".c");
}

static void touch(struct ctx *c, const char *path)
{
	if (!path)
		return;
	for (size_t i = 0; i < c->ntouched; i++)
		if (!strcmp(c->touched[i], path))
			return;
	ALLOC_GROW(c->touched, c->ntouched + 1, c->touched_alloc);
	c->touched[c->ntouched++] = xstrdup(path);
}

static char *relative(const struct ctx *c, const char *path)
{
	size_t n = strlen(c->r->root);
	if (path && !strncmp(path, c->r->root, n) && path[n] == '/')
		return xstrdup(path + n + 1);
	return xstrdup(path ? path : "");
}

/* A fix's diff names the file as the engine was given it (the work tree's
 * path, as seen from here): its header paths become `file`, relative to the
 * repository as the patch's are. */
static char *relative_diff(const char *diff, const char *file)
{
	size_t n = strlen(file);
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = diff; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p + 1) : strlen(p);
		bool header = !strncmp(p, "diff --git ", 11) || !strncmp(p, "--- ", 4) || !strncmp(p, "+++ ", 4);
		for (size_t i = 0; i < len; i++) {
			strbuf_addc(&sb, p[i]);
			if (!header || (p[i] != 'a' && p[i] != 'b') || p[i + 1] != '/' || !i || p[i - 1] != ' ')
				continue;
			size_t tok = strcspn(p + i + 2, " \n"); /* the path after a/ or b/ */
			const char *t = p + i + 2;
			if (tok > n && t[tok - n - 1] == '/' && !strncmp(t + tok - n, file, n)) {
				strbuf_addf(&sb, "/%s", file);
				i += 1 + tok;
			}
		}
		p += len;
	}
	return strbuf_detach(&sb);
}

static void relativize(struct ctx *c, struct file_result *fr)
{
	for (size_t i = 0; i < fr->nfindings; i++) {
		struct site *s = &fr->findings[i].site;
		char *p = relative(c, s->file);
		free(s->file);
		s->file = p;
		for (size_t k = 0; k < s->nev; k++) {
			p = relative(c, s->ev[k].file);
			free(s->ev[k].file);
			s->ev[k].file = p;
		}
		if (!fr->findings[i].fingerprint)
			fr->findings[i].fingerprint = finding_fingerprint(fr->findings[i].rule, s);
		for (size_t k = 0; k < fr->findings[i].nfixes; k++) {
			struct fix *x = &fr->findings[i].fixes[k];
			if (!x->diff)
				continue;
			p = relative_diff(x->diff, s->file);
			free(x->diff);
			x->diff = p;
		}
	}
}

/* The headers changed by the series so far, as they are in tree `t`, go in
 * as unsaved files next to the file itself; everything else is read from
 * the repository's work tree (the base's generated headers included).
 * *out is an index into c->cache, never a pointer: the next analysis may
 * grow (move) the array. */
static int analyze(struct ctx *c, const struct apply_tree *t, const char *path, const char *when,
		   size_t *out)
{
	struct strbuf key = STRBUF_INIT;
	char id[41];
	apply_tree_blob_id(t, path, id);
	strbuf_addf(&key, "%s=%s", path, id);
	for (size_t i = 0; i < c->ntouched; i++) {
		if (!is_header(c->touched[i]) || !strcmp(c->touched[i], path))
			continue;
		apply_tree_blob_id(t, c->touched[i], id);
		strbuf_addf(&key, "\n%s=%s", c->touched[i], id);
	}
	for (size_t i = 0; i < c->ncache; i++)
		if (!strcmp(c->cache[i].key, key.buf)) {
			strbuf_release(&key);
			*out = i;
			return 0;
		}

	ALLOC_GROW(c->cache, c->ncache + 1, c->cache_alloc);
	*out = c->ncache;
	struct cached *ce = &c->cache[c->ncache++];
	memset(ce, 0, sizeof(*ce));
	ce->key = strbuf_detach(&key);

	struct unsaved_file *uf = xcalloc(c->ntouched + 1, sizeof(*uf));
	char **bufs = xcalloc(c->ntouched + 1, sizeof(char *));
	size_t nuf = 0, len;
	int rc = 0;
	if (apply_tree_read(c->repo, t, path, c->o->max_file, &bufs[0], &len)) {
		ce->note = xasprintf("%s (%s): not analyzed: %s", path, when, err_last());
		goto cleanup;
	}
	uf[nuf++] = (struct unsaved_file){ xasprintf("%s/%s", c->r->root, path), bufs[0], len };
	for (size_t i = 0; i < c->ntouched; i++) {
		const char *h = c->touched[i];
		if (!is_header(h) || !strcmp(h, path))
			continue;
		if (apply_tree_read(c->repo, t, h, c->o->max_file, &bufs[nuf], &len))
			continue; /* deleted by the series, or too big: the disk copy stands */
		uf[nuf].path = xasprintf("%s/%s", c->r->root, h);
		uf[nuf].contents = bufs[nuf];
		uf[nuf].len = len;
		nuf++;
	}
	struct file_result *fr = NULL;
	/* in a child of its own: mailed content that crashes or hangs the
	 * analyzer costs this file (reported, never a pass), not the review */
	rc = isolate_analyze(c->e, uf[0].path, uf, nuf, &c->o->isolation, &fr);
	if (rc) {
		file_result_free(fr);
		goto cleanup;
	}
	if (fr->status != FILE_ANALYZED) {
		ce->note = xasprintf("%s (%s): %s: %s", path, when,
				     fr->status == FILE_SKIPPED ? "skipped" : "failed to analyze",
				     fr->reason ? fr->reason : "no reason given");
		file_result_free(fr);
		goto cleanup;
	}
	relativize(c, fr);
	ce->fr = fr;
cleanup:
	for (size_t i = 0; i < nuf; i++)
		free((char *)uf[i].path);
	for (size_t i = 0; i <= c->ntouched; i++)
		free(bufs[i]);
	free(bufs);
	free(uf);
	return rc;
}

/* ---- the series ---- */

struct open_finding {
	size_t patch, index; /* into r->patches[patch].introduced */
};

static void add_series_warning(struct mail_series *s, char *w)
{
	ALLOC_GROW(s->warnings, s->nwarnings + 1, s->warnings_alloc);
	s->warnings[s->nwarnings++] = w;
}

static void add_note(struct review_patch *p, char *note)
{
	ALLOC_GROW(p->notes, p->nnotes + 1, p->notes_alloc);
	p->notes[p->nnotes++] = note;
}

static struct review_finding *add_finding(struct review_finding **arr, size_t *n, size_t *alloc,
					   const struct finding *f)
{
	ALLOC_GROW(*arr, *n + 1, *alloc);
	struct review_finding *rf = &(*arr)[(*n)++];
	memset(rf, 0, sizeof(*rf));
	finding_copy(&rf->f, f);
	return rf;
}

/* A renamed file's old findings, seen under the new name, so that a pure
 * rename neither fixes nor introduces anything. */
static struct finding *renamed_copy(const struct file_result *fr, const char *from, const char *to)
{
	struct finding *v = xcalloc(fr->nfindings ? fr->nfindings : 1, sizeof(*v));
	for (size_t i = 0; i < fr->nfindings; i++) {
		finding_copy(&v[i], &fr->findings[i]);
		if (v[i].site.file && !strcmp(v[i].site.file, from)) {
			free(v[i].site.file);
			v[i].site.file = xstrdup(to);
			free(v[i].fingerprint);
			v[i].fingerprint = finding_fingerprint(v[i].rule, &v[i].site);
		}
	}
	return v;
}

static bool same_str(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/* Two findings at the same allocation call (file, function, API): the
 * line moves with the patch, the call does not. */
static bool same_call(const struct finding *a, const struct finding *b)
{
	return same_str(a->site.file, b->site.file) && same_str(a->site.function, b->site.function) &&
	       same_str(a->site.api, b->site.api);
}

static int review_file(struct ctx *c, size_t pi, const struct apply_tree *pre, const struct apply_file *f,
		       struct open_finding **open, size_t *nopen, size_t *open_alloc)
{
	struct review_patch *p = &c->r->patches[pi];
	size_t bi = SIZE_MAX, ai = SIZE_MAX;
	char when_b[64], when_a[64];
	snprintf(when_b, sizeof(when_b), "before patch %d", p->index);
	snprintf(when_a, sizeof(when_a), "after patch %d", p->index);
	int rc;
	if (f->old_path && is_c(f->old_path) && (rc = analyze(c, pre, f->old_path, when_b, &bi)))
		return rc;
	if (f->new_path && is_c(f->new_path) && (rc = analyze(c, p->ar.tree, f->new_path, when_a, &ai)))
		return rc;
	/* only now: the second analysis may have moved the cache */
	const struct cached *before = bi != SIZE_MAX ? &c->cache[bi] : NULL;
	const struct cached *after = ai != SIZE_MAX ? &c->cache[ai] : NULL;
	if ((before && !before->fr) || (after && !after->fr)) {
		/* one side could not be analyzed: comparing would invent changes */
		if (before && before->note)
			add_note(p, xstrdup(before->note));
		if (after && after->note)
			add_note(p, xstrdup(after->note));
		return 0;
	}
	p->analyzed += !!before + !!after;
	if (after && after->fr->partial && !p->partial) {
		p->partial = xasprintf("%s: %s", after->fr->file, after->fr->reason ? after->fr->reason : "partially analyzed");
		add_note(p, xstrdup(p->partial));
	}
	const struct file_result *bf = before ? before->fr : NULL, *af = after ? after->fr : NULL;
	struct finding *bview = NULL;
	size_t nb = bf ? bf->nfindings : 0, na = af ? af->nfindings : 0;
	if (bf && f->status == 'R' && f->old_path && f->new_path)
		bview = renamed_copy(bf, f->old_path, f->new_path);
	const struct finding *bfind = bview ? bview : bf ? bf->findings : NULL;
	size_t *intro, *fixed, nintro, nfixed;
	review_classify(bfind, nb, af ? af->findings : NULL, na, &intro, &nintro, &fixed, &nfixed);

	for (size_t i = 0; i < nfixed; i++) {
		const struct finding *g = &bfind[fixed[i]];
		bool earlier = false;
		/* introduced earlier in this series: note it there, not here */
		for (size_t k = 0; k < *nopen && !earlier; k++) {
			struct review_finding *o = &c->r->patches[(*open)[k].patch].introduced[(*open)[k].index];
			if (!strcmp(fp_of(&o->f), fp_of(g))) {
				o->fixed_by = p->index;
				(*open)[k] = (*open)[--*nopen];
				earlier = true;
			}
		}
		if (earlier)
			continue;
		/* the same threshold as introduced ones: a removed note is as
		 * unproven as an added one (README "Severity of a review") */
		if ((int)g->severity < c->o->min_severity)
			continue;
		/* the same call gets another finding from this patch: the
		 * patch changed the problem there, it did not fix it */
		bool replaced = false;
		for (size_t k = 0; k < nintro && !replaced; k++)
			replaced = same_call(g, &af->findings[intro[k]]);
		if (!replaced)
			add_finding(&p->fixed, &p->nfixed, &p->fixed_alloc, g);
	}
	for (size_t i = 0; i < nintro; i++) {
		if ((int)af->findings[intro[i]].severity < c->o->min_severity) {
			p->nbelow++;
			continue;
		}
		add_finding(&p->introduced, &p->nintroduced, &p->introduced_alloc, &af->findings[intro[i]]);
		ALLOC_GROW(*open, *nopen + 1, *open_alloc);
		(*open)[(*nopen)++] = (struct open_finding){ pi, p->nintroduced - 1 };
	}
	free(intro);
	free(fixed);
	if (bview) {
		for (size_t i = 0; i < nb; i++)
			finding_release(&bview[i]);
		free(bview);
	}
	return 0;
}

/* b4 hands a lone patch N: it applies after patch N-1 of b4's branch. */
static int tracking_base(struct ctx *c, struct apply_tree **base)
{
	struct review *r = c->r;
	struct review_tracking t;
	int index = mail_series_patch(&r->series, 0)->subj.m;
	int rc = review_tracking_base(c->o->b4_tracking, index, &t);
	if (rc)
		return rc;
	if (apply_repo_tree(c->repo, t.rev, r->base, base)) {
		rc = err_set(GA_ENOTFOUND, "%s (from B4_TRACKING_FILE) is not a commit in %s", t.rev,
			     c->o->repo ? c->o->repo : ".");
	} else if (t.first) {
		/* the branch must hold the series as the file describes it */
		char sha[41];
		struct apply_tree *ft = NULL;
		if (apply_repo_tree(c->repo, t.first_rev, sha, &ft) || strncmp(sha, t.first, strlen(t.first)))
			rc = err_set(GA_ENOTFOUND, "%s is not series.first-patch-commit %.12s of B4_TRACKING_FILE",
				     t.first_rev, t.first);
		apply_tree_free(ft);
	}
	if (!rc) {
		r->base_source = BASE_OPTION;
		r->base_note = xasprintf("patch %d applied on %s", index, t.note);
	} else {
		apply_tree_free(*base);
		*base = NULL;
	}
	review_tracking_release(&t);
	return rc;
}

/* A patch that changes headers and no .c file: the .c files that include
 * them are analyzed before and after it (the changed headers reach them as
 * unsaved files), at most REVIEW_HEADER_INCLUDERS per header. */
static int review_headers(struct ctx *c, size_t pi, const struct apply_tree *pre, struct open_finding **open,
			  size_t *nopen, size_t *open_alloc)
{
	struct review_patch *p = &c->r->patches[pi];
	for (size_t k = 0; k < p->ar.nfiles; k++)
		if (is_c(p->ar.files[k].new_path) || is_c(p->ar.files[k].old_path))
			return 0;
	int rc = 0;
	for (size_t k = 0; k < p->ar.nfiles && !rc; k++) {
		const char *h = p->ar.files[k].new_path;
		if (!h || !is_header(h))
			continue;
		char **inc = NULL;
		size_t n = 0;
		bool capped = false;
		if (apply_tree_includers(c->repo, p->ar.tree, h, REVIEW_HEADER_INCLUDERS, &inc, &n, &capped)) {
			add_series_warning(&c->r->series, xasprintf("patch %d: the .c files including %s not found: %s",
								    p->index, h, err_last()));
			continue;
		}
		if (!n)
			add_series_warning(&c->r->series, xasprintf("patch %d changes %s, which no .c file of the tree "
								    "includes: not analyzed", p->index, h));
		else
			add_series_warning(&c->r->series, xasprintf("patch %d changes only headers: %s analyzed through "
								    "%s%s%s", p->index, h, inc[0], n > 1 ? " and others" : "",
								    capped ? " (capped: more .c files include it)" : ""));
		for (size_t i = 0; i < n; i++) {
			struct apply_file f = { inc[i], inc[i], 'M', false };
			if (!rc)
				rc = review_file(c, pi, pre, &f, open, nopen, open_alloc);
			free(inc[i]);
		}
		free(inc);
	}
	return rc;
}

static int choose_base(struct ctx *c, struct apply_tree **base)
{
	struct review *r = c->r;
	const char *repo = c->o->repo ? c->o->repo : ".";
	const char *trailer = r->series.base_commit;
	if (c->o->b4_tracking && r->series.npatches == 1)
		return tracking_base(c, base);
	/* b4 prep --check pipes patch N of the branch HEAD is on: it is
	 * already a commit there, and its parent is what it applies to */
	const struct mail_message *only = r->series.npatches == 1 ? mail_series_patch(&r->series, 0) : NULL;
	char commit[41], parent[41];
	if (only && only->diff && apply_repo_find_applied(c->repo, only->diff, only->diff_len, REVIEW_APPLIED_DEPTH,
							   commit, parent) == 1 &&
	    !apply_repo_tree(c->repo, parent, r->base, base)) {
		r->base_source = BASE_OPTION;
		r->base_note = xasprintf("patch %d is commit %.12s of HEAD: judged on its parent %.12s",
					 only->subj.m, commit, r->base);
		return 0;
	}
	if (trailer) {
		if (!apply_repo_tree(c->repo, trailer, r->base, base)) {
			r->base_source = BASE_TRAILER;
			r->base_note = xasprintf("base %.12s from the series' base-commit trailer", r->base);
			return 0;
		}
		if (!c->o->base)
			return err_set(GA_ENOTFOUND, "base commit %s from the series is not in %s: fetch it or pass --base",
				       trailer, repo);
		if (apply_repo_tree(c->repo, c->o->base, r->base, base))
			return err_set(GA_ENOTFOUND, "base commit %s from the series is not in %s, and --base '%s' is not a commit there either",
				       trailer, repo, c->o->base);
		r->base_source = BASE_OPTION;
		r->base_note = xasprintf("base commit %s from the series is not in %s; using --base %s (%.12s)",
					 trailer, repo, c->o->base, r->base);
		return 0;
	}
	if (c->o->base) {
		if (apply_repo_tree(c->repo, c->o->base, r->base, base))
			return err_set(GA_ENOTFOUND, "--base '%s' is not a commit in %s", c->o->base, repo);
		r->base_source = BASE_OPTION;
		r->base_note = xasprintf("base %.12s from --base %s (the series names no base-commit)", r->base, c->o->base);
		return 0;
	}
	if (apply_repo_tree(c->repo, "HEAD", r->base, base))
		return err_set(GA_ENOTFOUND, "the series names no base-commit and %s has no HEAD commit: pass --base", repo);
	r->base_source = BASE_HEAD;
	r->base_note = xasprintf("base %.12s is HEAD of %s: the series names no base-commit (pass --base to choose)",
				 r->base, repo);
	return 0;
}

int review_run(const struct review_opts *o, struct review **out)
{
	*out = NULL;
	struct review *r = xcalloc(1, sizeof(*r));
	struct ctx c = { .o = o, .r = r };
	struct apply_tree *base = NULL;
	struct open_finding *open = NULL;
	size_t nopen = 0, open_alloc = 0;
	char *stopped = NULL; /* why the patches from here on are not applied */
	int rc = mail_series_read(o->mboxes, o->nmboxes, &o->limits, &r->series);
	if (rc)
		goto cleanup;
	if (!r->series.npatches && r->series.cover >= 0) {
		*out = r; /* a cover letter alone: nothing to apply, nothing to say */
		return 0;
	}
	if (!r->series.npatches) {
		rc = err_set(GA_EINVAL, "no patch in %s", !strcmp(o->mboxes[0], "-") ? "the input" : o->mboxes[0]);
		goto cleanup;
	}
	if ((rc = apply_repo_open(o->repo ? o->repo : ".", &c.repo)))
		goto cleanup;
	r->root = xstrdup(apply_repo_root(c.repo));
	if ((rc = choose_base(&c, &base)))
		goto cleanup;

	/* A prepared kernel tree brings its kbuild flags; anything else parses
	 * against the kernel-model headers.  Either way nothing is built. */
	struct engine_opts eo = o->engine;
	char *autoconf = xasprintf("%s/include/generated/autoconf.h", r->root);
	r->kbuild = access(autoconf, R_OK) == 0;
	free(autoconf);
	eo.tree = r->kbuild ? r->root : NULL;
	/* the rules judge with the allocator the mails speak of: the
	 * repository's mm/page_alloc.c, prepared tree or not (a repository
	 * without one has no allocator: costly-noretry-compacts stays off,
	 * as it does for audit without --tree) */
	char *pa = xasprintf("%s/mm/page_alloc.c", r->root);
	if (!eo.tree && access(pa, R_OK) == 0)
		eo.model_tree = r->root;
	free(pa);
	/* The precompiled headers are built from the work tree's headers: they
	 * hold what is analyzed only when the series leaves every header alone
	 * (a header it touches goes in as an unsaved file, see analyze()). */
	eo.pch = r->kbuild && !o->no_pch && !series_touches_header(&r->series);
	eo.pch_optional = true;
	if ((rc = slowpath_model_load(r->root, o->engine.allocator_model, &r->model)))
		goto cleanup;
	if ((rc = engine_new(&eo, &c.e)))
		goto cleanup;

	r->npatches = r->series.npatches;
	r->patches = xcalloc(r->npatches, sizeof(*r->patches));
	const struct apply_tree *pre = base;
	for (size_t i = 0; i < r->npatches; i++) {
		struct review_patch *p = &r->patches[i];
		p->msg = mail_series_patch(&r->series, i);
		p->index = p->msg->subj.m;
		if (!p->msg->message_id || !*p->msg->message_id)
			add_series_warning(&r->series, xasprintf("patch %d/%d has no Message-Id: its reply cannot be threaded",
								  p->index, r->series.total));
		if (stopped) {
			p->error = xasprintf("not applied: %s", stopped);
			continue;
		}
		if (p->msg->diff_error) {
			p->error = xstrdup(p->msg->diff_error);
		} else {
			if ((rc = apply_patch(c.repo, pre, p->msg->diff, p->msg->diff_len, &p->ar)))
				goto cleanup;
			if (!p->ar.applied) {
				p->error = xstrdup(p->ar.error);
				p->failed_file = p->ar.failed_file ? xstrdup(p->ar.failed_file) : NULL;
				p->failed_hunk = p->ar.failed_hunk ? xstrdup(p->ar.failed_hunk) : NULL;
			}
		}
		if (p->error) {
			stopped = xasprintf("patch %d did not apply", p->index);
			continue;
		}
		p->applied = true;
		for (size_t k = 0; k < p->ar.nfiles; k++) {
			touch(&c, p->ar.files[k].old_path);
			touch(&c, p->ar.files[k].new_path);
		}
		for (size_t k = 0; k < p->ar.nfiles; k++)
			if ((rc = review_file(&c, i, pre, &p->ar.files[k], &open, &nopen, &open_alloc)))
				goto cleanup;
		if ((rc = review_headers(&c, i, pre, &open, &nopen, &open_alloc)))
			goto cleanup;
		pre = p->ar.tree;
	}
	/* the trees live in the repository's object store, which goes below */
	for (size_t i = 0; i < r->npatches; i++) {
		apply_tree_free(r->patches[i].ar.tree);
		r->patches[i].ar.tree = NULL;
	}
	*out = r;
	r = NULL;
cleanup:
	free(stopped);
	free(open);
	for (size_t i = 0; i < c.ncache; i++) {
		free(c.cache[i].key);
		free(c.cache[i].note);
		file_result_free(c.cache[i].fr);
	}
	free(c.cache);
	for (size_t i = 0; i < c.ntouched; i++)
		free(c.touched[i]);
	free(c.touched);
	engine_free(c.e);
	apply_tree_free(base);
	review_free(r);
	apply_repo_free(c.repo); /* after the trees that live in its object store */
	return rc;
}

static void release_findings(struct review_finding *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		finding_release(&a[i].f);
	free(a);
}

void review_free(struct review *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->npatches; i++) {
		struct review_patch *p = &r->patches[i];
		free(p->error);
		free(p->failed_file);
		free(p->failed_hunk);
		apply_result_release(&p->ar);
		release_findings(p->introduced, p->nintroduced);
		release_findings(p->fixed, p->nfixed);
		for (size_t k = 0; k < p->nnotes; k++)
			free(p->notes[k]);
		free(p->notes);
		free(p->partial);
	}
	free(r->patches);
	free(r->base_note);
	free(r->root);
	slowpath_model_free(r->model);
	mail_series_release(&r->series);
	free(r);
}

void review_counts(const struct review *r, size_t *open, size_t *transient, size_t *fixed)
{
	*open = *transient = *fixed = 0;
	for (size_t i = 0; i < r->npatches; i++) {
		for (size_t k = 0; k < r->patches[i].nintroduced; k++)
			r->patches[i].introduced[k].fixed_by ? (*transient)++ : (*open)++;
		*fixed += r->patches[i].nfixed;
	}
}

size_t review_below(const struct review *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->npatches; i++)
		n += r->patches[i].nbelow;
	return n;
}
