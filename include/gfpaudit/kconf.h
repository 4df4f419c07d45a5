/* The kernel configuration a tree was prepared with, as a set of CONFIG_*
 * names, for evaluating `#ifdef CONFIG_…` while reading the tree's sources
 * textually (the slow-path model, macro values of gfp and ALLOC_* bits).
 *
 * Sources, first found wins: include/generated/autoconf.h (a prepared tree),
 * .config (an extracted tree with a config copied in), or a built-in default
 * set for x86_64 distribution kernels (listed in model/kconf.c).
 * `source` says which one was used, so output can name it.
 */
#ifndef GFPAUDIT_KCONF_H
#define GFPAUDIT_KCONF_H
#include <stdbool.h>
#include <stddef.h>

struct kconf {
	char **names;     /* enabled options (y or m), sorted */
	size_t n;
	char *source;     /* path read, or "built-in defaults" */
};

/* Fill `out` for the tree at `tree` (NULL: the built-in defaults).
 * Returns 0; GA_EIO only when a config file exists but cannot be read. */
int kconf_load(struct kconf *out, const char *tree);
void kconf_release(struct kconf *k);
/* `name` with or without the CONFIG_ prefix. */
bool kconf_enabled(const struct kconf *k, const char *name);

#endif
