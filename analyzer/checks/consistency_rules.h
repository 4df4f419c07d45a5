/* Shared by the three gfp/alloc_flags consistency rules: one analysis of the
 * file (consistency.h), cached so that the rules do not read it three times. */
#ifndef GFPAUDIT_CHECKS_CONSISTENCY_RULES_H
#define GFPAUDIT_CHECKS_CONSISTENCY_RULES_H
#include "gfpaudit/check.h"
#include "gfpaudit/consistency.h"

/* Report the findings of rule `r` for file `f` as findings of check `c`. */
void consistency_rule_run(const struct check *c, enum cons_rule r, const struct check_file *f,
			  struct check_ctx *ctx);
#endif
