/* Where the data gfpaudit reads at run time lives: the kernel-model headers
 * (include/kmodel/) and the Coccinelle rules (rules/).  Nothing is baked in
 * at build time, so a copied or installed binary never falls back to the
 * directory it was built in.
 *
 * A data directory holds include/kmodel/linux/gfp.h and rules/.  It is, in
 * this order: $GFPAUDIT_DATADIR when set (and then nothing else); next to the
 * executable, ../share/gfpaudit (an install: PREFIX/bin/gfpaudit); the
 * executable's own directory or its parent or grandparent (a checkout:
 * ./gfpaudit, build/unit-tests, build/fuzz/TARGET).
 */
#ifndef GFPAUDIT_DATADIR_H
#define GFPAUDIT_DATADIR_H

/* Find the data directory (once; later calls return the first answer).
 * 0 and *out lent for the process, or GA_EIO with err_last() naming what
 * was looked for and where. */
int datadir_find(const char **out);
/* The model headers and the rules directory of datadir_find(); NULL when it
 * failed.  Lent for the process. */
const char *datadir_kmodel(void);
const char *datadir_rules(void);

#endif
