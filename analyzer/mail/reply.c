/* Review replies as an mbox of RFC 5322 messages, built with GMime so the
 * headers are encoded and folded the way mail readers expect. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gmime/gmime.h>
#include "gfpaudit/mail.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"


struct mail_out {
	FILE *f;
	unsigned seq;
};

struct mail_out *mail_out_new(FILE *f)
{
	g_mime_init(); /* counted in GMime 3: safe to call again */
	struct mail_out *o = xcalloc(1, sizeof(*o));
	o->f = f;
	return o;
}

void mail_out_free(struct mail_out *o)
{
	if (!o)
		return;
	fflush(o->f);
	free(o);
}

/* The message as mbox text, "From " lines in the body escaped as ">From ".
 * Rendered in memory: GMime's file streams seek, which pipes cannot. */
static GByteArray *render(GMimeObject *obj)
{
	GByteArray *bytes = g_byte_array_new();
	GMimeStream *mem = g_mime_stream_mem_new_with_byte_array(bytes);
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(mem), FALSE);
	GMimeStream *escaped = g_mime_stream_filter_new(mem);
	GMimeFilter *from = g_mime_filter_from_new(GMIME_FILTER_FROM_MODE_ESCAPE);
	g_mime_stream_filter_add(GMIME_STREAM_FILTER(escaped), from);
	g_object_unref(from);
	if (g_mime_object_write_to_stream(obj, NULL, escaped) < 0 || g_mime_stream_flush(escaped) < 0) {
		g_byte_array_free(bytes, TRUE);
		bytes = NULL;
	}
	g_object_unref(escaped);
	g_object_unref(mem);
	return bytes;
}

/* Reproducible dates for tests and archives (reproducible-builds.org). */
static GDateTime *now(void)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	if (sde && *sde) {
		char *end;
		long long t = strtoll(sde, &end, 10);
		if (!*end)
			return g_date_time_new_from_unix_utc(t);
	}
	return g_date_time_new_now_utc();
}

static void add_list(GMimeMessage *msg, GMimeAddressType type, const char *text, const char *skip_addr)
{
	if (!text || !*text)
		return;
	InternetAddressList *l = internet_address_list_parse(NULL, text);
	if (!l)
		return;
	InternetAddressList *dst = g_mime_message_get_addresses(msg, type);
	for (int i = 0; i < internet_address_list_length(l); i++) {
		InternetAddress *a = internet_address_list_get_address(l, i);
		if (skip_addr && INTERNET_ADDRESS_IS_MAILBOX(a) &&
		    !g_ascii_strcasecmp(internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(a)), skip_addr))
			continue;
		internet_address_list_add(dst, a);
	}
	g_object_unref(l);
}

static const char *mailbox_addr(InternetAddressList *l)
{
	if (!l || internet_address_list_length(l) < 1)
		return NULL;
	InternetAddress *a = internet_address_list_get_address(l, 0);
	return INTERNET_ADDRESS_IS_MAILBOX(a) ? internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(a)) : NULL;
}

char *mail_new_message_id(const char *from)
{
	g_mime_init();
	InternetAddressList *l = from ? internet_address_list_parse(NULL, from) : NULL;
	const char *addr = mailbox_addr(l);
	const char *at = addr ? strrchr(addr, '@') : NULL;
	char *id = g_mime_utils_generate_message_id(at && at[1] ? at + 1 : "gfpaudit.invalid");
	char *r = xstrdup(id);
	g_free(id);
	if (l)
		g_object_unref(l);
	return r;
}

int mail_out_reply(struct mail_out *o, const struct mail_message *orig,
		   const struct mail_reply_opts *opts, const char *text)
{
	const char *from = opts ? opts->from : NULL;
	if (!from)
		return err_set(GA_EINVAL, "no sender for the reply: pass --from or set git's user.name and user.email");
	GMimeMessage *msg = g_mime_message_new(TRUE);
	GMimeObject *obj = GMIME_OBJECT(msg);

	InternetAddressList *fl = internet_address_list_parse(NULL, from);
	if (!fl || internet_address_list_length(fl) < 1) {
		if (fl)
			g_object_unref(fl);
		g_object_unref(msg);
		return err_set(GA_EINVAL, "'%s' is not a mail address", from);
	}
	internet_address_list_append(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_FROM), fl);
	const char *self = mailbox_addr(fl);

	/* To the author; Cc everyone the patch went to, but not ourselves */
	add_list(msg, GMIME_ADDRESS_TYPE_TO, orig->from, NULL);
	add_list(msg, GMIME_ADDRESS_TYPE_CC, orig->to, self);
	add_list(msg, GMIME_ADDRESS_TYPE_CC, orig->cc, self);

	const char *subj = orig->subject ? orig->subject : "";
	char *re = !g_ascii_strncasecmp(subj, "re:", 3) ? xstrdup(subj) : xasprintf("Re: %s", subj);
	g_mime_message_set_subject(msg, re, "utf-8");
	free(re);

	GDateTime *date = now();
	g_mime_message_set_date(msg, date);
	char *id = opts->message_id ? xstrdup(opts->message_id) : mail_new_message_id(from);
	g_mime_message_set_message_id(msg, id);
	free(id);

	/* RFC 5322 3.6.4: the parent's References (or its In-Reply-To), then
	 * the parent's own Message-ID */
	if (orig->message_id && *orig->message_id) {
		struct strbuf refs = STRBUF_INIT;
		for (size_t i = 0; i < orig->n_references; i++)
			strbuf_addf(&refs, "%s<%s>", refs.len ? " " : "", orig->references[i]);
		if (!orig->n_references && orig->in_reply_to)
			strbuf_addf(&refs, "<%s>", orig->in_reply_to);
		strbuf_addf(&refs, "%s<%s>", refs.len ? " " : "", orig->message_id);
		char *irt = xasprintf("<%s>", orig->message_id);
		g_mime_object_set_header(obj, "In-Reply-To", irt, NULL);
		g_mime_object_set_header(obj, "References", refs.buf, NULL);
		free(irt);
		strbuf_release(&refs);
	}
	g_mime_object_set_header(obj, "User-Agent",
				 opts && opts->user_agent ? opts->user_agent : "gfpaudit", NULL);

	GMimeTextPart *body = g_mime_text_part_new_with_subtype("plain");
	g_mime_text_part_set_text(body, text);
	/* Lists want readable text: 7bit or 8bit, quoted-printable only when a
	 * line is too long for SMTP (RFC 5322: 998). */
	size_t line = 0, longest = 0;
	bool ascii = true;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		ascii &= *p < 0x80;
		line = *p == '\n' ? 0 : line + 1;
		if (line > longest)
			longest = line;
	}
	g_mime_part_set_content_encoding(GMIME_PART(body), longest > 998 ? GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE :
					 ascii ? GMIME_CONTENT_ENCODING_7BIT : GMIME_CONTENT_ENCODING_8BIT);
	g_mime_message_set_mime_part(msg, GMIME_OBJECT(body));
	g_object_unref(body);

	/* mbox separator line: "From <addr> <asctime>" */
	/* asctime() form in English whatever the locale (GLib pads %e with a
	 * figure space, which mbox readers do not take) */
	static const char *const wd[] = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };
	static const char *const mon[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	char stamp[64];
	snprintf(stamp, sizeof(stamp), "%s %s %2d %02d:%02d:%02d %d",
		 wd[(g_date_time_get_day_of_week(date) + 6) % 7], mon[(g_date_time_get_month(date) + 11) % 12],
		 g_date_time_get_day_of_month(date), g_date_time_get_hour(date), g_date_time_get_minute(date),
		 g_date_time_get_second(date), g_date_time_get_year(date));
	GByteArray *bytes = render(obj);
	int rc = 0;
	if (!bytes || fprintf(o->f, "%sFrom %s %s\n", o->seq++ ? "\n" : "", self ? self : "MAILER-DAEMON", stamp) < 0 ||
	    fwrite(bytes->data, 1, bytes->len, o->f) != bytes->len ||
	    (bytes->len && bytes->data[bytes->len - 1] != '\n' && fputc('\n', o->f) == EOF))
		rc = err_set(GA_EIO, "cannot write the reply");
	if (bytes)
		g_byte_array_free(bytes, TRUE);
	g_date_time_unref(date);
	g_object_unref(fl);
	g_object_unref(msg);
	return rc;
}
