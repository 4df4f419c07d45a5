/* Shards (see shard.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/shard.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

int shard_parse(const char *spec, int *k, int *n)
{
	const char *slash = strchr(spec, '/');
	long a, b;
	if (!slash || slash - spec > 6)
		goto bad;
	char ks[8];
	memcpy(ks, spec, (size_t)(slash - spec));
	ks[slash - spec] = 0;
	if (cli_parse_long(ks, 1, 100000, &a) || cli_parse_long(slash + 1, 1, 100000, &b) || a > b)
		goto bad;
	*k = (int)a;
	*n = (int)b;
	return 0;
bad:
	return err_set(GA_EINVAL, "--shard takes K/N with 1 <= K <= N, not '%s'", spec);
}

bool shard_pick(const char *path, int k, int n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	while (path[0] == '.' && path[1] == '/')
		path += 2; /* "./mm/x.c" and "mm/x.c" are one file */
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	return (int)(h % (uint64_t)n) == k - 1;
}

void shard_filter(struct file_list *l, const struct engine *e, int k, int n)
{
	size_t keep = 0;
	for (size_t i = 0; i < l->n; i++) {
		char *rep = engine_report_path(e, l->paths[i]);
		if (shard_pick(rep, k, n))
			l->paths[keep++] = l->paths[i];
		else
			free(l->paths[i]);
		free(rep);
	}
	l->n = keep;
}
