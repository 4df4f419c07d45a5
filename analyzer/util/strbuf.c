#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

char strbuf_empty[1];

static void die_oom(void)
{
	fputs("gfpaudit: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n) { void *p = malloc(n ? n : 1); if (!p) die_oom(); return p; }
void *xcalloc(size_t n, size_t sz) { void *p = calloc(n ? n : 1, sz ? sz : 1); if (!p) die_oom(); return p; }
void *xrealloc(void *p, size_t n) { p = realloc(p, n ? n : 1); if (!p) die_oom(); return p; }
char *xstrdup(const char *s) { char *p = strdup(s ? s : ""); if (!p) die_oom(); return p; }
char *xstrndup(const char *s, size_t n) { char *p = strndup(s, n); if (!p) die_oom(); return p; }

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

void strbuf_init(struct strbuf *sb)
{
	sb->buf = strbuf_empty;
	sb->len = sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

char *strbuf_detach(struct strbuf *sb)
{
	char *r = sb->alloc ? sb->buf : xstrdup("");
	strbuf_init(sb);
	return r;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return;
	size_t n = sb->alloc ? sb->alloc * 2 : 64;
	while (n < need)
		n *= 2;
	if (!sb->alloc) {
		sb->buf = xmalloc(n);
		sb->buf[0] = 0;
	} else {
		sb->buf = xrealloc(sb->buf, n);
	}
	sb->alloc = n;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = 0;
}

void strbuf_adds(struct strbuf *sb, const char *s) { strbuf_add(sb, s, strlen(s)); }
void strbuf_addc(struct strbuf *sb, char c) { strbuf_add(sb, &c, 1); }

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = 0;
}

int strbuf_read_file(struct strbuf *sb, const char *path, size_t max)
{
	struct stat st;
	FILE *f = fopen(path, "rb");
	if (!f)
		return err_set(GA_EIO, "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		return err_set(GA_EIO, "'%s' is not a regular file", path);
	}
	if (max && (size_t)st.st_size > max) {
		fclose(f);
		return err_set(GA_EIO, "'%s' is larger than %zu bytes", path, max);
	}
	char tmp[65536];
	size_t n;
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0) {
		strbuf_add(sb, tmp, n);
		if (max && sb->len > max) {
			fclose(f);
			return err_set(GA_EIO, "'%s' is larger than %zu bytes", path, max);
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (bad)
		return err_set(GA_EIO, "cannot read '%s'", path);
	return 0;
}

void strbuf_add_wrapped(struct strbuf *sb, const char *text, size_t width)
{
	strbuf_add_wrapped_indent(sb, text, width, "", "");
}

void strbuf_add_wrapped_indent(struct strbuf *sb, const char *text, size_t width, const char *first,
			       const char *rest)
{
	strbuf_adds(sb, first);
	size_t col = strlen(first), indent = strlen(rest), start = col;
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		const char *e = p;
		while (*e && *e != ' ')
			e++;
		size_t n = (size_t)(e - p);
		if (!n)
			break;
		if (col > start && col + 1 + n > width) {
			strbuf_addc(sb, '\n');
			strbuf_adds(sb, rest);
			col = start = indent;
		} else if (col > start) {
			strbuf_addc(sb, ' ');
			col++;
		}
		strbuf_add(sb, p, n);
		col += n;
		p = e;
	}
	strbuf_addc(sb, '\n');
}

/* C0 controls, DEL and the C1 controls (as UTF-8, C2 80..C2 9F) become
 * \xNN: an escape sequence from a mail subject or a file name must not
 * reach a terminal.  Other bytes, UTF-8 included, pass. */
void strbuf_add_printable(struct strbuf *sb, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			strbuf_addf(sb, "\\x%02x", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			strbuf_addf(sb, "\\x%02x", *++p);
		else
			strbuf_addc(sb, (char)*p);
	}
}

char *xprintable(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_add_printable(&sb, s ? s : "");
	return strbuf_detach(&sb);
}

void fputs_printable(const char *s, FILE *f)
{
	char *p = xprintable(s);
	fputs(p, f);
	free(p);
}
