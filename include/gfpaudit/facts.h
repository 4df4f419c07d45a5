/* The tree-wide fact base: what every analyzed file stores into struct
 * fields and passes to functions' parameters, joined over the tree.
 *
 * Each file's analysis records observations (result.h struct fact_obs):
 *   field:S.f   a value stored into field f of struct S (an assignment in any
 *               function, an initializer of a static table);
 *   field:S.*   every field of S written at once (copy_from_user into it);
 *   param:F#i   a value a call passes as parameter i of function F (static
 *               functions: param:FILE:F#i);
 *   param:F#*   F's address is taken: callers the tree does not show.
 * The fact base joins them (one interval, the union of the kinds).  A read
 * of a field nothing in the file stored, or of a parameter, then takes the
 * joined value instead of "unknown" -- when every observation was bounded
 * (one unbounded store makes the whole key unbounded).
 */
#ifndef GFPAUDIT_FACTS_H
#define GFPAUDIT_FACTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gfpaudit/order.h"
#include "gfpaudit/result.h"

struct factbase;

struct factbase *factbase_new(void);
void factbase_free(struct factbase *fb);
/* Add every observation of a file's result. */
void factbase_add_result(struct factbase *fb, const struct file_result *r);
size_t factbase_size(const struct factbase *fb);

struct fact_value {
	struct interval iv;  /* known=false: some observation is unbounded */
	unsigned src;
	unsigned nobs;       /* observations joined */
	const char *where;   /* "file:line" of one of them (the first) */
	/* The largest observation that is a constant alone (a literal, a
	 * sizeof), kept when others are unbounded: one caller's or one
	 * store's value, a path the tree shows (has_cmax false: none). */
	bool has_cmax;
	int64_t cmax;
	const char *cmax_where; /* "file:line" of that observation */
};
/* The joined value of `key` (with its ".*" / "#*" wildcard joined in); false
 * when the tree shows nothing for it. */
bool factbase_get(const struct factbase *fb, const char *key, struct fact_value *out);

#endif
