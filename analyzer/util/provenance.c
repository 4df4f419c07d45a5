/* Provenance kinds, confidence names and the string pool (provenance.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/provenance.h"
#include "gfpaudit/strbuf.h"

static const char *const kind_names[SRC_NKINDS] = {
	"const", "config", "param", "user", "remote", "device", "runtime", "unknown",
};

const char *src_kind_name(enum src_kind k)
{
	return (unsigned)k < SRC_NKINDS ? kind_names[k] : "?";
}

int src_kind_lookup(const char *name)
{
	for (int i = 0; name && i < SRC_NKINDS; i++)
		if (!strcmp(kind_names[i], name))
			return i;
	return -1;
}

/* least to most telling */
static const int ranks[SRC_NKINDS] = {
	[SRC_CONST] = 0, [SRC_CONFIG] = 1, [SRC_UNKNOWN] = 2, [SRC_RUNTIME] = 3,
	[SRC_PARAM] = 4, [SRC_DEVICE] = 5, [SRC_REMOTE] = 6, [SRC_USER] = 7,
};

int src_rank(int kind)
{
	return kind >= 0 && kind < SRC_NKINDS ? ranks[kind] : -1;
}

int src_primary(unsigned mask)
{
	int best = -1;
	for (int k = 0; k < SRC_NKINDS; k++)
		if ((mask & (1u << k)) && (best < 0 || ranks[k] > ranks[best]))
			best = k;
	return best;
}

static const char *const conf_names[] = { "none", "possible", "likely", "proven" };

const char *confidence_name(enum confidence c)
{
	return (unsigned)c <= CONF_PROVEN ? conf_names[c] : "?";
}

int confidence_lookup(const char *name)
{
	for (int i = 0; name && i <= CONF_PROVEN; i++)
		if (!strcmp(conf_names[i], name))
			return i;
	return -1;
}

/* ---- string pool: open addressing, grows at half full ---- */

static struct {
	char **slot;
	size_t cap, n;
} pool;

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void pool_grow(void)
{
	size_t ncap = pool.cap ? pool.cap * 2 : 256;
	char **ns = xcalloc(ncap, sizeof(*ns));
	for (size_t i = 0; i < pool.cap; i++) {
		if (!pool.slot[i])
			continue;
		size_t j = hash_str(pool.slot[i]) & (ncap - 1);
		while (ns[j])
			j = (j + 1) & (ncap - 1);
		ns[j] = pool.slot[i];
	}
	free(pool.slot);
	pool.slot = ns;
	pool.cap = ncap;
}

const char *str_intern(const char *s)
{
	if (!s)
		return NULL;
	if (2 * (pool.n + 1) > pool.cap)
		pool_grow();
	size_t j = hash_str(s) & (pool.cap - 1);
	while (pool.slot[j]) {
		if (!strcmp(pool.slot[j], s))
			return pool.slot[j];
		j = (j + 1) & (pool.cap - 1);
	}
	pool.slot[j] = xstrdup(s);
	pool.n++;
	return pool.slot[j];
}
