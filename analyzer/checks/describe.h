#ifndef GFPAUDIT_CHECKS_DESCRIBE_H
#define GFPAUDIT_CHECKS_DESCRIBE_H
#include "gfpaudit/strbuf.h"
#include "gfpaudit/site.h"
void describe_order(struct strbuf *sb, const struct site *s);
/* "'alloc_pages' can request order 4; gfp must ..., may ...; fallback none" */
char *describe_site(const struct site *s);
/* " (64 KiB)", " (up to 512 KiB)", " (32 KiB to 64 KiB)": a size range as people read it. */
struct strbuf;
void describe_size(struct strbuf *sb, long long lo, long long hi);
/* "'alloc_pages' can request order 0..10; its attempts at orders 4..10 (with
 * a fallback after them, when order > min_order) get gfp must ..., may ...;
 * fallback order-loop" */
char *describe_attempt(const struct site *s, const struct attempt *a);
/* "likely: the size comes from the count of a user buffer, 'count' (line
 * 40), and nothing here bounds it below order 4" (nothing when not judged) */
void describe_source(struct strbuf *sb, const struct site *s, int costly_order);
#endif
