/* A finding: one rule's verdict on one site, with candidate fixes. */
#ifndef GFPAUDIT_FINDING_H
#define GFPAUDIT_FINDING_H
#include "gfpaudit/site.h"

enum severity { SEV_NOTE, SEV_WARNING, SEV_ERROR };
const char *severity_name(enum severity s);
int severity_lookup(const char *name); /* -1 if unknown */

struct fix {
	char *kind;   /* add-noretry | strip-direct-reclaim | cap-order | kvmalloc | fallback-loop | order-zero */
	char *reason; /* one line: why this shape here */
	char *diff;   /* unified diff, git format, a/ b/ paths */
};

struct finding {
	char *rule;        /* stable id, e.g. "costly-no-noretry" */
	enum severity severity;
	char *message;     /* lowercase, no trailing period */
	char *source;      /* "clang" (default) or "cocci" */
	char *fingerprint; /* stable across line shifts */
	struct site site;  /* copy of the site (owns its strings) */
	struct fix *fixes;
	size_t nfixes, fixes_alloc;
	char *fix_declined; /* fixes were sought and none is offered: why, or NULL */
	/* Suppressed by an inline comment (suppress.h): its reason and line;
	 * NULL when the finding counts. */
	char *suppressed;
	int suppressed_line;
};

void finding_init(struct finding *f);
void finding_release(struct finding *f);
void finding_copy(struct finding *dst, const struct finding *src);
void finding_add_fix(struct finding *f, const char *kind, const char *reason, const char *diff);
/* Fingerprint of rule + file + function + api + normalized gfp/order text. */
char *finding_fingerprint(const char *rule, const struct site *s);

#endif
