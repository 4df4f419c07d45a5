/* Phrases the rules' mail hooks share (check.h, struct check_mail). */
#ifndef GFPAUDIT_CHECKS_WORDS_H
#define GFPAUDIT_CHECKS_WORDS_H
#include "gfpaudit/check.h"
#include "gfpaudit/slowpath.h"
#include "gfpaudit/strbuf.h"

/* A bit of check.slowpath_steps. */
#define SPB(n) ((uint64_t)1 << SPF_##n)

/* "alloc_pages() here asks the page allocator for an order-4 block (64 KiB
 * with 4 KiB pages) with GFP_KERNEL" */
void words_request(struct strbuf *sb, const struct site *s);
/* " The order is not a constant: the size comes from ... (line 40)." when
 * the finding's costly order is likely or possible, else nothing. */
void words_confidence(struct strbuf *sb, const struct site *s);
/* The finding's message as one sentence: capital first letter, a period. */
void words_message(struct strbuf *sb, const struct finding *f);
/* The same, as it is (to follow a lead-in ending in ": "). */
void words_message_clause(struct strbuf *sb, const struct finding *f);
#endif
