/* One `git format-patch` style mail per candidate fix.
 *
 * The mail is meant to be read by a kernel developer and fed to `git am`:
 * subject in the subsystem's style ("mm/filemap: ..."), a body that says
 * what the analyzer proved about the site (order range, flags, fallback)
 * and why the shape helps, a Fixes: tag only when the tree is a git
 * repository and blame names the commit that last touched the call, then
 * "---", a diffstat and the verified diff.  No Signed-off-by: a tool cannot
 * certify the DCO for the person who sends it.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <git2.h>
#include "gfpaudit/fix.h"
#include "gfpaudit/err.h"
#include "gfpaudit/fs.h"
#include "gfpaudit/check.h"
#include "gfpaudit/version.h"


static const char *skip_dot(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return p;
}

static char *base_noext(const char *p, size_t n)
{
	const char *dot = NULL;
	for (size_t i = 0; i < n; i++)
		if (p[i] == '.')
			dot = p + i;
	return xstrndup(p, dot ? (size_t)(dot - p) : n);
}

char *fix_subject_prefix(const char *path)
{
	const char *p = skip_dot(path);
	/* components */
	const char *comp[16];
	size_t len[16], n = 0;
	for (const char *s = p; *s && n < 16;) {
		const char *e = strchr(s, '/');
		comp[n] = s;
		len[n] = e ? (size_t)(e - s) : strlen(s);
		n++;
		if (!e)
			break;
		s = e + 1;
	}
#define IS(i, str) ((i) < n && len[i] == strlen(str) && !strncmp(comp[i], str, len[i]))
	if (n == 0)
		return xstrdup("gfpaudit");
	if (IS(0, "mm")) {
		if (n == 2) {
			char *b = base_noext(comp[1], len[1]);
			char *r = xasprintf("mm/%s", b);
			free(b);
			return r;
		}
		return n > 2 ? xasprintf("mm/%.*s", (int)len[1], comp[1]) : xstrdup("mm");
	}
	if (IS(0, "net")) {
		if (IS(1, "core") || n == 2)
			return xstrdup("net");
		if (IS(1, "sunrpc") && IS(2, "xprtrdma") && n == 4)
			return xstrdup(!strncmp(comp[3], "svc_rdma", 8) ? "svcrdma" : "xprtrdma");
		if (IS(1, "sunrpc"))
			return xstrdup("SUNRPC");
		if (IS(1, "ipv4") && n == 3 && !strncmp(comp[2], "tcp", 3))
			return xstrdup("tcp");
		return xstrndup(comp[1], len[1]);
	}
	if (IS(0, "fs"))
		return n > 2 ? xstrndup(comp[1], len[1]) : xstrdup("fs");
	if (IS(0, "kernel") || IS(0, "lib")) {
		if (n == 2) {
			char *b = base_noext(comp[1], len[1]);
			char *r = IS(0, "lib") ? xasprintf("lib/%s", b) : xasprintf("kernel/%s", b);
			free(b);
			return r;
		}
		return xstrndup(comp[1], len[1]);
	}
	if (IS(0, "block") || IS(0, "crypto") || IS(0, "security") || IS(0, "io_uring"))
		return xstrndup(comp[0], len[0]);
	if (n == 1)
		return base_noext(comp[0], len[0]);
	/* drivers/.../<dir>/file.c: the driver's directory; "core" and the
	 * like say nothing, take their parent */
	size_t d = n - 2;
	while (d > 0 && (IS(d, "core") || IS(d, "common") || IS(d, "src") || IS(d, "lib") || IS(d, "base")))
		d--;
	return xstrndup(comp[d], len[d]);
#undef IS
}

static const char *kind_subject(const char *kind)
{
	static const char *const s[][2] = {
		{ "strip-direct-reclaim", "avoid direct reclaim for costly allocations in %s()" },
		{ "add-noretry", "don't retry costly opportunistic allocations in %s()" },
		{ "cap-order", "cap the allocation order in %s()" },
		{ "kvmalloc", "use kvmalloc() for the large buffer in %s()" },
		{ "fallback-loop", "fall back to smaller orders in %s()" },
		{ "order-zero", "allocate order-0 pages in %s()" },
		{ "add-nowarn", "don't warn when the NORETRY attempt in %s() fails" },
		{ "drop-nofail", "don't ask for __GFP_NOFAIL above order 1 in %s()" },
		{ NULL, NULL },
	};
	for (size_t i = 0; s[i][0]; i++)
		if (!strcmp(s[i][0], kind))
			return s[i][1];
	return "rework the allocation in %s()";
}

/* The rule's own "why it matters" (check.h), or "". */
static const char *rule_why(const char *rule)
{
	const struct check *c = check_find(rule);
	return c && c->why ? c->why : "";
}

static void describe_facts(struct strbuf *sb, const struct finding *f)
{
	const struct site *s = &f->site;
	strbuf_addf(sb, "%s() calls %s() ", s->function ? s->function : "The function", s->api ? s->api : "?");
	if (!s->order.known)
		strbuf_adds(sb, "with an order the analysis could not bound");
	else if (s->order.lo == s->order.hi)
		strbuf_addf(sb, "at order %d", s->order.lo);
	else
		strbuf_addf(sb, "at orders %d to %d", s->order.lo, s->order.hi);
	if (s->size.known && s->size.lo != s->size.hi)
		strbuf_addf(sb, " (%lld to %lld bytes)", (long long)s->size.lo, (long long)s->size.hi);
	else if (s->size.known)
		strbuf_addf(sb, " (%lld bytes)", (long long)s->size.lo);
	strbuf_adds(sb, ". The mask always has ");
	gfp_flags_text(sb, s->gfp.must, " | ", "no flag");
	if (s->gfp.may == GFP_ALL_BITS)
		strbuf_adds(sb, " and may have any other flag");
	else if (s->gfp.may & ~s->gfp.must) {
		strbuf_adds(sb, " and on some paths ");
		gfp_flags_text(sb, s->gfp.may & ~s->gfp.must, " | ", "no flag");
	}
	strbuf_addf(sb, "; when it fails, %s.", words_fallback(s));
}

/* "2026-04-20 16:14:03 +0000" in RFC 2822 form. */
static void add_date(struct strbuf *sb, long long when)
{
	if (when < 0) {
		const char *sde = getenv("SOURCE_DATE_EPOCH");
		when = sde && *sde ? strtoll(sde, NULL, 10) : (long long)time(NULL);
	}
	time_t t = (time_t)when;
	struct tm tm;
	char buf[64];
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	strbuf_adds(sb, buf);
}

static char *full_path(const struct fix_mail_opts *o, const char *path)
{
	if (path[0] == '/' || !o->tree)
		return xstrdup(path);
	return xasprintf("%s/%s", o->tree, skip_dot(path));
}

/* --from, else the git identity of the tree's repository (or the user's
 * when the tree is not in one); NULL if none.  (fix/ sits below vcs/, so
 * it reads the configuration itself, as fix_blame_line reads blame.) */
static char *author(const struct fix_mail_opts *o, const char *path)
{
	if (o->from)
		return xstrdup(o->from);
	char *fp = full_path(o, path), *r = NULL;
	git_repository *repo = NULL;
	git_config *cfg = NULL;
	git_buf name = { 0 }, mail = { 0 };
	git_libgit2_init();
	int e = !git_repository_open_ext(&repo, fp, 0, NULL) ? git_repository_config_snapshot(&cfg, repo)
							     : git_config_open_default(&cfg);
	if (!e && !git_config_get_string_buf(&name, cfg, "user.name") &&
	    !git_config_get_string_buf(&mail, cfg, "user.email"))
		r = xasprintf("%s <%s>", name.ptr, mail.ptr);
	git_buf_dispose(&name);
	git_buf_dispose(&mail);
	git_config_free(cfg);
	git_repository_free(repo);
	git_libgit2_shutdown();
	free(fp);
	return r;
}

int fix_blame_line(const struct fix_mail_opts *o, const char *path, int line, struct strbuf *out)
{
	char *fp = full_path(o, path);
	char real[PATH_MAX];
	git_repository *repo = NULL;
	git_blame *blame = NULL, *bb = NULL;
	git_commit *commit = NULL;
	struct strbuf content = STRBUF_INIT;
	int rc = GA_ENOTFOUND;
	git_libgit2_init();
	if (!realpath(fp, real))
		goto cleanup;
	if (git_repository_open_ext(&repo, real, 0, NULL) || git_repository_is_bare(repo))
		goto cleanup;
	const char *wd = git_repository_workdir(repo);
	char wdreal[PATH_MAX];
	if (!wd || !realpath(wd, wdreal))
		goto cleanup;
	size_t wl = strlen(wdreal);
	if (strncmp(real, wdreal, wl) || real[wl] != '/')
		goto cleanup;
	const char *rel = real + wl + 1;
	git_blame_options bo;
	git_blame_options_init(&bo, GIT_BLAME_OPTIONS_VERSION);
	if (git_blame_file(&blame, repo, rel, &bo))
		goto cleanup;
	/* blame HEAD, then map onto the file as it is now: lines the working
	 * tree changed belong to no commit */
	if (!strbuf_read_file(&content, real, 64 << 20) &&
	    !git_blame_buffer(&bb, blame, content.buf, content.len)) {
		git_blame_free(blame);
		blame = bb;
	}
	const git_blame_hunk *h = git_blame_get_hunk_byline(blame, (size_t)line);
	if (!h || git_oid_is_zero(&h->final_commit_id))
		goto cleanup;
	if (git_commit_lookup(&commit, repo, &h->final_commit_id))
		goto cleanup;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid_tostr(hex, sizeof(hex), &h->final_commit_id);
	const char *summary = git_commit_summary(commit);
	strbuf_addf(out, "%.12s (\"%s\")", hex, summary ? summary : "");
	rc = 0;
cleanup:
	strbuf_release(&content);
	git_commit_free(commit);
	git_blame_free(blame);
	git_repository_free(repo);
	git_libgit2_shutdown();
	free(fp);
	return rc;
}

static void add_diffstat(struct strbuf *sb, const char *path, const char *diff)
{
	int add, del;
	fix_diff_counts(diff, &add, &del);
	int total = add + del, width = 50;
	int pa = add, pd = del;
	if (total > width) {
		pa = add * width / total;
		pd = del * width / total;
		if (add && !pa)
			pa = 1;
		if (del && !pd)
			pd = 1;
	}
	strbuf_addf(sb, " %s | %d ", path, total);
	for (int i = 0; i < pa; i++)
		strbuf_addc(sb, '+');
	for (int i = 0; i < pd; i++)
		strbuf_addc(sb, '-');
	strbuf_adds(sb, "\n 1 file changed");
	if (add || !del)
		strbuf_addf(sb, ", %d insertion%s(+)", add, add == 1 ? "" : "s");
	if (del || !add)
		strbuf_addf(sb, ", %d deletion%s(-)", del, del == 1 ? "" : "s");
	strbuf_adds(sb, "\n");
}

/* The path the diff names ("diff --git a/P b/P"). */
static char *diff_path_of(const char *diff)
{
	if (strncmp(diff, "diff --git a/", 13))
		return xstrdup("?");
	const char *p = diff + 13, *e = strstr(p, " b/");
	return e ? xstrndup(p, (size_t)(e - p)) : xstrdup("?");
}

static char *subject_of(const struct finding *f, const struct fix *x)
{
	/* the diff's path is relative to the tree even when the report's is not */
	char *dp = diff_path_of(x->diff);
	char *prefix = fix_subject_prefix(strcmp(dp, "?") ? dp : f->site.file ? f->site.file : "");
	free(dp);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s: ", prefix);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	strbuf_addf(&sb, kind_subject(x->kind), f->site.function ? f->site.function : "the caller");
#pragma GCC diagnostic pop
	free(prefix);
	return strbuf_detach(&sb);
}

int fix_mail_format(const struct fix_mail_opts *o, const struct finding *f, const struct fix *x,
		    struct strbuf *out)
{
	const struct site *s = &f->site;
	char *subject = subject_of(f, x);
	char *from = author(o, s->file ? s->file : "");
	if (!from) {
		free(subject);
		return err_set(GA_EINVAL, "no sender for the fix mails: pass --from or set git's user.name and user.email");
	}
	char *dpath = diff_path_of(x->diff);
	struct strbuf para = STRBUF_INIT, fixes = STRBUF_INIT;

	strbuf_adds(out, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n");
	strbuf_addf(out, "From: %s\nDate: ", from);
	add_date(out, o->date);
	strbuf_addf(out, "\nSubject: [PATCH] %s\n\n", subject);

	describe_facts(&para, f);
	strbuf_add_wrapped(out, para.buf, 72);
	strbuf_addc(out, '\n');
	if (*rule_why(f->rule)) {
		strbuf_add_wrapped(out, rule_why(f->rule), 72);
		strbuf_addc(out, '\n');
	}
	strbuf_reset(&para);
	strbuf_addf(&para, "This change (%s): %s.", x->kind, x->reason ? x->reason : "");
	strbuf_add_wrapped(out, para.buf, 72);
	if (!o->no_blame && s->file && s->line > 0 && !fix_blame_line(o, s->file, s->line, &fixes))
		strbuf_addf(out, "\nFixes: %s\n", fixes.buf);
	/* below "---": what the sender reads, git am drops */
	strbuf_adds(out, "---\n");
	strbuf_reset(&para);
	strbuf_addf(&para, "Notes: found by gfpaudit (rule %s); the patched file was analyzed again and the "
		    "finding is gone with no new one. Review and test it before sending; add your "
		    "Signed-off-by.", f->rule);
	strbuf_add_wrapped(out, para.buf, 72);
	if (s->nev) {
		strbuf_adds(out, "Evidence:\n");
		for (size_t i = 0; i < s->nev && i < 6; i++) {
			strbuf_reset(&para);
			strbuf_addf(&para, "%s:%d: %s", s->ev[i].file ? s->ev[i].file : "?", s->ev[i].line,
				    s->ev[i].note ? s->ev[i].note : "");
			strbuf_add_wrapped_indent(out, para.buf, 72, "  ", "      ");
		}
	}
	strbuf_addc(out, '\n');
	add_diffstat(out, dpath, x->diff);
	strbuf_addc(out, '\n');
	strbuf_adds(out, x->diff);
	strbuf_addf(out, "-- \n%s\n\n", gfpaudit_name_version);

	strbuf_release(&para);
	strbuf_release(&fixes);
	free(dpath);
	free(from);
	free(subject);
	return 0;
}

/* git format-patch's file name: subject characters other than [A-Za-z0-9._]
 * become "-", runs collapse, at most 52 of them. */
static char *slug(const char *subject)
{
	struct strbuf sb = STRBUF_INIT;
	bool dash = false;
	for (const char *p = subject; *p && sb.len < 52; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  c == '.' || c == '_';
		if (!ok) {
			dash = sb.len > 0;
			continue;
		}
		if (dash)
			strbuf_addc(&sb, '-');
		dash = false;
		strbuf_addc(&sb, c);
	}
	while (sb.len && (sb.buf[sb.len - 1] == '.' || sb.buf[sb.len - 1] == '-'))
		sb.buf[--sb.len] = '\0';
	return strbuf_detach(&sb);
}

int fix_mail_write_dir(const char *dir, const struct fix_mail_opts *o,
		       struct file_result *const *results, size_t n, size_t *count)
{
	int rc = fs_mkdir_p(dir, 0777);
	*count = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		const struct file_result *r = results[i];
		for (size_t k = 0; k < r->nfindings && !rc; k++) {
			const struct finding *f = &r->findings[k];
			for (size_t j = 0; j < f->nfixes && !rc; j++) {
				struct strbuf mail = STRBUF_INIT;
				if ((rc = fix_mail_format(o, f, &f->fixes[j], &mail))) {
					strbuf_release(&mail);
					break;
				}
				char *subject = subject_of(f, &f->fixes[j]);
				char *sl = slug(subject);
				char *name = xasprintf("%s/%04zu-%s.patch", dir, *count + 1, sl);
				FILE *fp = fopen(name, "w");
				if (!fp || fwrite(mail.buf, 1, mail.len, fp) != mail.len) {
					rc = err_set(GA_EIO, "cannot write '%s': %s", name, strerror(errno));
				} else {
					(*count)++;
				}
				if (fp && fclose(fp) && !rc)
					rc = err_set(GA_EIO, "cannot write '%s': %s", name, strerror(errno));
				free(name);
				free(sl);
				free(subject);
				strbuf_release(&mail);
			}
		}
	}
	return rc;
}
