/*
 * Memory that is only read, written, indexed and copied, here and in the
 * other functions of the file that see it through a struct field or a
 * parameter: vmalloc memory would serve (kvmalloc is the fix).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/errno.h>

struct stats_buf {
	u64 *counts;
	unsigned int n;
	char *log;
};

static void stats_reset(u64 *c, unsigned int n)
{
	memset(c, 0, n * sizeof(*c));
}

int stats_init(struct stats_buf *sb, unsigned int n)
{
	if (n > 65536)
		return -EINVAL;
	sb->counts = kmalloc_array(n, sizeof(u64), GFP_KERNEL); // note: costly-no-fallback // site: order=0..7 contig=virtual stall=yes
	if (!sb->counts)
		return -ENOMEM;
	sb->n = n;
	stats_reset(sb->counts, n);
	return 0;
}

void stats_hit(struct stats_buf *sb, unsigned int i)
{
	sb->counts[i % sb->n]++;
}

long stats_read(struct stats_buf *sb, void __user *ubuf)
{
	char *tmp = kmalloc(1 << 16, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 contig=virtual
	long ret = 0;

	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, sb->counts, sb->n * sizeof(u64));
	if (copy_to_user(ubuf, tmp, 1 << 16))
		ret = -EFAULT;
	kfree(tmp);
	return ret;
}

void stats_free(struct stats_buf *sb)
{
	kfree(sb->counts);
}

char *stats_log_alloc(struct stats_buf *sb)
{
	sb->log = kmalloc(1 << 15 << 1, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 contig=unknown contigat=63
	return sb->log;
}
/*
 * check-name: virtual-only uses through a field, a same-file callee, memcpy and copy_to_user
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/contig-virtual.c:28:15: note: 'kmalloc_array' can request order 0..7 (up to 512 KiB): no fallback [costly-no-fallback]
 * corpus/contig-virtual.c:28:15: note: gfp GFP_KERNEL
 * corpus/contig-virtual.c:28:15: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/contig-virtual.c:28:15: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/contig-virtual.c:28:15: note: possible: the size comes from parameter 'n' of stats_init(), whose values are not known here
 * corpus/contig-virtual.c:43:14: warning: 'kmalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/contig-virtual.c:43:14: note: gfp GFP_KERNEL
 * corpus/contig-virtual.c:43:14: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/contig-virtual.c:43:14: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/contig-virtual.c:43:14: note: proven: every path asks for more than order 3
 * corpus/contig-virtual.c:62:12: warning: 'kmalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/contig-virtual.c:62:12: note: gfp GFP_KERNEL
 * corpus/contig-virtual.c:62:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/contig-virtual.c:62:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
