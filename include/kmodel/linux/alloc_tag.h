/* Model of include/linux/alloc_tag.h: since 6.10 every allocation API is a
 * macro that wraps its *_noprof function in alloc_hooks(), a statement
 * expression.  In the AST the call is to the *_noprof function, inside the
 * expansion of the name the user wrote. */
#ifndef _KMODEL_LINUX_ALLOC_TAG_H
#define _KMODEL_LINUX_ALLOC_TAG_H
#include <linux/compiler.h>

struct alloc_tag {
	const char *function;
	const char *filename;
	int lineno;
};

static inline struct alloc_tag *alloc_tag_save(struct alloc_tag *tag)
{
	return tag;
}

static inline void alloc_tag_restore(struct alloc_tag *tag, struct alloc_tag *old)
{
	(void)tag;
	(void)old;
}

#define DEFINE_ALLOC_TAG(_alloc_tag) \
	static struct alloc_tag _alloc_tag __maybe_unused = { __func__, __FILE__, __LINE__ }

#define alloc_hooks_tag(_tag, _do_alloc)				\
({									\
	struct alloc_tag * __maybe_unused _old = alloc_tag_save(_tag);	\
	typeof(_do_alloc) _res = _do_alloc;				\
	alloc_tag_restore(_tag, _old);					\
	_res;								\
})

#define alloc_hooks(_do_alloc)						\
({									\
	DEFINE_ALLOC_TAG(_alloc_tag);					\
	alloc_hooks_tag(&_alloc_tag, _do_alloc);			\
})

#endif
