/* Integer values of macros and enum constants, evaluated from the text of a
 * tree's headers (csrc.h) rather than through a compiler: the slow-path model
 * needs __GFP_* and ALLOC_* values of trees that are not prepared.
 *
 * Object-like and function-like macros of the given files are expanded;
 * BIT(), BIT_ULL(), UL(), ULL(), _AC(), _UL(), _ULL(), _BITUL() and
 * _BITULL() are built in (they come from headers not read here).  Casts are
 * ignored; sizeof and anything else unknown makes the value unknown.
 */
#ifndef GFPAUDIT_CMACRO_H
#define GFPAUDIT_CMACRO_H
#include <stdint.h>
#include "gfpaudit/csrc.h"

struct cmacro {
	struct csrc **files; /* lent; searched last to first */
	size_t nfiles;
};

/* 0 and *out, or GA_ENOTFOUND (no such name) / GA_EINVAL (not evaluable). */
int cmacro_eval(const struct cmacro *m, const char *name, int64_t *out);
/* Evaluate an expression of one of the files with macro names resolved. */
int cmacro_eval_expr(const struct cmacro *m, const struct cx *e, int64_t *out);

#endif
