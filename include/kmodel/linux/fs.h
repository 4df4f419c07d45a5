/* Model of the parts of include/linux/fs.h the page cache uses. */
#ifndef _KMODEL_LINUX_FS_H
#define _KMODEL_LINUX_FS_H
#include <linux/types.h>
#include <linux/gfp_types.h>

struct inode;

struct address_space {
	struct inode *host;
	unsigned long nrpages;
	gfp_t gfp_mask;		/* what allocations for this mapping may use */
	unsigned long flags;	/* AS_* bits, folio order range */
	void *i_private_data;
};

struct inode {
	unsigned long i_ino;
	loff_t i_size;
	struct address_space *i_mapping;
	struct address_space i_data;
	unsigned int i_blkbits;
};

struct file {
	struct inode *f_inode;
	struct address_space *f_mapping;
	fmode_t f_mode;
	loff_t f_pos;
	void *private_data;
};

static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}

#endif
