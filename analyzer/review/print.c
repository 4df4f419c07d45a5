/* Review printers: JSON, reply mails in kernel review style, b4 check JSON. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "gfpaudit/review.h"
#include "gfpaudit/check.h"
#include "gfpaudit/slowpath.h"
#include "gfpaudit/result.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/version.h"

/* ---- JSON ---- */

static json_t *findings_json(const struct review_finding *a, size_t n)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *o = finding_to_json(&a[i].f);
		if (a[i].fixed_by)
			json_object_set_new(o, "fixed_by", json_integer(a[i].fixed_by));
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

int review_print_json(const struct review *r, FILE *out)
{
	json_t *root = json_object(), *pa = json_array();
	json_object_set_new(root, "tool", json_string("gfpaudit"));
	json_object_set_new(root, "version", json_string(gfpaudit_version));
	json_object_set_new(root, "base", json_string(r->base));
	json_object_set_new(root, "base_source", json_string(review_base_source_name(r->base_source)));
	json_object_set_new(root, "context", json_string(r->kbuild ? "kbuild" : "kmodel"));
	for (size_t i = 0; i < r->npatches; i++) {
		const struct review_patch *p = &r->patches[i];
		json_t *o = json_object();
		json_object_set_new(o, "index", json_integer(p->index));
		json_object_set_new(o, "subject", json_string(p->msg->subject));
		json_object_set_new(o, "message_id", json_string(p->msg->message_id));
		json_object_set_new(o, "applied", json_boolean(p->applied));
		if (p->ar.moved)
			json_object_set_new(o, "hunks_moved", json_integer(p->ar.moved));
		if (p->error) {
			json_object_set_new(o, "error", json_string(p->error));
			json_object_set_new(o, "failed_file", str_or_null(p->failed_file));
			json_object_set_new(o, "failed_hunk", str_or_null(p->failed_hunk));
		}
		json_object_set_new(o, "introduced", findings_json(p->introduced, p->nintroduced));
		json_object_set_new(o, "fixed", findings_json(p->fixed, p->nfixed));
		json_object_set_new(o, "below_severity", json_integer((json_int_t)p->nbelow));
		json_t *notes = json_array();
		for (size_t k = 0; k < p->nnotes; k++)
			json_array_append_new(notes, json_string(p->notes[k]));
		json_object_set_new(o, "not_analyzed", notes);
		json_array_append_new(pa, o);
	}
	json_object_set_new(root, "patches", pa);
	json_t *sk = json_array();
	for (size_t i = 0; i < r->series.nskipped; i++)
		json_array_append_new(sk, json_pack("{s:o,s:s}", "subject", str_or_null(r->series.skipped[i].subject),
						    "reason", r->series.skipped[i].reason));
	json_object_set_new(root, "skipped_messages", sk);
	json_t *w = json_array();
	for (size_t i = 0; i < r->series.nwarnings; i++)
		json_array_append_new(w, json_string(r->series.warnings[i]));
	json_object_set_new(root, "warnings", w);
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return rc ? err_set(GA_EIO, "cannot write JSON") : 0;
}

/* ---- review prose ---- */

/* Paragraphs filled to 72 columns, the width of kernel mail. */
static void wrap(struct strbuf *sb, const char *text)
{
	strbuf_add_wrapped(sb, text, 72);
}

/* A paragraph after an empty line. */
static void wrap_para(struct strbuf *sb, const char *text)
{
	strbuf_addc(sb, '\n');
	wrap(sb, text);
}

/* One finding, one statement: what the rule says about it (its mail hook),
 * why it matters on this tree (the allocator model's steps with file:line),
 * what to change (the verified candidate fix, else the rule's advice). */
static void finding_prose(struct strbuf *sb, const struct review *r, const struct review_finding *rf)
{
	const struct finding *f = &rf->f;
	const struct check *c = check_find(f->rule);
	struct check_mail cm = { f, r->model };
	struct strbuf t = STRBUF_INIT;

	check_mail_statement(&cm, &t);
	wrap(sb, t.buf);
	strbuf_reset(&t);
	check_mail_slowpath(&cm, &t);
	if (t.len)
		wrap_para(sb, t.buf);
	strbuf_reset(&t);
	if (f->nfixes && f->fixes[0].diff) {
		wrap_para(sb, "Something like this would avoid it (gfpaudit analyzed the result again;"
			  " it is not build-tested):");
		strbuf_addf(sb, "\n%s", f->fixes[0].diff);
		if (sb->len && sb->buf[sb->len - 1] != '\n')
			strbuf_addc(sb, '\n');
		if (f->fixes[0].reason) {
			strbuf_addf(&t, "(%s: %s.)", f->fixes[0].kind, f->fixes[0].reason);
			wrap_para(sb, t.buf);
		}
	} else if (c && c->advice) {
		wrap_para(sb, c->advice);
	}
	strbuf_reset(&t);
	if (rf->fixed_by) {
		strbuf_addf(&t, "Patch %d/%d of this series takes it out again; folding that fix into this"
			    " patch would keep every commit of the series free of it (and bisectable).",
			    rf->fixed_by, r->series.total);
		wrap_para(sb, t.buf);
	}
	strbuf_release(&t);
}

/* Where a finding sits in the patch: file, hunk and line indexes. */
struct spot {
	long file, hunk, line;
};

static struct spot locate(const struct review_patch *p, const char *file, int line)
{
	struct spot s = { -1, -1, -1 };
	for (size_t k = 0; k < p->ar.nfiles && file; k++) {
		if (!p->ar.files[k].new_path || strcmp(p->ar.files[k].new_path, file))
			continue;
		for (size_t h = 0; h < p->ar.hunks[k].nhunks; h++) {
			const struct apply_hunk *ah = &p->ar.hunks[k].hunks[h];
			for (size_t i = 0; i < ah->nlines; i++)
				if (ah->lines[i].origin != '-' && ah->lines[i].new_line == line)
					return (struct spot){ (long)k, (long)h, (long)i };
		}
	}
	return s;
}

static struct spot finding_spot(const struct review_patch *p, const struct finding *f)
{
	struct spot s = locate(p, f->site.file, f->site.line);
	/* not on a changed hunk: perhaps the line that set its order or mask is */
	for (size_t i = 0; s.file < 0 && i < f->site.nev; i++)
		s = locate(p, f->site.ev[i].file, f->site.ev[i].line);
	return s;
}

/* Quote the hunk lines leading to the finding, as a reviewer would. */
static void quote(struct strbuf *sb, const struct review_patch *p, struct spot at, struct spot *last)
{
	const struct apply_file *af = &p->ar.files[at.file];
	const struct apply_hunk *ah = &p->ar.hunks[at.file].hunks[at.hunk];
	if (last->file != at.file)
		strbuf_addf(sb, "> diff --git a/%s b/%s\n", af->old_path ? af->old_path : af->new_path, af->new_path);
	bool same_hunk = last->file == at.file && last->hunk == at.hunk;
	if (!same_hunk)
		strbuf_addf(sb, "> %s\n", ah->header);
	long from = at.line - 3 < 0 ? 0 : at.line - 3;
	if (same_hunk && from <= last->line)
		from = last->line + 1;
	if ((same_hunk && from > last->line + 1) || (!same_hunk && from > 0))
		strbuf_adds(sb, "[...]\n");
	for (long i = from; i <= at.line; i++)
		strbuf_addf(sb, "> %c%s\n", ah->lines[i].origin, ah->lines[i].text);
	*last = at;
}

struct ordered {
	const struct review_finding *rf;
	struct spot at;
};

static int cmp_ordered(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;
	if (x->at.file != y->at.file)
		return x->at.file < 0 ? 1 : y->at.file < 0 ? -1 : (x->at.file > y->at.file) - (x->at.file < y->at.file);
	if (x->at.hunk != y->at.hunk)
		return (x->at.hunk > y->at.hunk) - (x->at.hunk < y->at.hunk);
	if (x->at.line != y->at.line)
		return (x->at.line > y->at.line) - (x->at.line < y->at.line);
	return x->rf->f.site.line - y->rf->f.site.line;
}

static void signature(struct strbuf *sb, const struct review *r)
{
	(void)r;
	strbuf_addf(sb, "\n-- \n%s\n", gfpaudit_name_version);
}

static bool has_id(const struct mail_message *m)
{
	return m && m->message_id && *m->message_id;
}

static const char *first_name(const char *from, struct strbuf *tmp)
{
	/* "Ann Author <ann@example.org>" -> "Ann"; "\"Doe, J\" <...>" and bare
	 * addresses get no name */
	const char *p = from;
	while (*p == ' ')
		p++;
	size_t n = strcspn(p, " <\",@");
	if (!n || p[n] != ' ')
		return NULL;
	strbuf_add(tmp, p, n);
	return tmp->buf;
}

/* base, configuration, allocator model and how to run it again, as the
 * kernel test robot heads its reports. */
static void report_header(struct strbuf *sb, const struct review *r, const struct review_patch *p)
{
	struct strbuf t = STRBUF_INIT;
	const char *name = first_name(p->msg->from ? p->msg->from : "", &t);
	strbuf_addf(sb, "Hi%s%s,\n\n", name ? " " : "", name ? name : "");
	strbuf_reset(&t);
	strbuf_addf(&t, "gfpaudit, a checker for costly page allocations, reviewed this patch%s.",
		    p->index > 1 ? " on top of the patches before it" : "");
	wrap(sb, t.buf);
	strbuf_addf(sb, "\nbase:      %.12s (%s)\n", r->base,
		    r->base_source == BASE_TRAILER ? "the series' base-commit" :
		    r->base_source == BASE_OPTION ? "given with --base" : "HEAD: the series names no base-commit");
	strbuf_addf(sb, "config:    %s\n", r->kbuild ? "the tree's .config and kbuild flags" :
		    "kernel-model headers (no prepared tree)");
	if (r->model) {
		if (!strcmp(r->model->name, "tree"))
			strbuf_addf(sb, "allocator: mm/page_alloc.c%s%s%s\n", r->model->version ? " of Linux " : "",
				    r->model->version ? r->model->version : "", "");
		else
			strbuf_addf(sb, "allocator: gfpaudit's built-in %s model\n", r->model->name);
	}
	strbuf_adds(sb, "reproduce:\n");
	strbuf_addf(sb, "        git checkout %.12s\n", r->base);
	const struct mail_message *first = mail_series_cover(&r->series);
	if (!has_id(first))
		first = p->msg;
	if (has_id(first))
		strbuf_addf(sb, "        b4 am -o - '%s' >series.mbox\n", first->message_id);
	strbuf_adds(sb, "        gfpaudit review series.mbox\n");
	strbuf_release(&t);
}

/* Tags for a fix in a separate commit, ready to paste. */
static void report_tags(struct strbuf *sb, const struct review_print_opts *o)
{
	if (!o || !o->from)
		return;
	strbuf_adds(sb, "\nIf you fix this in a separate patch, please add these tags:\n");
	strbuf_addf(sb, "Reported-by: %s\n", o->from);
	if (o->self_id)
		strbuf_addf(sb, "Closes: https://lore.kernel.org/r/%s/\n", o->self_id);
}

static char *patch_text(const struct review *r, const struct review_patch *p, const struct review_print_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	const struct mail_message *m = p->msg;
	report_header(&sb, r, p);
	if (!has_id(m))
		wrap_para(&sb, "The patch mail has no Message-Id, so this reply cannot be threaded to it.");
	strbuf_addc(&sb, '\n');
	bool quoting = p->nintroduced || !p->applied;
	if (quoting && m->date && *m->from)
		strbuf_addf(&sb, "On %s, %s wrote:\n", m->date, m->from);
	else if (quoting && *m->from)
		strbuf_addf(&sb, "%s wrote:\n", m->from);
	if (!p->applied) {
		struct strbuf t = STRBUF_INIT;
		strbuf_addf(&t, "This patch does not apply to %.12s (%s): %s.", r->base,
			    review_base_source_name(r->base_source), p->error);
		if (r->base_source != BASE_TRAILER)
			strbuf_adds(&t, " The series names no base-commit that is in this repository;"
				    " `git format-patch --base=...` records one.");
		strbuf_addc(&sb, '\n');
		wrap(&sb, t.buf);
		strbuf_release(&t);
		signature(&sb, r);
		return strbuf_detach(&sb);
	}
	struct ordered *ord = xcalloc(p->nintroduced ? p->nintroduced : 1, sizeof(*ord));
	for (size_t i = 0; i < p->nintroduced; i++)
		ord[i] = (struct ordered){ &p->introduced[i], finding_spot(p, &p->introduced[i].f) };
	if (p->nintroduced > 1) /* qsort(NULL, 0) is undefined */
		qsort(ord, p->nintroduced, sizeof(*ord), cmp_ordered);
	struct spot last = { -1, -1, -1 };
	for (size_t i = 0; i < p->nintroduced; i++) {
		strbuf_addc(&sb, '\n');
		const struct site *s = &ord[i].rf->f.site;
		if (ord[i].at.file >= 0) {
			quote(&sb, p, ord[i].at, &last);
			strbuf_addc(&sb, '\n');
		} else {
			struct strbuf t = STRBUF_INIT;
			strbuf_addf(&t, "In %s:%d, %s(), which the patch does not change itself:", s->file, s->line,
				    s->function ? s->function : "?");
			wrap(&sb, t.buf);
			strbuf_release(&t);
			strbuf_addc(&sb, '\n');
		}
		finding_prose(&sb, r, ord[i].rf);
		strbuf_addf(&sb, "\n(gfpaudit %s at %s:%d)\n", ord[i].rf->f.rule, s->file, s->line);
	}
	free(ord);
	if (p->nfixed) {
		struct strbuf t = STRBUF_INIT;
		strbuf_addf(&t, "%s this patch removes %zu finding%s that %s there before:",
			    p->nintroduced ? "On the good side," : "Good:", p->nfixed, p->nfixed == 1 ? "" : "s",
			    p->nfixed == 1 ? "was" : "were");
		if (p->nintroduced)
			strbuf_addc(&sb, '\n');
		wrap(&sb, t.buf);
		for (size_t i = 0; i < p->nfixed; i++) {
			const struct finding *f = &p->fixed[i].f;
			const struct check *c = check_find(f->rule);
			strbuf_reset(&t);
			strbuf_addf(&t, "%s:%d, %s(): %s (%s)", f->site.file, f->site.line,
				    f->site.function ? f->site.function : "?", c ? c->summary : "", f->rule);
			strbuf_add_wrapped_indent(&sb, t.buf, 72, "  - ", "    ");
		}
		/* a reply that is only good news: what the first of them cost on
		 * this tree, from the model */
		struct check_mail cm = { &p->fixed[0].f, r->model };
		strbuf_reset(&t);
		if (!p->nintroduced)
			check_mail_slowpath(&cm, &t);
		if (t.len) {
			t.buf[0] = (char)tolower((unsigned char)t.buf[0]);
			struct strbuf w = STRBUF_INIT;
			strbuf_addf(&w, "Before the patch, %s", t.buf);
			wrap_para(&sb, w.buf);
			strbuf_release(&w);
		}
		strbuf_release(&t);
	}
	if (p->nnotes) {
		strbuf_adds(&sb, "\nNot analyzed:\n");
		for (size_t i = 0; i < p->nnotes; i++)
			strbuf_add_wrapped_indent(&sb, p->notes[i], 72, "  - ", "    ");
	}
	if (p->nintroduced)
		report_tags(&sb, o);
	signature(&sb, r);
	return strbuf_detach(&sb);
}

char *review_patch_text(const struct review *r, const struct review_patch *p)
{
	return patch_text(r, p, NULL);
}

static char *cover_line(const struct review *r)
{
	struct strbuf sb = STRBUF_INIT;
	size_t open, transient, fixed, applied = 0;
	review_counts(r, &open, &transient, &fixed);
	for (size_t i = 0; i < r->npatches; i++)
		applied += r->patches[i].applied;
	size_t n = open + transient;
	if (!n) {
		strbuf_adds(&sb, "gfpaudit: no new allocation findings");
	} else {
		strbuf_addf(&sb, "gfpaudit: %zu new allocation finding%s (", n, n == 1 ? "" : "s");
		/* each patch once ("9/12 (2)"), a finding a later patch
		 * takes out again on its own ("1/3 fixed by 3/3") */
		bool first = true;
		for (size_t i = 0; i < r->npatches; i++) {
			const struct review_patch *p = &r->patches[i];
			size_t plain = 0;
			for (size_t k = 0; k < p->nintroduced; k++)
				plain += !p->introduced[k].fixed_by;
			if (plain) {
				strbuf_addf(&sb, "%s%d/%d", first ? "" : ", ", p->index, r->series.total);
				if (plain > 1)
					strbuf_addf(&sb, " (%zu)", plain);
				first = false;
			}
			for (size_t k = 0; k < p->nintroduced; k++)
				if (p->introduced[k].fixed_by) {
					strbuf_addf(&sb, "%s%d/%d fixed by %d/%d", first ? "" : ", ", p->index,
						    r->series.total, p->introduced[k].fixed_by, r->series.total);
					first = false;
				}
		}
		strbuf_adds(&sb, ")");
	}
	if (fixed)
		strbuf_addf(&sb, ", %zu old one%s fixed", fixed, fixed == 1 ? "" : "s");
	strbuf_addf(&sb, "; %zu/%zu patches applied to %.12s", applied, r->npatches, r->base);
	for (size_t i = 0; i < r->npatches; i++)
		if (!r->patches[i].applied) {
			strbuf_addf(&sb, " (%d/%d does not apply)", r->patches[i].index, r->series.total);
			break;
		}
	strbuf_adds(&sb, ".");
	struct strbuf out = STRBUF_INIT;
	wrap(&out, sb.buf);
	strbuf_release(&sb);
	if (!out.len || out.buf[out.len - 1] != '\n')
		strbuf_addc(&out, '\n');
	signature(&out, r);
	return strbuf_detach(&out);
}

int review_print_email(const struct review *r, const struct review_print_opts *o, FILE *out)
{
	if (!o || !o->from)
		return err_set(GA_EINVAL, "no sender for the replies: pass --from or set git's user.name and user.email");
	struct mail_out *mo = mail_out_new(out);
	struct mail_reply_opts ro = { .from = o->from, .user_agent = gfpaudit_name_version };
	struct review_print_opts po = *o;
	int rc = 0;
	bool failure_told = false;
	const struct mail_message *cover = mail_series_cover(&r->series);
	if (cover) {
		char *t = cover_line(r);
		rc = mail_out_reply(mo, cover, &ro, t);
		free(t);
	}
	for (size_t i = 0; i < r->npatches && !rc; i++) {
		const struct review_patch *p = &r->patches[i];
		bool say = p->nintroduced || p->nfixed || (!p->applied && !failure_told);
		if (!say)
			continue; /* nothing to say, or not applied because an earlier one was not */
		failure_told |= !p->applied;
		char *id = mail_new_message_id(o->from);
		po.self_id = ro.message_id = id;
		char *t = patch_text(r, p, &po);
		rc = mail_out_reply(mo, p->msg, &ro, t);
		free(t);
		free(id);
	}
	ro.message_id = NULL;
	mail_out_free(mo);
	return rc;
}

/* b4 shows the summary on one line of its results matrix. */
#define B4_SUMMARY_MAX 80

static void b4_summary(struct strbuf *sum, const struct review *r, const struct review_patch *p)
{
	if (!p->applied) {
		strbuf_addf(sum, "does not apply to %.12s", r->base);
	} else if (p->nintroduced) {
		const struct finding *f = &p->introduced[0].f; /* the most severe */
		for (size_t k = 1; k < p->nintroduced; k++)
			if (p->introduced[k].f.severity > f->severity)
				f = &p->introduced[k].f;
		const char *file = f->site.file ? strrchr(f->site.file, '/') : NULL;
		strbuf_addf(sum, "%zu new allocation finding%s: %s:%d %s", p->nintroduced,
			    p->nintroduced == 1 ? "" : "s", file ? file + 1 : f->site.file ? f->site.file : "?",
			    f->site.line, f->rule);
	} else if (p->nnotes && !p->analyzed) {
		strbuf_addf(sum, "not analyzed: %s", p->notes[0]);
	} else if (p->partial) {
		strbuf_addf(sum, "partially analyzed: %s", p->partial);
	} else if (p->nfixed) {
		strbuf_addf(sum, "no new allocation findings; %zu old one%s fixed", p->nfixed, p->nfixed == 1 ? "" : "s");
	} else {
		strbuf_addf(sum, "no new costly allocations (%d file%s analyzed)", p->analyzed, p->analyzed == 1 ? "" : "s");
	}
	if (sum->len > B4_SUMMARY_MAX) {
		sum->len = B4_SUMMARY_MAX - 3;
		strbuf_adds(sum, "...");
	}
}

int review_print_b4(const struct review *r, FILE *out)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < r->npatches; i++) {
		const struct review_patch *p = &r->patches[i];
		const char *status = "pass";
		struct strbuf sum = STRBUF_INIT;
		bool errors = false;
		for (size_t k = 0; k < p->nintroduced; k++)
			errors |= p->introduced[k].f.severity == SEV_ERROR;
		if (p->nintroduced)
			status = errors ? "fail" : "warn";
		else if (!p->applied || (p->nnotes && !p->analyzed) || p->partial)
			status = "warn";
		b4_summary(&sum, r, p);
		char *details = review_patch_text(r, p);
		json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:s}", "tool", "gfpaudit", "status", status,
						     "summary", sum.buf, "details", details));
		free(details);
		strbuf_release(&sum);
	}
	int rc = json_dumpf(arr, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(arr);
	return rc ? err_set(GA_EIO, "cannot write JSON") : 0;
}

/* b4 prep/am/shazam --check: each stdout line is a finding ("ERROR:" in
 * it fails the patch), nothing at all is a pass. */
int review_print_b4_check(const struct review *r, FILE *out)
{
	for (size_t i = 0; i < r->npatches; i++) {
		const struct review_patch *p = &r->patches[i];
		if (!p->applied) {
			char *e = xprintable(p->error);
			fprintf(out, "WARNING: not checked: patch %d/%d does not apply to %.12s: %s\n", p->index,
				r->series.total, r->base, e);
			free(e);
			continue;
		}
		for (size_t k = 0; k < p->nintroduced; k++) {
			const struct finding *f = &p->introduced[k].f;
			const struct check *c = check_find(f->rule);
			fprintf(out, "%s:%d: %s: %s [%s]\n", f->site.file ? f->site.file : "?", f->site.line,
				f->severity == SEV_ERROR ? "ERROR" : f->severity == SEV_WARNING ? "WARNING" : "NOTE",
				c ? c->summary : f->rule, f->rule);
		}
		if (p->nnotes && !p->analyzed)
			for (size_t k = 0; k < p->nnotes; k++) {
				char *n = xprintable(p->notes[k]);
				fprintf(out, "WARNING: not analyzed: %s\n", n);
				free(n);
			}
	}
	return ferror(out) ? err_set(GA_EIO, "cannot write the check lines") : 0;
}

int review_print_b4_error(const char *summary, FILE *out)
{
	json_t *arr = json_array();
	json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:s}", "tool", "gfpaudit", "status", "warn",
					     "summary", summary, "details", summary));
	int rc = json_dumpf(arr, out, JSON_INDENT(2));
	fputc('\n', out);
	json_decref(arr);
	return rc ? err_set(GA_EIO, "cannot write JSON") : 0;
}
