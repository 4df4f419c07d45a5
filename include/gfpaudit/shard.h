/* Shards: a deterministic share of the files, so N machines (or N jobs of
 * GNU parallel) can each audit one part of a tree and `gfpaudit merge`
 * joins the results.  A file belongs to shard K of N (1 <= K <= N) when the
 * 64-bit FNV-1a hash of its reported path (relative to the tree root with
 * --tree) is K-1 modulo N: the same on every machine, whatever the order of
 * the inputs or where the tree lives. */
#ifndef GFPAUDIT_SHARD_H
#define GFPAUDIT_SHARD_H
#include <stdbool.h>
#include "gfpaudit/engine.h"
#include "gfpaudit/scan.h"

/* "K/N" -> k, n.  GA_EINVAL with a message when malformed. */
int shard_parse(const char *spec, int *k, int *n);
bool shard_pick(const char *reported_path, int k, int n);
/* Keep only the files of shard k of n (paths mapped by the engine). */
void shard_filter(struct file_list *l, const struct engine *e, int k, int n);

#endif
