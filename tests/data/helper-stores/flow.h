/* A flow table's setup helper lives in a header, as a static function the
 * including file compiles: it stores its counts through the pointer it is
 * given (the shape of fq_init() in include/net/fq_impl.h). */
#include <linux/types.h>
#include <linux/string.h>
#include <linux/minmax.h>

struct flow_tab {
	u32 cnt;
	u32 quantum;
};

static int flow_tab_init(struct flow_tab *t, int cnt)
{
	memset(t, 0, sizeof(*t));
	t->cnt = max_t(u32, cnt, 1);
	t->quantum = 300;
	return 0;
}

static inline void flow_tab_maybe_grow(struct flow_tab *t, bool grow)
{
	if (grow)
		t->cnt = 8192;
}

/* Walks to the last table of a chain and sizes that one: its stores at the
 * exit are another table's, not the argument's. */
struct flow_chain {
	struct flow_chain *next;
	u32 cnt;
};

static inline void flow_chain_size_last(struct flow_chain *c)
{
	while (c->next)
		c = c->next;
	c->cnt = 8192;
}
