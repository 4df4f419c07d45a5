/*
 * A u16 length can be up to 65535 bytes: kmalloc hands that to the page
 * allocator at order 4.  A u8 length never leaves the slab caches and is
 * not a page-allocator site.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/errno.h>

struct blob {
	void *data;
	void *tag;
	u16 len;
};

int blob_set(struct blob *b, const void *src, u16 len, u8 tag_len)
{
	void *buf;

	buf = kmalloc(len, GFP_KERNEL); // site: order=0..4 api=kmalloc fallback=none // note: costly-no-fallback
	if (!buf)
		return -ENOMEM;
	memcpy(buf, src, len);
	b->tag = kmalloc(tag_len, GFP_KERNEL);
	if (!b->tag) {
		kfree(buf);
		return -ENOMEM;
	}
	b->data = buf;
	b->len = len;
	return 0;
}
/*
 * check-name: kmalloc of a u16 length (order 0..4); a u8 length is no site
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/slab-u16-len.c:20:8: note: 'kmalloc' can request order 0..4 (up to 65535 bytes): no fallback [costly-no-fallback]
 * corpus/slab-u16-len.c:20:8: note: gfp GFP_KERNEL
 * corpus/slab-u16-len.c:20:8: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/slab-u16-len.c:20:8: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/slab-u16-len.c:20:8: note: possible: the size comes from parameter 'len' of blob_set(), whose values are not known here
 * check-output-end
 */
