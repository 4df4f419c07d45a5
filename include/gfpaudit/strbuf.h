/* A growable string buffer.
 *
 * Invariants (as git's strbuf): `buf` is never NULL after strbuf_init and is
 * always NUL-terminated; `len` is the length without the NUL; `alloc` is the
 * capacity.  An initialised, empty strbuf points at a shared empty string and
 * must not be written through until something is added.  Allocation failure
 * aborts: a string buffer out of memory means the process is done.
 */
#ifndef GFPAUDIT_STRBUF_H
#define GFPAUDIT_STRBUF_H
#include <stddef.h>
#include <stdio.h>
#include <stdarg.h>

struct strbuf {
	char *buf;
	size_t len, alloc;
};
#define STRBUF_INIT { strbuf_empty, 0, 0 }
extern char strbuf_empty[];

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* Hand the string over to the caller (who frees it); sb is reset. */
char *strbuf_detach(struct strbuf *sb);
/* Append s with control characters (C0, DEL, C1) written as \xNN: for
 * text from mail or file names on its way to a terminal. */
void strbuf_add_printable(struct strbuf *sb, const char *s);
/* The same as a new string (NULL gives ""), and straight to a stream. */
char *xprintable(const char *s);
void fputs_printable(const char *s, FILE *f);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addc(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_reset(struct strbuf *sb);
/* Append the words of `text` (split at spaces) filled to `width` columns,
 * then a newline: the prose of kernel mail at 72. */
void strbuf_add_wrapped(struct strbuf *sb, const char *text, size_t width);
/* The same with a hanging indent: `first` before the first line, `rest`
 * before the others ("  - ", "    "). */
void strbuf_add_wrapped_indent(struct strbuf *sb, const char *text, size_t width, const char *first,
			       const char *rest);
/* Read a whole file; returns 0 or GA_EIO with err_set. */
int strbuf_read_file(struct strbuf *sb, const char *path, size_t max);

/* xmalloc family: abort on allocation failure (same policy as strbuf). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow a dynamic array `arr` of `nr` used / `alloc` slots to hold `need`. */
#define ALLOC_GROW(arr, need, alloc_) do { \
	if ((size_t)(need) > (size_t)(alloc_)) { \
		size_t n_ = (alloc_) ? (alloc_) * 2 : 8; \
		if (n_ < (size_t)(need)) n_ = (need); \
		(arr) = xrealloc((arr), n_ * sizeof(*(arr))); \
		(alloc_) = n_; \
	} } while (0)

#endif
