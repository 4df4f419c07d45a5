/* What one allocation site can cost in the page allocator of a tree:
 * per order its fallback loop can try, the mask of that attempt, the
 * alloc_flags gfp_to_alloc_flags() derives from it, and the slow-path steps
 * (slowpath.h), each with the source line of the model it was read from.
 * `gfpaudit explain` prints it; the JSON form is for tools.
 */
#ifndef GFPAUDIT_EXPLAIN_H
#define GFPAUDIT_EXPLAIN_H
#include <stdio.h>
#include "gfpaudit/site.h"
#include "gfpaudit/slowpath.h"

/* Orders hi..lo that behave the same. */
struct explain_group {
	int hi, lo;
	const char *role;      /* "attempts with a fallback", "last attempt", "every attempt" */
	const char *when;      /* the class's symbolic condition (lent from the site), or NULL */
	struct gfp_bits gfp;   /* mask of these attempts */
	struct sp_outcome out; /* at order hi (the same for every order of the group) */
	struct sp_flags flags;
};

struct explanation {
	const struct site *site;             /* lent */
	const struct slowpath_model *model;  /* lent */
	bool order_known;
	struct explain_group *g;
	size_t n, alloc;
};

/* 0; the site and model are lent and must outlive `out`. */
int explain_site(const struct slowpath_model *m, const struct site *s, struct explanation *out);
void explanation_release(struct explanation *x);
/* verbose: also where each alloc_flags bit is set */
struct diag_style;
/* st: colour and the name to print (diag.h); NULL: plain, the name as is */
void explain_print_text(const struct explanation *x, FILE *f, bool verbose, const struct diag_style *st);
struct json_t;
struct json_t *explain_to_json(const struct explanation *x);
/* The model alone: its facts, aliases, and whether costly __GFP_NORETRY
 * requests still compact (with where that was read). */
void explain_print_model(const struct slowpath_model *m, FILE *f);
struct json_t *explain_model_to_json(const struct slowpath_model *m);

#endif
