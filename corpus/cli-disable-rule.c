/*
 * --disable turns a rule off: the markers (checked with the default rules)
 * still see the finding, the command's output does not.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct area {
	struct page *page;
};

int area_init(struct area *a)
{
	a->page = alloc_pages(GFP_KERNEL, 5); // warn: costly-no-fallback // site: order=5..5 fallback=none
	if (!a->page)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: --disable costly-no-fallback silences the only finding
 * check-command: gfpaudit audit --disable costly-no-fallback $file
 * check-exit-value: 0
 *
 * check-output-start
 * check-output-end
 */
