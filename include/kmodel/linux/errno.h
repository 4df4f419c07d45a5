/* Model of the errno values kernel code returns (asm-generic/errno-base.h). */
#ifndef _KMODEL_LINUX_ERRNO_H
#define _KMODEL_LINUX_ERRNO_H

#define EPERM		1
#define ENOENT		2
#define EINTR		4
#define EIO		5
#define E2BIG		7
#define EAGAIN		11
#define ENOMEM		12
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define ENODEV		19
#define EINVAL		22
#define ENOSPC		28
#define ERANGE		34
#define ENODATA		61
#define EOVERFLOW	75
#define EMSGSIZE	90
#define EOPNOTSUPP	95

#endif
