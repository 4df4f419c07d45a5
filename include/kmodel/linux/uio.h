#ifndef _KMODEL_LINUX_UIO_H
#define _KMODEL_LINUX_UIO_H
#include <linux/types.h>

struct iov_iter {
	u8 iter_type;
	size_t iov_offset;
	size_t count;
};
static inline size_t iov_iter_count(const struct iov_iter *i)
{
	return i->count;
}

#endif
