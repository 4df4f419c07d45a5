/* The lexical prefilter: which files can hold an allocation site, decided
 * without parsing.
 *
 * A file can hold a site when its code (comments, strings and #include
 * lines aside; member names after '.' and '->' aside) names
 *  - an allocator of the allocator table, or its "_noprof" spelling;
 *  - a wrapper learned from headers: a macro or a function defined in a
 *    header whose body names an allocator or another wrapper (to a fixpoint),
 *    e.g. alloc_page() -> alloc_pages() or dev_alloc_pages() -> alloc_pages_node();
 *  - any of those inside a header it includes with #include "..." (followed
 *    relative to the file, a few levels deep).
 * Everything else goes on to the parser.  The filter is meant to be
 * conservative: a file it rejects must give no site when parsed; the
 * --no-prefilter switch is there to check that on a real tree.
 */
#ifndef GFPAUDIT_PREFILTER_H
#define GFPAUDIT_PREFILTER_H
#include <stdbool.h>
#include <stddef.h>
#include "gfpaudit/alloc_table.h"

struct prefilter;

/* Start from the allocator table's names (copied). */
int prefilter_new(const struct alloc_table *t, struct prefilter **out);
void prefilter_free(struct prefilter *p);

/* Learn wrappers from header text (origin names it in messages) / from every
 * .h file below dir.  Call prefilter_learn_finish() after the last one: it
 * runs the fixpoint and returns how many wrapper names were learned. */
void prefilter_learn_text(struct prefilter *p, const char *text, size_t len);
int prefilter_learn_dir(struct prefilter *p, const char *dir);
size_t prefilter_learn_finish(struct prefilter *p);

/* Triggers of rules that read whole functions rather than allocation sites
 * (the gfp mask / alloc_flags consistency rules): a file also goes to the
 * parser when it names an identifier that starts with `prefix` or contains
 * `substring` (either may be NULL), or, for a pair, one name of `a` and one
 * of `b` (NULL-terminated lists; an entry ending in '*' is a prefix).
 * Triggers do not take part in learning wrappers. */
void prefilter_add_trigger(struct prefilter *p, const char *prefix, const char *substring);
void prefilter_add_pair(struct prefilter *p, const char *const *a, const char *const *b);

/* Add one name by hand (tests, user wrappers). */
void prefilter_add_name(struct prefilter *p, const char *name);
bool prefilter_has_name(const struct prefilter *p, const char *name);

/* Can this file's text hold an allocation site?  `path` locates quoted
 * includes (NULL: do not follow them).  *why (may be NULL) gets the name
 * that decided it, lent until the next call. */
bool prefilter_match(struct prefilter *p, const char *text, size_t len, const char *path,
		     const char **why);

#endif
