#include <string.h>
#include "gfpaudit/gfp.h"
#include "gfpaudit/strbuf.h"

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

void gfp_flags_text(struct strbuf *sb, uint64_t set, const char *sep, const char *none)
{
	int n = 0;
	for (int i = 0; i < GFPF__COUNT; i++)
		if (set & ((uint64_t)1 << i))
			strbuf_addf(sb, "%s%s", n++ ? sep : "", names[i]);
	if (!n)
		strbuf_adds(sb, none);
}

/* The GFP_* masks of include/linux/gfp_types.h that are unions of single
 * flags in every kernel gfpaudit reads, largest first (the first one a set
 * holds is the one to write). */
#define RECLAIM (GFPB(DIRECT_RECLAIM) | GFPB(KSWAPD_RECLAIM))
static const struct { const char *name; uint64_t set; } composites[] = {
	{ "GFP_HIGHUSER", RECLAIM | GFPB(IO) | GFPB(FS) | GFPB(HARDWALL) | GFPB(HIGHMEM) },
	{ "GFP_USER", RECLAIM | GFPB(IO) | GFPB(FS) | GFPB(HARDWALL) },
	{ "GFP_KERNEL_ACCOUNT", RECLAIM | GFPB(IO) | GFPB(FS) | GFPB(ACCOUNT) },
	{ "GFP_KERNEL", RECLAIM | GFPB(IO) | GFPB(FS) },
	{ "GFP_NOFS", RECLAIM | GFPB(IO) },
	{ "GFP_NOIO", RECLAIM },
	{ "GFP_ATOMIC", GFPB(HIGH) | GFPB(KSWAPD_RECLAIM) },
	{ "GFP_NOWAIT", GFPB(KSWAPD_RECLAIM) },
};

void gfp_kernel_text(struct strbuf *sb, uint64_t set, const char *none)
{
	const char *base = NULL;
	for (size_t i = 0; !base && i < sizeof(composites) / sizeof(composites[0]); i++)
		if ((set & composites[i].set) == composites[i].set) {
			base = composites[i].name;
			set &= ~composites[i].set;
		}
	if (base)
		strbuf_adds(sb, base);
	if (base && set)
		strbuf_adds(sb, " | ");
	if (set || !base)
		gfp_flags_text(sb, set, " | ", none);
}

void gfp_bits_text(struct strbuf *sb, struct gfp_bits g)
{
	gfp_kernel_text(sb, g.must, "0");
	if (g.may == GFP_ALL_BITS)
		strbuf_adds(sb, ", maybe any other flag");
	else if (g.may & ~g.must) {
		strbuf_adds(sb, ", maybe ");
		gfp_flags_text(sb, g.may & ~g.must, " | ", "0");
	}
}
