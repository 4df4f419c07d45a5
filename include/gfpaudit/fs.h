/* Small file-system helpers shared by the modules that write files
 * (the result cache, the PCH directory, hooks, fix mails). */
#ifndef GFPAUDIT_FS_H
#define GFPAUDIT_FS_H
#include <sys/types.h>

/* mkdir -p: create `dir` and its missing parents with `mode` (an existing
 * directory is fine).  0, or GA_EIO with err_last() "cannot create 'D': why"
 * naming the first directory that could not be made. */
int fs_mkdir_p(const char *dir, mode_t mode);
/* Does one of pats[0..n) cover `path` (absolute or relative to the current
 * directory; resolved when it exists)?  Patterns are relative to `base`
 * (absolute): a directory covers what is below it, else fnmatch on the
 * relative path, and a pattern without '/' also on the file name. */
#include <stdbool.h>
#include <stddef.h>
bool fs_path_matches(const char *base, const char *const *pats, size_t n, const char *path);

#endif
