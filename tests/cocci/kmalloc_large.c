// a test input written for gfpaudit
/*
 * Test input for rules/kmalloc_large.cocci (tests/t30-cocci.sh).
 * A line that must be reported ends with "cocci: RULE-ID"; every other
 * line must stay quiet ("cocci: ok" marks the interesting misses).
 */
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/vmalloc.h>

#define STATS_SLOTS	4096
#define HASH_BYTES	(16 * PAGE_SIZE)

struct stats {
	u64 *slots;
	void *hash;
	char *scratch;
	void *small;
};

static int stats_init(struct stats *s)
{
	s->slots = kcalloc(STATS_SLOTS, 16, GFP_KERNEL); // cocci: costly-no-fallback
	if (!s->slots)
		return -ENOMEM;
	s->hash = kzalloc(HASH_BYTES, GFP_KERNEL); // cocci: costly-no-fallback
	if (!s->hash) {
		kfree(s->slots);
		return -ENOMEM;
	}
	return 0;
}

static void stats_exit(struct stats *s)
{
	kfree(s->hash);
	kfree(s->slots);
}

static char *scratch_get(void)
{
	char *buf = kmalloc(SZ_64K, GFP_KERNEL); // cocci: costly-no-fallback

	if (!buf)
		return NULL;
	buf[0] = 0;
	return buf;
}

static void scratch_put(char *buf)
{
	kfree(buf);
}

/* 32 KiB is order 3: not costly */
static int small_init(struct stats *s)
{
	s->small = kmalloc(SZ_32K, GFP_KERNEL); // cocci: ok
	if (!s->small)
		return -ENOMEM;
	return 0;
}

/* a vmalloc fallback already */
static int hash_init_fallback(struct stats *s)
{
	s->hash = kmalloc(SZ_128K, GFP_KERNEL | __GFP_NOWARN); // cocci: costly-no-noretry
	if (!s->hash)
		s->hash = vmalloc(SZ_128K);
	return s->hash ? 0 : -ENOMEM;
}

/* cannot sleep: reported, but the patch leaves it alone */
static int atomic_init(struct stats *s)
{
	s->scratch = kmalloc_array(16, SZ_4K, GFP_ATOMIC); // cocci: costly-no-fallback nopatch
	if (!s->scratch)
		return -ENOMEM;
	return 0;
}

/* a size the rule cannot evaluate */
static int sized_init(struct stats *s, size_t n)
{
	s->hash = kmalloc(n, GFP_KERNEL); // cocci: ok
	if (!s->hash)
		return -ENOMEM;
	return 0;
}

/* already kvmalloc */
static int kv_init(struct stats *s)
{
	s->slots = kvcalloc(STATS_SLOTS, 16, GFP_KERNEL); // cocci: ok
	if (!s->slots)
		return -ENOMEM;
	return 0;
}
