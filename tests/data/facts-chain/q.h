/* The chain cases (t67): q_init.c stores a constant into a field,
 * q_setup.c passes that field to q_ring_alloc() in q_ring.c, which
 * allocates with it.  d_buf.c is unrelated: it bounds its own field. */
#include <linux/types.h>

struct q_cfg {
	u32 depth;       /* stored by q_init() */
	void *ring;
};

void q_init(struct q_cfg *c);
int q_setup(struct q_cfg *c);
int q_ring_alloc(struct q_cfg *c, unsigned int n);
