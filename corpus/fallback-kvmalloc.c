/*
 * The kvmalloc family falls back to vmalloc by itself and makes its kmalloc
 * attempt NORETRY|NOWARN: big sizes give sites, never findings.
 */
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct hash_bucket {
	void *head;
	u64 seq;
};

struct index {
	void *bitmap;
	u64 *keys;
	struct hash_bucket *buckets;
	void *log;
};

int index_init(struct index *ix, unsigned int nkeys, unsigned int nbuckets)
{
	if (nkeys > 65536 || nbuckets > 65536)
		return -EINVAL;
	ix->bitmap = kvmalloc(SZ_1M, GFP_KERNEL); // ok // site: order=8..8 fallback=kvmalloc api=kvmalloc
	if (!ix->bitmap)
		return -ENOMEM;
	ix->keys = kvcalloc(nkeys, sizeof(u64), GFP_KERNEL); // ok // site: fallback=kvmalloc api=kvcalloc
	if (!ix->keys)
		goto free_bitmap;
	ix->buckets = kvmalloc_array(nbuckets, sizeof(*ix->buckets), GFP_KERNEL); // ok // site: fallback=kvmalloc api=kvmalloc_array
	if (!ix->buckets)
		goto free_keys;
	ix->log = kvzalloc(SZ_4M, GFP_KERNEL); // ok // site: fallback=kvmalloc api=kvzalloc
	if (!ix->log)
		goto free_buckets;
	return 0;

free_buckets:
	kvfree(ix->buckets);
free_keys:
	kvfree(ix->keys);
free_bitmap:
	kvfree(ix->bitmap);
	return -ENOMEM;
}
/*
 * check-name: kvmalloc, kvcalloc, kvmalloc_array, kvzalloc of big sizes: no finding
 *
 * check-output-start
 * check-output-end
 */
