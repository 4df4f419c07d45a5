/* Small file-system helpers shared by the modules that write files
 * (the result cache, the PCH directory, hooks, fix mails). */
#ifndef GFPAUDIT_FS_H
#define GFPAUDIT_FS_H
#include <sys/types.h>

/* mkdir -p: create `dir` and its missing parents with `mode` (an existing
 * directory is fine).  0, or GA_EIO with err_last() "cannot create 'D': why"
 * naming the first directory that could not be made. */
int fs_mkdir_p(const char *dir, mode_t mode);

#endif
