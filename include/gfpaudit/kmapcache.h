/* The tree's object map on disk (analyzer/frontend/kmapcache.c).
 *
 * Reading every Makefile of a tree to know what each object is (kbuild.c)
 * costs about 0.1 s of CPU on 6.12: more than a check of a small change
 * spends on the rest.  The map is kept in $XDG_CACHE_HOME/gfpaudit/kmap
 * (else ~/.cache/gfpaudit/kmap), one file a tree, with what it was read
 * from: each file's stamp (size, mtime to the nanosecond, inode; an absent
 * Kbuild as absent), the result of each $(wildcard), and this binary's
 * version.  It is used only while all of them still hold.
 */
#ifndef GFPAUDIT_KMAPCACHE_H
#define GFPAUDIT_KMAPCACHE_H
#include <glib.h>

struct kmap_row {
	const char *path; /* tree-relative object */
	char state;       /* 'y', 'm', 'n' */
	const char *modname, *modfile, *builder, *objrel;
};

/* Write the map (rows: struct kmap_row *) with its inputs: `files` read
 * (a path starting with '-' was looked for and absent) and `globs`
 * ("PATTERN\tRESULT", kmake.h).  Best effort: nothing is said on failure. */
void kmap_cache_save(const char *tree, GPtrArray *rows, GPtrArray *files, GPtrArray *globs);
/* The stored map of `tree` (owned text), or NULL when none is stored or
 * an input changed. */
char *kmap_cache_open(const char *tree);
/* The row of object `path` in that text: 0 with *row pointing into *buf
 * (caller frees), or -1 when the map has none. */
int kmap_cache_find(const char *text, const char *path, struct kmap_row *row, char **buf);
/* Every row of that text, in turn (the row's strings live for the call). */
void kmap_cache_each(const char *text, void (*fn)(const struct kmap_row *row, void *data), void *data);

#endif
