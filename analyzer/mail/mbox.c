/* An mbox of patch mails into an ordered series (GMime does the MIME work). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gmime/gmime.h>
#include "gfpaudit/mail.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

static void gmime_init_once(void)
{
	static bool done;
	if (!done) {
		g_mime_init();
		done = true;
	}
}

char *mail_fold_ws(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	bool space = false;
	for (const char *p = s ? s : ""; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
			space = sb.len > 0;
			continue;
		}
		if (space)
			strbuf_addc(&sb, ' ');
		space = false;
		strbuf_addc(&sb, *p);
	}
	return strbuf_detach(&sb);
}

static void human_size(char *buf, size_t n, size_t bytes)
{
	if (bytes >= ((size_t)1 << 20))
		snprintf(buf, n, "%.1f MB", (double)bytes / (1 << 20));
	else if (bytes >= 1024)
		snprintf(buf, n, "%.1f KB", (double)bytes / 1024);
	else
		snprintf(buf, n, "%zu bytes", bytes);
}

static void add_skipped(struct mail_series *s, long offset, const char *subject, char *reason)
{
	ALLOC_GROW(s->skipped, s->nskipped + 1, s->skipped_alloc);
	struct mail_skipped *k = &s->skipped[s->nskipped++];
	k->offset = offset;
	k->subject = subject ? xstrdup(subject) : NULL;
	k->reason = reason;
}

static void add_warning(struct mail_series *s, char *w)
{
	ALLOC_GROW(s->warnings, s->nwarnings + 1, s->warnings_alloc);
	s->warnings[s->nwarnings++] = w;
}

static char *addresses(GMimeMessage *msg, GMimeAddressType type)
{
	InternetAddressList *l = g_mime_message_get_addresses(msg, type);
	if (!l || internet_address_list_length(l) == 0)
		return xstrdup("");
	char *s = internet_address_list_to_string(l, NULL, FALSE);
	char *r = mail_fold_ws(s);
	g_free(s);
	return r;
}

static void references(GMimeObject *obj, const char *header, char ***out, size_t *n)
{
	*out = NULL;
	*n = 0;
	const char *v = g_mime_object_get_header(obj, header);
	if (!v)
		return;
	GMimeReferences *refs = g_mime_references_parse(NULL, v);
	if (!refs)
		return;
	int len = g_mime_references_length(refs);
	if (len > 0) {
		*out = xcalloc((size_t)len, sizeof(char *));
		for (int i = 0; i < len; i++)
			(*out)[(*n)++] = xstrdup(g_mime_references_get_message_id(refs, i));
	}
	g_mime_references_free(refs);
}

/* Append text with CRLF folded to LF; mail transport adds the CRs. */
static void add_text(struct strbuf *sb, const char *t)
{
	if (sb->len && sb->buf[sb->len - 1] != '\n')
		strbuf_addc(sb, '\n');
	for (const char *p = t; *p; p++) {
		if (p[0] == '\r' && p[1] == '\n')
			continue;
		strbuf_addc(sb, *p);
	}
}

static bool holds_diff(const char *t)
{
	return !strncmp(t, "diff --git ", 11) || strstr(t, "\ndiff --git ") ||
	       (strstr(t, "\n--- ") && strstr(t, "\n+++ ")) || (!strncmp(t, "--- ", 4) && strstr(t, "\n+++ "));
}

/* Message text: text/plain parts that are not attachments, and any text
 * part (text/x-patch, text/x-diff, an attached text/plain) holding a diff,
 * as `git format-patch --attach/--inline` and mailers produce them. */
static void collect_part(GMimeObject *parent, GMimeObject *part, gpointer data)
{
	struct strbuf *sb = data;
	(void)parent;
	if (!GMIME_IS_TEXT_PART(part))
		return;
	GMimeContentType *ct = g_mime_object_get_content_type(part);
	const char *sub = ct ? g_mime_content_type_get_media_subtype(ct) : "plain";
	if (!sub)
		sub = "plain";
	bool plain = !g_ascii_strcasecmp(sub, "plain");
	bool patchy = plain || !g_ascii_strcasecmp(sub, "x-patch") || !g_ascii_strcasecmp(sub, "x-diff") ||
		      !g_ascii_strcasecmp(sub, "x-diff-patch");
	if (!patchy)
		return; /* html, calendars, ... */
	GMimeContentDisposition *disp = g_mime_object_get_content_disposition(part);
	bool attached = disp && g_mime_content_disposition_is_attachment(disp);
	char *text = g_mime_text_part_get_text(GMIME_TEXT_PART(part));
	if (!text)
		return;
	if ((plain && !attached) || holds_diff(text))
		add_text(sb, text);
	g_free(text);
}

static void message_release(struct mail_message *m)
{
	free(m->subject);
	free(m->from);
	free(m->to);
	free(m->cc);
	free(m->message_id);
	free(m->in_reply_to);
	for (size_t i = 0; i < m->n_references; i++)
		free(m->references[i]);
	free(m->references);
	free(m->date);
	free(m->body);
	mail_subject_release(&m->subj);
	free(m->diff);
	mail_diff_info_release(&m->files);
	free(m->diff_error);
	free(m->base_commit);
	memset(m, 0, sizeof(*m));
}

static void read_headers(GMimeMessage *msg, struct mail_message *m)
{
	GMimeObject *obj = GMIME_OBJECT(msg);
	m->subject = mail_fold_ws(g_mime_message_get_subject(msg));
	m->from = addresses(msg, GMIME_ADDRESS_TYPE_FROM);
	m->to = addresses(msg, GMIME_ADDRESS_TYPE_TO);
	m->cc = addresses(msg, GMIME_ADDRESS_TYPE_CC);
	const char *id = g_mime_message_get_message_id(msg);
	m->message_id = mail_fold_ws(id);
	char **irt;
	size_t nirt;
	references(obj, "In-Reply-To", &irt, &nirt);
	if (nirt) {
		m->in_reply_to = irt[0];
		for (size_t i = 1; i < nirt; i++)
			free(irt[i]);
	}
	free(irt);
	references(obj, "References", &m->references, &m->n_references);
	const char *date = g_mime_object_get_header(obj, "Date");
	m->date = date ? mail_fold_ws(date) : NULL;
	mail_subject_parse(m->subject, &m->subj);
}

static void read_body(GMimeMessage *msg, struct mail_message *m, const struct mail_limits *lim)
{
	struct strbuf sb = STRBUF_INIT;
	g_mime_message_foreach(msg, collect_part, &sb);
	m->body_len = sb.len;
	m->body = strbuf_detach(&sb);
	m->base_commit = mail_base_commit(m->body, m->body_len);
	if (mail_diff_scan(m->body, m->body_len, &m->files))
		return;
	size_t n = m->files.end - m->files.begin;
	if (n > lim->max_patch) {
		char a[32], b[32];
		human_size(a, sizeof(a), n);
		human_size(b, sizeof(b), lim->max_patch);
		m->diff_error = xasprintf("the diff is %s, over the %s limit for one patch", a, b);
		mail_diff_info_release(&m->files);
		return;
	}
	m->diff = xstrndup(m->body + m->files.begin, n);
	m->diff_len = n;
}

/* Order patch indexes by m (a stable insertion sort: series are short). */
static void sort_by_m(struct mail_series *s)
{
	for (size_t i = 1; i < s->npatches; i++) {
		size_t v = s->patches[i], j = i;
		while (j > 0 && s->messages[s->patches[j - 1]].subj.m > s->messages[v].subj.m) {
			s->patches[j] = s->patches[j - 1];
			j--;
		}
		s->patches[j] = v;
	}
}

/* Pick the cover letter and the patches of one series version, in m order. */
static void assemble(struct mail_series *s)
{
	int version = 0;
	bool numbered = false;
	for (size_t i = 0; i < s->nmessages; i++) {
		const struct mail_message *m = &s->messages[i];
		if (m->subj.is_patch && m->subj.version > version)
			version = m->subj.version;
		numbered |= m->subj.is_patch && m->subj.numbered;
	}
	s->version = version ? version : 1;
	s->patches = xcalloc(s->nmessages, sizeof(size_t));
	bool *seen = NULL;
	size_t nseen = 0;
	for (size_t i = 0; i < s->nmessages; i++) {
		struct mail_message *m = &s->messages[i];
		const char *why = NULL;
		if (m->subj.is_reply)
			why = "a reply, not a patch";
		else if (m->subj.is_patch && m->subj.version != s->version)
			why = "an older version of the series";
		else if (m->subj.is_patch && numbered && !m->subj.numbered)
			why = "an unnumbered patch in a numbered series";
		if (why) {
			add_skipped(s, m->offset, m->subject, xasprintf("%s (v%d in the mbox is reviewed)", why, s->version));
			continue;
		}
		if (m->subj.is_patch && m->subj.m == 0) {
			if (s->cover < 0)
				s->cover = (long)i;
			else
				add_skipped(s, m->offset, m->subject, xstrdup("a second cover letter"));
			continue;
		}
		bool usable = m->diff || m->diff_error;
		if (!m->subj.is_patch && !usable) {
			add_skipped(s, m->offset, m->subject, xstrdup("not a patch: no [PATCH] prefix and no diff"));
			continue;
		}
		if (!usable) {
			add_skipped(s, m->offset, m->subject, xstrdup("no diff in the message body"));
			continue;
		}
		if (!m->subj.is_patch && numbered) {
			add_skipped(s, m->offset, m->subject, xstrdup("a diff without a [PATCH m/n] prefix in a numbered series"));
			continue;
		}
		if (s->total == 0)
			s->total = m->subj.n;
		else if (m->subj.n != s->total)
			add_warning(s, xasprintf("'%s' says %d/%d, other patches say of %d",
						 m->subject, m->subj.m, m->subj.n, s->total));
		size_t idx = (size_t)m->subj.m;
		if (idx >= nseen) {
			size_t nn = idx + 1;
			seen = xrealloc(seen, nn * sizeof(bool));
			memset(seen + nseen, 0, (nn - nseen) * sizeof(bool));
			nseen = nn;
		}
		if (seen[idx]) {
			add_skipped(s, m->offset, m->subject, xasprintf("a second patch numbered %d", m->subj.m));
			continue;
		}
		seen[idx] = true;
		s->patches[s->npatches++] = i;
	}
	if (s->npatches > 1 && !numbered) {
		/* unnumbered diffs in one mbox: keep their mbox order */
		for (size_t i = 0; i < s->npatches; i++)
			s->messages[s->patches[i]].subj.m = (int)i + 1;
		s->total = (int)s->npatches;
	}
	sort_by_m(s);
	for (int k = 1; k <= s->total && numbered; k++)
		if ((size_t)k >= nseen || !seen[k])
			add_warning(s, xasprintf("patch %d/%d is missing from the mbox", k, s->total));
	free(seen);

	/* base-commit: the cover letter's, else the first patch's that has one */
	const char *from = NULL;
	if (s->cover >= 0 && s->messages[s->cover].base_commit)
		s->base_commit = xstrdup(s->messages[s->cover].base_commit);
	for (size_t i = 0; i < s->npatches; i++) {
		const char *b = s->messages[s->patches[i]].base_commit;
		if (!b)
			continue;
		if (!s->base_commit) {
			s->base_commit = xstrdup(b);
			from = s->messages[s->patches[i]].subject;
		} else if (strcmp(b, s->base_commit)) {
			add_warning(s, xasprintf("'%s' names base-commit %s, the series %s; using %s",
						 s->messages[s->patches[i]].subject, b, s->base_commit, s->base_commit));
		}
	}
	(void)from;
}

static bool looks_like_mbox(const char *buf, size_t len)
{
	return len >= 5 && !memcmp(buf, "From ", 5);
}

int mail_series_parse(const char *buf, size_t len, const struct mail_limits *lim_in,
		      struct mail_series *s)
{
	static const struct mail_limits dflt = MAIL_LIMITS_INIT;
	const struct mail_limits *lim = lim_in ? lim_in : &dflt;
	memset(s, 0, sizeof(*s));
	s->cover = -1;
	if (len > lim->max_total) {
		char a[32], b[32];
		human_size(a, sizeof(a), len);
		human_size(b, sizeof(b), lim->max_total);
		return err_set(GA_EINVAL, "the mbox is %s, over the %s limit for one series", a, b);
	}
	gmime_init_once();
	int rc = 0;
	GMimeStream *stream = g_mime_stream_mem_new_with_buffer(buf, len);
	GMimeParser *parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, looks_like_mbox(buf, len) ? GMIME_FORMAT_MBOX : GMIME_FORMAT_MESSAGE);
	unsigned count = 0;
	while (!g_mime_parser_eos(parser)) {
		gint64 before = g_mime_parser_tell(parser);
		GMimeMessage *msg = g_mime_parser_construct_message(parser, NULL);
		gint64 after = g_mime_parser_tell(parser);
		if (!msg) {
			if (after < (gint64)len && after > before)
				add_skipped(s, (long)before, NULL,
					    xstrdup("not a mail message (headers unreadable); the rest of the mbox is ignored"));
			break;
		}
		gint64 start = looks_like_mbox(buf, len) ? g_mime_parser_get_mbox_marker_offset(parser) : 0;
		if (start < 0 || start > after)
			start = before;
		if (++count > lim->max_messages) {
			g_object_unref(msg);
			rc = err_set(GA_EINVAL, "the mbox holds more than %u messages: not one patch series",
				     lim->max_messages);
			goto cleanup;
		}
		ALLOC_GROW(s->messages, s->nmessages + 1, s->messages_alloc);
		struct mail_message *m = &s->messages[s->nmessages];
		memset(m, 0, sizeof(*m));
		m->offset = (long)start;
		m->size = (size_t)(after - start);
		read_headers(msg, m);
		if (m->size > lim->max_message) {
			char a[32], b[32];
			human_size(a, sizeof(a), m->size);
			human_size(b, sizeof(b), lim->max_message);
			char *why = xasprintf("the message is %s, over the %s limit for one message", a, b);
			if (m->subj.is_patch && !m->subj.is_reply && m->subj.m > 0) {
				/* keep its place so later patches are not applied without it */
				m->diff_error = why;
				m->body = xstrdup("");
			} else {
				add_skipped(s, m->offset, m->subject, why);
				message_release(m);
				g_object_unref(msg);
				continue;
			}
		} else {
			read_body(msg, m, lim);
		}
		s->nmessages++;
		g_object_unref(msg);
		if (after <= before)
			break; /* no progress: do not spin on a broken stream */
	}
	if (!s->nmessages && !s->nskipped) {
		rc = err_set(GA_EINVAL, "no mail message in the input");
		goto cleanup;
	}
	assemble(s);
cleanup:
	g_object_unref(parser);
	g_object_unref(stream);
	return rc;
}

static int read_one(const char *path, const struct mail_limits *lim, struct strbuf *sb)
{
	if (!strcmp(path, "-")) {
		char tmp[65536];
		ssize_t n;
		while ((n = read(0, tmp, sizeof(tmp))) != 0) {
			if (n < 0) {
				if (errno == EINTR)
					continue;
				return err_set(GA_EIO, "cannot read standard input: %s", strerror(errno));
			}
			strbuf_add(sb, tmp, (size_t)n);
			if (sb->len > lim->max_total)
				break; /* mail_series_parse names the cap */
		}
		return 0;
	}
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && sb->len + (size_t)st.st_size > lim->max_total) {
		char a[32], b[32];
		human_size(a, sizeof(a), sb->len + (size_t)st.st_size);
		human_size(b, sizeof(b), lim->max_total);
		return err_set(GA_EINVAL, "'%s' is %s%s, over the %s limit for one series", path, a,
			       sb->len ? " with the files before it" : "", b);
	}
	struct strbuf one = STRBUF_INIT;
	int rc = strbuf_read_file(&one, path, lim->max_total + 1);
	if (!rc) {
		strbuf_add(sb, one.buf, one.len);
		if (sb->len && sb->buf[sb->len - 1] != '\n')
			strbuf_addc(sb, '\n'); /* the next file's "From " line starts a line */
	}
	strbuf_release(&one);
	return rc;
}

int mail_series_read(const char *const *paths, size_t npaths, const struct mail_limits *lim_in,
		     struct mail_series *s)
{
	static const struct mail_limits dflt = MAIL_LIMITS_INIT;
	const struct mail_limits *lim = lim_in ? lim_in : &dflt;
	memset(s, 0, sizeof(*s));
	s->cover = -1;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < npaths && !rc && sb.len <= lim->max_total; i++)
		rc = read_one(paths[i], lim, &sb);
	if (!rc)
		rc = mail_series_parse(sb.buf, sb.len, lim, s);
	strbuf_release(&sb);
	return rc;
}

void mail_series_release(struct mail_series *s)
{
	for (size_t i = 0; i < s->nmessages; i++)
		message_release(&s->messages[i]);
	free(s->messages);
	free(s->patches);
	free(s->base_commit);
	for (size_t i = 0; i < s->nskipped; i++) {
		free(s->skipped[i].subject);
		free(s->skipped[i].reason);
	}
	free(s->skipped);
	for (size_t i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	memset(s, 0, sizeof(*s));
	s->cover = -1;
}

const struct mail_message *mail_series_patch(const struct mail_series *s, size_t i)
{
	return i < s->npatches ? &s->messages[s->patches[i]] : NULL;
}

const struct mail_message *mail_series_cover(const struct mail_series *s)
{
	return s->cover >= 0 ? &s->messages[s->cover] : NULL;
}
