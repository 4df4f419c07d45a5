/* Allocations sized by what the header's helper stored on this path. */
#include <linux/slab.h>
#include <linux/errno.h>
#include "flow.h"

struct flow_dev {
	struct flow_tab tab;
	u64 *vars;
};

int flow_dev_big(struct flow_dev *d)
{
	struct flow_tab *t = &d->tab;
	int ret = flow_tab_init(t, 8192);

	if (ret)
		return ret;
	d->vars = kcalloc(t->cnt, sizeof(d->vars[0]), GFP_KERNEL);
	return d->vars ? 0 : -ENOMEM;
}

int flow_dev_small(struct flow_dev *d)
{
	int ret = flow_tab_init(&d->tab, 64);

	if (ret)
		return ret;
	d->vars = kcalloc(d->tab.cnt, sizeof(d->vars[0]), GFP_KERNEL);
	return d->vars ? 0 : -ENOMEM;
}

int flow_dev_maybe(struct flow_dev *d, bool grow)
{
	flow_tab_maybe_grow(&d->tab, grow);
	d->vars = kcalloc(d->tab.cnt, sizeof(d->vars[0]), GFP_KERNEL);
	return d->vars ? 0 : -ENOMEM;
}

int flow_chain_alloc(struct flow_chain *c, u64 **vars)
{
	flow_chain_size_last(c);
	*vars = kcalloc(c->cnt, sizeof(u64), GFP_KERNEL);
	return *vars ? 0 : -ENOMEM;
}
