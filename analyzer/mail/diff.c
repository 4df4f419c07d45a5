/* Where the diff is in a patch mail, and which files it names.
 *
 * This does not parse the diff for applying (libgit2 does that, apply.c);
 * it only finds its extent and file headers.  Hunk line counts are followed
 * so that a "-- " signature, a base-commit: trailer or a reply quoted after
 * the patch is not taken for part of it, and so that a hunk line which looks
 * like a header ("--- a/x" as a removed "-- a/x") is not taken for one.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/mail.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct line {
	const char *p;
	size_t len;   /* without the '\n' */
	size_t next;  /* offset of the next line */
};

static bool line_at(const char *body, size_t len, size_t pos, struct line *l)
{
	if (pos >= len)
		return false;
	const char *nl = memchr(body + pos, '\n', len - pos);
	l->p = body + pos;
	l->len = nl ? (size_t)(nl - l->p) : len - pos;
	l->next = nl ? (size_t)(nl - body) + 1 : len;
	return true;
}

static bool starts(const struct line *l, const char *s)
{
	size_t n = strlen(s);
	return l->len >= n && !memcmp(l->p, s, n);
}

/* Parse "@@ -a[,b] +c[,d] @@".  Counts are capped: a hunk cannot be longer
 * than the body anyway, and the cap keeps the arithmetic in range. */
static bool parse_count(const char **p, const char *end, long *v)
{
	if (*p >= end || !isdigit((unsigned char)**p))
		return false;
	long x = 0;
	while (*p < end && isdigit((unsigned char)**p)) {
		x = x * 10 + (**p - '0');
		if (x > 100000000L)
			return false;
		(*p)++;
	}
	*v = x;
	return true;
}

static bool parse_range(const char **p, const char *end, long *count)
{
	long start;
	if (!parse_count(p, end, &start))
		return false;
	*count = 1;
	if (*p < end && **p == ',') {
		(*p)++;
		if (!parse_count(p, end, count))
			return false;
	}
	return true;
}

static bool parse_hunk_header(const struct line *l, long *old_n, long *new_n)
{
	const char *p = l->p + 4, *end = l->p + l->len; /* after "@@ -" */
	if (!parse_range(&p, end, old_n))
		return false;
	if (end - p < 2 || p[0] != ' ' || p[1] != '+')
		return false;
	p += 2;
	if (!parse_range(&p, end, new_n))
		return false;
	return end - p >= 3 && !memcmp(p, " @@", 3);
}

/* Undo git's C-style quoting of a path ("a/foo\tbar").  A NUL written as
 * \000 becomes \001 so the path check rejects it (paths are C strings). */
static char *unquote(const char *s, size_t len, size_t *used)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 1;
	while (i < len && s[i] != '"') {
		char c = s[i++];
		if (c == '\\' && i < len) {
			char e = s[i++];
			switch (e) {
			case 'a': c = '\a'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'v': c = '\v'; break;
			default:
				if (e >= '0' && e <= '3' && i + 1 < len &&
				    s[i] >= '0' && s[i] <= '7' && s[i + 1] >= '0' && s[i + 1] <= '7') {
					c = (char)(((e - '0') << 6) | ((s[i] - '0') << 3) | (s[i + 1] - '0'));
					i += 2;
					if (!c)
						c = '\001';
				} else {
					c = e;
				}
			}
		}
		strbuf_addc(&sb, c);
	}
	if (used)
		*used = i < len ? i + 1 : len;
	return strbuf_detach(&sb);
}

/* The path of a "--- x" / "+++ x" line: quoted or up to a tab (plain diffs
 * put a timestamp there), without trailing blanks.  NULL for /dev/null. */
static char *header_path(const char *s, size_t len)
{
	if (len && s[0] == '"')
		return unquote(s, len, NULL);
	size_t n = 0;
	while (n < len && s[n] != '\t')
		n++;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (n == 9 && !memcmp(s, "/dev/null", 9))
		return NULL;
	return xstrndup(s, n);
}

/* Drop the first path component, as `git apply` and `patch -p1` do. */
static char *strip_one(char *path)
{
	if (!path)
		return NULL;
	char *slash = strchr(path, '/');
	if (!slash || !slash[1])
		return path;
	memmove(path, slash + 1, strlen(slash + 1) + 1);
	return path;
}

static char *plain_value(const struct line *l, size_t skip)
{
	const char *s = l->p + skip;
	size_t n = l->len - skip;
	if (n && s[0] == '"')
		return unquote(s, n, NULL);
	return xstrndup(s, n);
}

/* "diff --git a/X b/Y": only the unambiguous cases (quoted, or both sides
 * the same path); renames are named by their rename/---/+++ lines. */
static void git_header_paths(const struct line *l, struct mail_diff_file *f)
{
	const char *s = l->p + 11;
	size_t n = l->len - 11;
	if (n && s[0] == '"') {
		size_t used;
		char *a = unquote(s, n, &used);
		if (used < n && s[used] == ' ') {
			const char *t = s + used + 1;
			size_t tn = n - used - 1;
			char *b = tn && t[0] == '"' ? unquote(t, tn, NULL) : xstrndup(t, tn);
			f->old_path = strip_one(a);
			f->new_path = strip_one(b);
			return;
		}
		free(a);
		return;
	}
	/* both halves "a/P" and "b/P": total = 2 * len(P) + 5 */
	if (n < 7 || (n - 5) % 2 || s[0] != 'a' || s[1] != '/')
		return;
	size_t pl = (n - 5) / 2;
	const char *b = s + 2 + pl;
	if (b[0] != ' ' || b[1] != 'b' || b[2] != '/' || memcmp(s + 2, b + 3, pl))
		return;
	f->old_path = xstrndup(s + 2, pl);
	f->new_path = xstrndup(s + 2, pl);
}

static struct mail_diff_file *add_file(struct mail_diff_info *d, bool git)
{
	ALLOC_GROW(d->files, d->nfiles + 1, d->files_alloc);
	struct mail_diff_file *f = &d->files[d->nfiles++];
	memset(f, 0, sizeof(*f));
	f->git = git;
	if (!git)
		d->plain = true;
	return f;
}

static void set_path(char **slot, char *v)
{
	free(*slot);
	*slot = v;
}

static const char *const git_extended[] = {
	"index ", "new file mode ", "deleted file mode ", "old mode ", "new mode ",
	"similarity index ", "dissimilarity index ", "Binary files ",
};

static bool is_diff_start(const char *body, size_t len, const struct line *l)
{
	struct line nx;
	if (starts(l, "diff --git "))
		return true;
	return starts(l, "--- ") && line_at(body, len, l->next, &nx) && starts(&nx, "+++ ");
}

int mail_diff_scan(const char *body, size_t len, struct mail_diff_info *d)
{
	memset(d, 0, sizeof(*d));
	struct line l;
	size_t pos = 0;
	bool found = false;
	while (line_at(body, len, pos, &l)) {
		if (is_diff_start(body, len, &l)) {
			found = true;
			break;
		}
		pos = l.next;
	}
	if (!found)
		return GA_ENOTFOUND;
	d->begin = d->end = pos;

	struct mail_diff_file *cur = NULL;
	long old_rem = 0, new_rem = 0;
	bool in_hunk = false, binary = false;
	while (line_at(body, len, pos, &l)) {
		if (in_hunk) {
			char c = l.len ? l.p[0] : ' '; /* an emptied context line */
			bool ok = true;
			if (c == ' ') {
				if (old_rem > 0 && new_rem > 0) {
					old_rem--;
					new_rem--;
				} else {
					ok = false;
				}
			} else if (c == '-') {
				ok = old_rem > 0 && old_rem--;
			} else if (c == '+') {
				ok = new_rem > 0 && new_rem--;
			} else if (c != '\\') {
				ok = false;
			}
			if (!ok) {
				/* the hunk is shorter than its header says: stop here and
				 * let the patch parser report it */
				break;
			}
			pos = l.next;
			d->end = pos;
			if (!old_rem && !new_rem)
				in_hunk = false;
			continue;
		}
		if (binary) {
			if (starts(&l, "diff --git ") || (l.len == 3 && !memcmp(l.p, "-- ", 3))) {
				binary = false;
				continue; /* reprocess as a header */
			}
			pos = l.next;
			d->end = pos;
			continue;
		}
		if (l.len == 3 && !memcmp(l.p, "-- ", 3))
			break; /* the mail signature */
		if (starts(&l, "\\ ") && cur) {
			pos = l.next;
			d->end = pos;
			continue;
		}
		if (starts(&l, "@@ -")) {
			if (!cur || !parse_hunk_header(&l, &old_rem, &new_rem))
				break;
			cur->hunks++;
			in_hunk = old_rem || new_rem;
			pos = l.next;
			d->end = pos;
			continue;
		}
		if (starts(&l, "diff --git ")) {
			cur = add_file(d, true);
			git_header_paths(&l, cur);
			pos = l.next;
			d->end = pos;
			continue;
		}
		struct line nx;
		if (starts(&l, "--- ") && line_at(body, len, l.next, &nx) && starts(&nx, "+++ ")) {
			/* a git section's ---/+++ belong to it; otherwise a plain section */
			if (!cur || !cur->git || cur->hunks)
				cur = add_file(d, false);
			set_path(&cur->old_path, strip_one(header_path(l.p + 4, l.len - 4)));
			set_path(&cur->new_path, strip_one(header_path(nx.p + 4, nx.len - 4)));
			pos = nx.next;
			d->end = pos;
			continue;
		}
		if (cur && cur->git && !cur->hunks) {
			bool ext = false;
			for (size_t i = 0; i < sizeof(git_extended) / sizeof(git_extended[0]); i++)
				if (starts(&l, git_extended[i]))
					ext = true;
			if (starts(&l, "rename from ") || starts(&l, "copy from ")) {
				set_path(&cur->rename_from, plain_value(&l, starts(&l, "rename") ? 12 : 10));
				ext = true;
			} else if (starts(&l, "rename to ") || starts(&l, "copy to ")) {
				set_path(&cur->rename_to, plain_value(&l, starts(&l, "rename") ? 10 : 8));
				ext = true;
			} else if (starts(&l, "GIT binary patch")) {
				binary = true;
				ext = true;
			}
			if (ext) {
				pos = l.next;
				d->end = pos;
				continue;
			}
		}
		/* Anything else between sections ("Index:", "=====", "diff -urN",
		 * "Only in", blank lines) is kept only if another section follows;
		 * d->end stays at the last line that belonged to the diff. */
		pos = l.next;
	}
	return 0;
}

void mail_diff_info_release(struct mail_diff_info *d)
{
	for (size_t i = 0; i < d->nfiles; i++) {
		free(d->files[i].old_path);
		free(d->files[i].new_path);
		free(d->files[i].rename_from);
		free(d->files[i].rename_to);
	}
	free(d->files);
	memset(d, 0, sizeof(*d));
}

char *mail_base_commit(const char *body, size_t len)
{
	struct line l;
	size_t pos = 0;
	static const char key[] = "base-commit:";
	while (line_at(body, len, pos, &l)) {
		pos = l.next;
		if (!starts(&l, key))
			continue;
		const char *p = l.p + sizeof(key) - 1, *end = l.p + l.len;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		const char *h = p;
		while (p < end && isxdigit((unsigned char)*p))
			p++;
		size_t n = (size_t)(p - h);
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p == end && n >= 7 && n <= 64) {
			char *r = xstrndup(h, n);
			for (char *q = r; *q; q++)
				*q = (char)tolower((unsigned char)*q);
			return r;
		}
	}
	return NULL;
}

/* A path as it goes into a git header: quoted when it has to be, so that
 * libgit2 reads back exactly what we meant (and the path check sees it). */
static void add_git_path(struct strbuf *sb, const char *prefix, const char *path)
{
	bool quote = false;
	for (const char *p = path; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == '"' || *p == '\\' || (unsigned char)*p == 0x7f)
			quote = true;
	if (!quote) {
		strbuf_addf(sb, "%s%s", prefix, path);
		return;
	}
	strbuf_addf(sb, "\"%s", prefix);
	for (const char *p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '"' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\%03o", c);
		else
			strbuf_addc(sb, (char)c);
	}
	strbuf_addc(sb, '"');
}

char *mail_diff_to_git(const char *diff, size_t len, size_t *out_len)
{
	struct strbuf sb = STRBUF_INIT;
	struct line l, nx;
	size_t pos = 0;
	long old_rem = 0, new_rem = 0;
	bool in_hunk = false, git_header = false, have_section = false;
	while (line_at(diff, len, pos, &l)) {
		if (in_hunk) {
			char c = l.len ? l.p[0] : ' ';
			bool ok = (c == ' ' && old_rem > 0 && new_rem > 0) || (c == '-' && old_rem > 0) ||
				  (c == '+' && new_rem > 0) || c == '\\';
			if (ok) {
				if (c == ' ' || c == '-')
					old_rem--;
				if (c == ' ' || c == '+')
					new_rem--;
				if (!l.len)
					strbuf_addc(&sb, ' '); /* libgit2 wants the context blank */
				strbuf_add(&sb, l.p, l.len);
				strbuf_addc(&sb, '\n');
				pos = l.next;
				in_hunk = old_rem || new_rem;
				continue;
			}
			in_hunk = false; /* short hunk: reprocess as a header */
		}
		if (starts(&l, "diff --git ")) {
			git_header = true;
			have_section = true;
		} else if (starts(&l, "--- ") && line_at(diff, len, l.next, &nx) && starts(&nx, "+++ ") && !git_header) {
			char *o = strip_one(header_path(l.p + 4, l.len - 4));
			char *n = strip_one(header_path(nx.p + 4, nx.len - 4));
			const char *name = n ? n : o;
			if (name) {
				strbuf_adds(&sb, "diff --git ");
				add_git_path(&sb, "a/", name);
				strbuf_addc(&sb, ' ');
				add_git_path(&sb, "b/", name);
				strbuf_addc(&sb, '\n');
				if (!o)
					strbuf_adds(&sb, "new file mode 100644\n");
				if (!n)
					strbuf_adds(&sb, "deleted file mode 100644\n");
				if (o) {
					strbuf_adds(&sb, "--- ");
					add_git_path(&sb, "a/", name);
					strbuf_addc(&sb, '\n');
				} else {
					strbuf_adds(&sb, "--- /dev/null\n");
				}
				if (n) {
					strbuf_adds(&sb, "+++ ");
					add_git_path(&sb, "b/", name);
					strbuf_addc(&sb, '\n');
				} else {
					strbuf_adds(&sb, "+++ /dev/null\n");
				}
				have_section = true;
			}
			free(o);
			free(n);
			pos = nx.next;
			continue;
		} else if (starts(&l, "@@ -")) {
			if (parse_hunk_header(&l, &old_rem, &new_rem) && have_section) {
				git_header = false;
				in_hunk = old_rem || new_rem;
				strbuf_add(&sb, l.p, l.len);
				strbuf_addc(&sb, '\n');
			}
			pos = l.next;
			continue;
		} else if (!git_header) {
			pos = l.next; /* Index:, =====, diff -urN, Only in, blank, signature */
			continue;
		}
		/* a git section's own header lines pass unchanged */
		strbuf_add(&sb, l.p, l.len);
		strbuf_addc(&sb, '\n');
		pos = l.next;
	}
	*out_len = sb.len;
	return strbuf_detach(&sb);
}
