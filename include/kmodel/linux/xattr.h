/* Model of include/linux/xattr.h and the uapi limit it relies on. */
#ifndef _KMODEL_LINUX_XATTR_H
#define _KMODEL_LINUX_XATTR_H
#include <linux/types.h>

#define XATTR_NAME_MAX 255	/* chars in an extended attribute name */
#define XATTR_SIZE_MAX 65536	/* size of an extended attribute value (64k) */
#define XATTR_LIST_MAX 65536	/* size of extended attribute namelist (64k) */

struct mnt_idmap;
struct dentry;

ssize_t __vfs_getxattr(struct dentry *dentry, struct inode *inode, const char *name,
		       void *value, size_t size);
ssize_t vfs_getxattr(struct mnt_idmap *idmap, struct dentry *dentry, const char *name,
		     void *value, size_t size);

#endif
