#ifndef GFPAUDIT_VERSION_H
#define GFPAUDIT_VERSION_H

/*
 * The tool's version, from `git describe` at build time.  It lives in one
 * object (analyzer/util/version.c), rebuilt whenever the version changes:
 * an incremental build that recompiled only some files once carried two
 * versions, and the cache, which stores the writer's version in every row
 * and checks it on reading, then trusted none of its own rows.
 */
extern const char gfpaudit_version[];       /* "4ecfd8a" */
extern const char gfpaudit_name_version[];  /* "gfpaudit 4ecfd8a" */

#endif
