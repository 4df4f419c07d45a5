/* The per-tree configuration file, `.gfpaudit`: the nearest one in the
 * directory a command starts from or any directory above it.  Format
 * (git-config-like; '#' or ';' starts a comment line):
 *
 *     [rules]
 *     disable = noretry-without-nowarn, costly-retry-mayfail
 *     enable = RULE,...
 *     [severity]
 *     costly-no-fallback = note          (note | warning | error)
 *     [skip]
 *     path = drivers/staging/            (relative to the file's directory;
 *     path = *_kunit.c                    a directory or an fnmatch pattern)
 */
#ifndef GFPAUDIT_CONFIG_H
#define GFPAUDIT_CONFIG_H
#include <stdbool.h>
#include <stddef.h>
#include "gfpaudit/engine.h"

#define CONFIG_NAME ".gfpaudit"

struct config {
	char *path;              /* the file read; NULL: none found */
	char *dir;               /* its directory (absolute): skip paths are relative to it */
	char *enable, *disable;  /* comma lists, NULL when not set */
	struct rule_severity *sev;
	size_t nsev;
	char **skip;
	size_t nskip;
};

/* Find and read the nearest .gfpaudit from `start` (a file or a directory)
 * upwards.  0 with out->path NULL when there is none; GA_EINVAL with
 * err_last() "FILE:LINE: why" for a file that does not parse (unknown
 * section, key, rule or severity); GA_EIO when it cannot be read.  `out` is
 * initialised by the callee; release it. */
int config_find(const char *start, struct config *out);
/* Read one file (as config_find, without the search). */
int config_load(const char *file, struct config *out);
void config_release(struct config *c);
/* Does a [skip] path cover `path` (absolute, or relative to the current
 * directory)? */
bool config_skips(const struct config *c, const char *path);
/* One line for -v: where the configuration came from and what it sets.
 * Caller frees. */
char *config_describe(const struct config *c);

#endif
