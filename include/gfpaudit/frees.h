/* Who frees what, through the fact base: every kfree-family call of the
 * file publishes the struct type of what it frees ("frees:struct T", a
 * constant observation), so a fix that turns a kmalloc of a struct T into
 * kvmalloc can see whether other files free struct T objects with kfree
 * (facts.h nfiles/where2), where kfree would have to become kvfree too. */
#ifndef GFPAUDIT_FREES_H
#define GFPAUDIT_FREES_H
#include "gfpaudit/fn.h"
#include "gfpaudit/result.h"

/* "frees:struct T" (new string) for the type spelling "struct T". */
char *frees_key(const char *type);

/* Publish into `out` the struct types function f frees with kfree,
 * kfree_sensitive or kzfree. */
void frees_publish(const struct fn_model *f, struct file_result *out);

#endif
