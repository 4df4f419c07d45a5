/* Candidate fixes for a file's findings: rank the shapes, build each one,
 * and keep it only when it survives verification.
 *
 * Verification, in order: the shape's edits apply; the diff printed from
 * them applies with libgit2 and gives the same text (so what the user sees
 * is what was checked); re-analysis of the patched text (the caller's
 * callback: fix/ does not call the engine) gives no more parse errors than
 * before; the finding is gone at the
 * patched call; and no (rule, function, api) has more findings than before.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>
#include <git2.h>
#include "gfpaudit/fix.h"
#include "gfpaudit/err.h"
#include "lex.h"

/* Re-analysis results by patched text: two findings at one site often get
 * the same candidate (add-nowarn for two rules), and a parse costs seconds
 * on a real tree. */
struct verify_cache {
	struct {
		char *text;
		struct file_result *r;
	} *v;
	size_t n, alloc;
};

static void cache_release(struct verify_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].text);
		file_result_free(c->v[i].r);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static void say(const struct fix_opts *o, const struct finding *f, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void say(const struct fix_opts *o, const struct finding *f, const char *kind, const char *fmt, ...)
{
	if (!o || o->verbose <= 0)
		return;
	va_list ap;
	fprintf(stderr, "gfpaudit: fix: %s:%d: %s: %s: ", f->site.file ? f->site.file : "?", f->site.line,
		f->rule, kind);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The path the diff names: the reported path, relative (a/ b/ prefixes
 * cannot carry an absolute path).  An absolute path is made relative to
 * the git work tree that holds it, so `git am` applies the mail there, or
 * else to the current directory. */
static char *diff_path(const char *reported)
{
	if (reported[0] != '/') {
		while (reported[0] == '.' && reported[1] == '/')
			reported += 2;
		return xstrdup(reported);
	}
	char real[PATH_MAX], wdreal[PATH_MAX];
	const char *p = realpath(reported, real) ? real : reported;
	char *out = NULL;
	git_repository *repo = NULL;
	git_libgit2_init();
	if (!git_repository_open_ext(&repo, p, 0, NULL) && git_repository_workdir(repo) &&
	    realpath(git_repository_workdir(repo), wdreal)) {
		size_t n = strlen(wdreal);
		if (!strncmp(p, wdreal, n) && p[n] == '/')
			out = xstrdup(p + n + 1);
	}
	git_repository_free(repo);
	git_libgit2_shutdown();
	if (out)
		return out;
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof(cwd))) {
		size_t n = strlen(cwd);
		if (!strncmp(p, cwd, n) && p[n] == '/')
			return xstrdup(p + n + 1);
	}
	while (*p == '/')
		p++;
	return xstrdup(p);
}

static size_t count_key(const struct file_result *r, const char *rule, const char *fn, const char *api)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct finding *g = &r->findings[i];
		if (!strcmp(g->rule, rule) && !strcmp(g->site.function ? g->site.function : "", fn ? fn : "") &&
		    !strcmp(g->site.api ? g->site.api : "", api ? api : ""))
			n++;
	}
	return n;
}

/* 0 kept; 1 dropped (why in *why); < 0 re-analysis failure. */
static int reanalyze(const struct strbuf *patched, const char *text, const struct file_result *r,
		     const struct finding *f, const struct fix_edits *edits, const struct fix_opts *o,
		     struct verify_cache *cache, struct strbuf *why)
{
	struct file_result *nr = NULL;
	for (size_t i = 0; i < cache->n && !nr; i++)
		if (!strcmp(cache->v[i].text, patched->buf))
			nr = cache->v[i].r;
	if (!nr) {
		int rc = o->reanalyze(o->reanalyze_data, patched->buf, patched->len, &nr);
		if (rc)
			return rc;
		ALLOC_GROW(cache->v, cache->n + 1, cache->alloc);
		cache->v[cache->n].text = xstrdup(patched->buf);
		cache->v[cache->n].r = nr;
		cache->n++;
	}
	if (nr->status != FILE_ANALYZED) {
		strbuf_addf(why, "the patched file was not analyzed (%s)", nr->reason ? nr->reason : "?");
		return 1;
	}
	if (nr->parse_errors > r->parse_errors) {
		strbuf_addf(why, "the patched file has %d parse error%s, the original %d", nr->parse_errors,
			    nr->parse_errors == 1 ? "" : "s", r->parse_errors);
		return 1;
	}
	const struct site *s = &f->site;
	size_t newpos = fix_edits_map(edits, s->call_begin);
	int line = s->line + (line_of(patched->buf, newpos) - line_of(text, s->call_begin));
	for (size_t i = 0; i < nr->nfindings; i++) {
		const struct finding *g = &nr->findings[i];
		if (!strcmp(g->rule, f->rule) && g->site.line == line &&
		    !strcmp(g->site.function ? g->site.function : "", s->function ? s->function : "")) {
			strbuf_addf(why, "re-analysis still reports it at line %d: %s", line, g->message);
			return 1;
		}
	}
	if (count_key(nr, f->rule, s->function, s->api) >= count_key(r, f->rule, s->function, s->api)) {
		strbuf_addf(why, "re-analysis still reports '%s' in '%s' as often as before", f->rule,
			    s->function ? s->function : "?");
		return 1;
	}
	for (size_t i = 0; i < nr->nfindings; i++) {
		const struct finding *g = &nr->findings[i];
		if (count_key(nr, g->rule, g->site.function, g->site.api) >
		    count_key(r, g->rule, g->site.function, g->site.api)) {
			strbuf_addf(why, "it brings a new finding at line %d: %s [%s]", g->site.line, g->message, g->rule);
			return 1;
		}
	}
	return 0;
}

static int candidates(const char *path, const char *text, size_t len,
		      const struct file_result *r, struct finding *f, const struct fix_opts *o,
		      struct verify_cache *cache)
{
	struct fix_ctx c = { text, len, &f->site,
			     o && o->costly_order > 0 ? o->costly_order : PAGE_ALLOC_COSTLY_ORDER_DEFAULT, 0,
			     o ? o->facts : NULL };
	struct fix_plan plans[8];
	size_t np = fix_rank(f->rule, &c, plans, 8);
	char *dpath = diff_path(r->file ? r->file : path);
	struct strbuf note = STRBUF_INIT, patched = STRBUF_INIT, diff = STRBUF_INIT, check = STRBUF_INIT,
		      why = STRBUF_INIT;
	int rc = 0;
	size_t kept = 0;
	struct strbuf declined = STRBUF_INIT; /* why each shape was not kept */
	for (size_t i = 0; i < np; i++) {
		const char *kind = fix_kind_name(plans[i].kind);
		struct fix_edits edits;
		fix_edits_init(&edits);
		strbuf_reset(&note);
		strbuf_reset(&diff);
		strbuf_reset(&why);
		c.cap = plans[i].cap;
		int src = fix_shape(plans[i].kind, &c, &edits, &note);
		if (src) {
			say(o, f, kind, "not offered: %s", note.buf);
			strbuf_addf(&declined, "%s%s: %s", declined.len ? "; " : "", kind, note.buf);
			goto next;
		}
		if (fix_edits_apply(&edits, text, len, &patched)) {
			say(o, f, kind, "dropped: the edits do not apply: %s", err_last());
			goto next;
		}
		fix_diff(dpath, text, len, patched.buf, patched.len, &diff);
		if (!diff.len) {
			say(o, f, kind, "dropped: the edits change nothing");
			goto next;
		}
		bool dup = false;
		for (size_t k = 0; k < f->nfixes; k++)
			dup = dup || !strcmp(f->fixes[k].diff, diff.buf);
		if (dup) {
			say(o, f, kind, "dropped: same diff as an earlier candidate");
			goto next;
		}
		if (fix_patch_apply(diff.buf, diff.len, dpath, text, len, &check)) {
			say(o, f, kind, "dropped: the diff does not apply: %s", err_last());
			goto next;
		}
		if (check.len != patched.len || memcmp(check.buf, patched.buf, patched.len)) {
			say(o, f, kind, "dropped: the diff does not give the edited text");
			goto next;
		}
		if (o && o->reanalyze) {
			int vr = reanalyze(&patched, text, r, f, &edits, o, cache, &why);
			if (vr < 0) {
				rc = vr;
				fix_edits_release(&edits);
				break;
			}
			if (vr) {
				say(o, f, kind, "dropped: %s", why.buf);
				strbuf_addf(&declined, "%s%s: verification failed: %s", declined.len ? "; " : "", kind,
					    why.buf);
				goto next;
			}
		}
		char *reason = xasprintf("%s; %s", plans[i].reason, note.buf);
		finding_add_fix(f, kind, reason, diff.buf);
		say(o, f, kind, "verified: %s", reason);
		free(reason);
		kept++;
next:
		fix_edits_release(&edits);
		if (o && o->max_per_finding && kept >= o->max_per_finding)
			break;
	}
	if (!f->nfixes && !rc) {
		free(f->fix_declined);
		f->fix_declined = !np ? xasprintf("no fix shape for '%s'", f->rule)
			: declined.len ? strbuf_detach(&declined)
				       : xstrdup("every candidate was dropped before verification");
	}
	strbuf_release(&declined);
	strbuf_release(&note);
	strbuf_release(&patched);
	strbuf_release(&diff);
	strbuf_release(&check);
	strbuf_release(&why);
	free(dpath);
	return rc;
}

int fix_candidates(const char *path, const char *text, size_t len, const struct file_result *r,
		   struct finding *f, const struct fix_opts *o)
{
	struct verify_cache cache = { 0 };
	int rc = candidates(path, text, len, r, f, o, &cache);
	cache_release(&cache);
	return rc;
}

int fix_file(const char *path, const char *text, size_t len, struct file_result *r,
	     const struct fix_opts *o)
{
	struct verify_cache cache = { 0 };
	int rc = 0;
	/* findings are compared against r as it was: candidates only add
	 * fixes, they never add or remove findings */
	for (size_t i = 0; i < r->nfindings && !rc; i++)
		rc = candidates(path, text, len, r, &r->findings[i], o, &cache);
	cache_release(&cache);
	return rc;
}
