#include <string.h>
#include "gfpaudit/gfp.h"

static const char *const names[] = {
#define X(n) "__GFP_" #n,
	GFP_FLAG_LIST(X)
#undef X
};

const char *gfp_flag_name(enum gfp_flag f)
{
	if ((int)f < 0 || f >= GFPF__COUNT)
		return NULL;
	return names[f];
}

int gfp_flag_lookup(const char *name)
{
	if (!strncmp(name, "__GFP_", 6))
		name += 6;
	for (int i = 0; i < GFPF__COUNT; i++)
		if (!strcmp(names[i] + 6, name))
			return i;
	return -1;
}

uint64_t gfp_table_to_canon(const struct gfp_table *t, uint64_t bits)
{
	uint64_t out = 0;
	for (int i = 0; i < GFPF__COUNT; i++)
		if (t->value[i] && (bits & t->value[i]) == t->value[i])
			out |= (uint64_t)1 << i;
	return out;
}

uint64_t gfp_table_from_canon(const struct gfp_table *t, uint64_t canon)
{
	uint64_t out = 0;
	for (int i = 0; i < GFPF__COUNT; i++)
		if (canon & ((uint64_t)1 << i))
			out |= t->value[i];
	return out;
}
