/*
 * A setup helper fills a table's fields through the pointer it is given,
 * then its caller allocates with one of them.  The helper's stores on this
 * call are what the caller reads: a flow table set up with 8192 entries
 * makes a 64 KiB per-flow array, order 4, on every path (proven).  The
 * same helper given 64 entries leaves nothing costly; a helper that stores
 * only on some paths, or not at all, proves nothing.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <linux/errno.h>

struct flow_tab {
	u32 cnt;
	u32 quantum;
	u32 limit;
};

struct flow_dev {
	struct flow_tab tab;
	u64 *vars;
};

static int flow_tab_init(struct flow_tab *t, int cnt)
{
	memset(t, 0, sizeof(*t));
	t->cnt = max_t(u32, cnt, 1);
	t->quantum = 300;
	t->limit = 8192;
	return 0;
}

static void flow_tab_maybe_grow(struct flow_tab *t, bool grow)
{
	if (grow)
		t->cnt = 8192;
}

int flow_dev_setup(struct flow_dev *d)
{
	struct flow_tab *t = &d->tab;
	int ret;

	ret = flow_tab_init(t, 8192);
	if (ret)
		return ret;
	d->vars = kcalloc(t->cnt, sizeof(d->vars[0]), GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 conf=proven src=const
	if (!d->vars)
		return -ENOMEM;
	return 0;
}

int flow_dev_setup_small(struct flow_dev *d)
{
	int ret;

	ret = flow_tab_init(&d->tab, 64);
	if (ret)
		return ret;
	d->vars = kcalloc(d->tab.cnt, sizeof(d->vars[0]), GFP_KERNEL);
	if (!d->vars)
		return -ENOMEM;
	return 0;
}

int flow_dev_setup_maybe(struct flow_dev *d, bool grow)
{
	flow_tab_maybe_grow(&d->tab, grow);
	d->vars = kcalloc(d->tab.cnt, sizeof(d->vars[0]), GFP_KERNEL); // site: order=?
	if (!d->vars)
		return -ENOMEM;
	return 0;
}
/*
 * check-name: a setup helper's stores through its pointer parameter reach the caller's allocation
 *
 * check-output-start
 * corpus/dataflow-helper-stores.c:49:12: warning: 'kcalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/dataflow-helper-stores.c:49:12: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/dataflow-helper-stores.c:49:12: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/dataflow-helper-stores.c:49:12: note: proven: every path asks for more than order 3
 * check-output-end
 */
