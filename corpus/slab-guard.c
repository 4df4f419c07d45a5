/*
 * Guards that return before the call bound the size: 16 KiB is order 2
 * (past the slab caches, not costly); 1 MiB is order 8.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sizes.h>
#include <linux/errno.h>

struct fw_image {
	void *hdr;
	void *body;
};

int fw_load_hdr(struct fw_image *fw, size_t len)
{
	if (len > SZ_16K)
		return -EINVAL;
	fw->hdr = kmalloc(len, GFP_KERNEL); // ok // site: order=0..2 api=kmalloc
	if (!fw->hdr)
		return -ENOMEM;
	return 0;
}

int fw_load_body(struct fw_image *fw, const void *src, size_t len)
{
	if (len > SZ_1M)
		return -E2BIG;
	fw->body = kmemdup(src, len, GFP_KERNEL); // site: order=0..8 api=kmemdup fallback=none // note: costly-no-fallback
	if (!fw->body)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: sizes bounded by guards (16K: order 0..2, 1M: order 0..8 with kmemdup)
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/slab-guard.c:29:13: note: 'kmemdup' can request order 0..8 (up to 1 MiB): no fallback [costly-no-fallback]
 * corpus/slab-guard.c:29:13: note: gfp GFP_KERNEL
 * corpus/slab-guard.c:29:13: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/slab-guard.c:29:13: note: possible: the size comes from parameter 'len' of fw_load_body(), whose values are not known here
 * check-output-end
 */
