/*
 * An overlay-style copy-up reads a lower file's xattr: first the value's
 * size (a NULL buffer), then the value into a buffer of that size.  Users
 * set xattr values; setxattr() refuses more than XATTR_SIZE_MAX (64 KiB),
 * so the size query gives 0..65536: order 0..4.  Any user who may set an
 * xattr on the file picks the top of that range: proven (a warning).  The
 * helper is a static inline that only forwards the VFS call, as overlayfs
 * has it.  The same read into a kvmalloc'd buffer, or capped at a page
 * first, is nothing to report; the value plus a caller's unknown extra is
 * no longer the user's pick alone: likely (a note).
 */
#include <linux/slab.h>
#include <linux/fs.h>
#include <linux/xattr.h>
#include <linux/minmax.h>
#include <linux/errno.h>

struct lower_path {
	struct mnt_idmap *idmap;
	struct dentry *dentry;
};

static inline ssize_t lower_do_getxattr(const struct lower_path *p, const char *name,
					void *value, size_t size)
{
	ssize_t err = vfs_getxattr(p->idmap, p->dentry, name, value, size);

	return err;
}

static ssize_t copy_xattr_value(const struct lower_path *p, const char *name, char **value)
{
	ssize_t res;
	char *buf;

	res = lower_do_getxattr(p, name, NULL, 0);
	if (res == -ENODATA || res == -EOPNOTSUPP)
		res = 0;
	if (res > 0) {
		buf = kzalloc(res, GFP_KERNEL); // warn: costly-no-fallback // site: order=0..4 conf=proven src=user
		if (!buf)
			return -ENOMEM;
		res = lower_do_getxattr(p, name, buf, res);
		if (res < 0)
			kfree(buf);
		else
			*value = buf;
	}
	return res;
}

static ssize_t copy_xattr_value_kv(const struct lower_path *p, const char *name, char **value)
{
	ssize_t res;
	char *buf;

	res = lower_do_getxattr(p, name, NULL, 0);
	if (res <= 0)
		return res;
	buf = kvmalloc(res, GFP_KERNEL); // ok // site: order=0..4 fallback=kvmalloc conf=proven src=user
	if (!buf)
		return -ENOMEM;
	res = lower_do_getxattr(p, name, buf, res);
	if (res < 0)
		kvfree(buf);
	else
		*value = buf;
	return res;
}

static ssize_t peek_xattr_value(struct mnt_idmap *idmap, struct dentry *d, const char *name, char **value)
{
	ssize_t res = vfs_getxattr(idmap, d, name, NULL, 0);
	size_t n;

	if (res <= 0)
		return res;
	n = min_t(size_t, res, 4096);
	*value = kmalloc(n, GFP_KERNEL);
	if (!*value)
		return -ENOMEM;
	return vfs_getxattr(idmap, d, name, *value, n);
}

static ssize_t copy_xattr_value_extra(struct mnt_idmap *idmap, struct dentry *d, const char *name,
				      size_t extra, char **value)
{
	ssize_t res = vfs_getxattr(idmap, d, name, NULL, 0);

	if (res <= 0)
		return res;
	*value = kzalloc(res + extra, GFP_KERNEL); // note: costly-no-fallback // site: conf=likely src=user
	if (!*value)
		return -ENOMEM;
	return vfs_getxattr(idmap, d, name, *value, res);
}

const void *xattr_ops[] = { copy_xattr_value, copy_xattr_value_kv, peek_xattr_value, copy_xattr_value_extra };
/*
 * check-name: an xattr value's size: user data up to XATTR_SIZE_MAX, proven; plus an unknown, likely
 * check-command: gfpaudit audit --severity note $file
 *
 * check-output-start
 * corpus/prov-user-xattr.c:40:9: warning: 'kzalloc' can request order 0..4 (1 byte to 64 KiB): no fallback [costly-no-fallback]
 * corpus/prov-user-xattr.c:40:9: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/prov-user-xattr.c:40:9: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-user-xattr.c:40:9: note: proven: the size comes from the size of an xattr value (line 26), which users set, up to the kernel's limit
 * corpus/prov-user-xattr.c:92:11: note: 'kzalloc' can request order 0..10: no fallback [costly-no-fallback]
 * corpus/prov-user-xattr.c:92:11: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/prov-user-xattr.c:92:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/prov-user-xattr.c:92:11: note: likely: the size comes from the size of an xattr value (line 88), and nothing here bounds it below order 4
 * check-output-end
 */
