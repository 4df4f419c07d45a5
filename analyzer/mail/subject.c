/* Subject prefixes of patch mails: "[PATCH v2 3/7]", "[RFC PATCH 0/3]",
 * "[PATCH net-next v2 01/10]", "[RFC][PATCH 1/2]", "[PATCHv3 2/2]". */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "gfpaudit/mail.h"
#include "gfpaudit/strbuf.h"

/* Numbers in subjects are small; anything longer is not a counter. */
static bool parse_small_uint(const char *s, size_t len, int *out)
{
	if (len == 0 || len > 5)
		return false;
	int v = 0;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

static bool parse_version(const char *w, size_t len, int *out)
{
	return len >= 2 && (w[0] == 'v' || w[0] == 'V') && parse_small_uint(w + 1, len - 1, out);
}

static bool parse_counter(const char *w, size_t len, int *m, int *n)
{
	const char *slash = memchr(w, '/', len);
	if (!slash)
		return false;
	int a, b;
	if (!parse_small_uint(w, (size_t)(slash - w), &a) ||
	    !parse_small_uint(slash + 1, len - (size_t)(slash - w) - 1, &b))
		return false;
	if (b < 1 || a > b)
		return false;
	*m = a;
	*n = b;
	return true;
}

static bool word_is(const char *w, size_t len, const char *kw)
{
	return strlen(kw) == len && !strncasecmp(w, kw, len);
}

/* One word of a bracket prefix. */
static void prefix_word(struct mail_subject *s, struct strbuf *tags, const char *w, size_t len)
{
	int v;
	if (word_is(w, len, "PATCH")) {
		s->is_patch = true;
	} else if (word_is(w, len, "RFC")) {
		s->is_patch = true;
		s->rfc = true;
	} else if (len > 5 && !strncasecmp(w, "PATCH", 5) && parse_version(w + 5, len - 5, &v)) {
		s->is_patch = true; /* "PATCHv3" */
		s->version = v;
	} else if (len > 3 && !strncasecmp(w, "RFC", 3) && parse_version(w + 3, len - 3, &v)) {
		s->is_patch = true;
		s->rfc = true;
		s->version = v;
	} else if (parse_version(w, len, &v)) {
		s->version = v;
	} else if (parse_counter(w, len, &s->m, &s->n)) {
		s->numbered = true;
		s->is_patch = true;
	} else {
		if (tags->len)
			strbuf_addc(tags, ' ');
		strbuf_add(tags, w, len);
	}
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* "Re:", "RE:", "Fwd:", "Aw:" (German clients), "Fw:". */
static const char *skip_reply_prefix(const char *p, bool *reply)
{
	static const char *const pfx[] = { "re:", "fwd:", "fw:", "aw:" };
	for (;;) {
		p = skip_ws(p);
		bool hit = false;
		for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++) {
			size_t l = strlen(pfx[i]);
			if (!strncasecmp(p, pfx[i], l)) {
				p += l;
				*reply = hit = true;
				break;
			}
		}
		if (!hit)
			return p;
	}
}

void mail_subject_parse(const char *subject, struct mail_subject *s)
{
	memset(s, 0, sizeof(*s));
	s->version = 1;
	s->m = s->n = 1;
	struct strbuf tags = STRBUF_INIT;
	const char *p = skip_reply_prefix(subject ? subject : "", &s->is_reply);

	while (*p == '[') {
		const char *close = strchr(p, ']');
		if (!close)
			break;
		const char *w = p + 1;
		while (w < close) {
			while (w < close && (*w == ' ' || *w == '\t' || *w == ','))
				w++;
			const char *e = w;
			while (e < close && *e != ' ' && *e != '\t' && *e != ',')
				e++;
			if (e > w)
				prefix_word(s, &tags, w, (size_t)(e - w));
			w = e;
		}
		p = skip_ws(close + 1);
	}
	if (s->is_reply)
		s->is_patch = false;
	s->tags = strbuf_detach(&tags);
	s->title = xstrdup(p);
}

void mail_subject_release(struct mail_subject *s)
{
	free(s->tags);
	free(s->title);
	memset(s, 0, sizeof(*s));
}
