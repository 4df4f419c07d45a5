/*
 * A condition that only names the buffer is no NULL test: after a failed
 * copy into it the function allocates another buffer, which is no fallback
 * of the first.  A real test of the pointer inside a top-level || still is.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/errno.h>

struct rec_dev {
	char *log;
	char *spare;
};

bool rec_fill(char *dst, unsigned long len);

unsigned long rec_copy_in(char *dst, unsigned long len);

int rec_write(struct rec_dev *d)
{
	char *buf, *pages;
	int rc = 0;

	buf = kcalloc(8192, 8, GFP_KERNEL); // warn: costly-no-fallback // site: fallback=none
	if (!buf)
		return -ENOMEM;
	if (rec_copy_in(buf, 65536)) {
		rc = -EFAULT;
		goto out;
	}
	pages = kcalloc(16, sizeof(*pages), GFP_KERNEL);
	if (!pages) {
		rc = -ENOMEM;
		goto out;
	}
	d->spare = pages;
out:
	kfree(buf);
	return rc;
}

int rec_open(struct rec_dev *d)
{
	char *buf;

	buf = kmalloc(65536, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN); // site: fallback=lower-order
	if (!buf || !rec_fill(buf, 65536))
		buf = kmalloc(4096, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	d->log = buf;
	return 0;
}
/*
 * check-name: a condition naming the buffer is no NULL test; a later allocation of another buffer is no fallback
 *
 * check-output-start
 * corpus/fallback-shape-names-pointer.c:25:8: warning: 'kcalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-shape-names-pointer.c:25:8: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/fallback-shape-names-pointer.c:25:8: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-shape-names-pointer.c:25:8: note: proven: every path asks for more than order 3
 * check-output-end
 */
