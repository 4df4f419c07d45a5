/* A helper that stores its argument into a field, called in a loop with
 * the same arguments: every call after the first is the same question. */
#include "m.h"

static void m_set_depth(struct m_cfg *c, unsigned long d)
{
	c->depth = d;
}

void m_init(struct m_cfg *c, int n)
{
	int i;

	for (i = 0; i < n; i++)
		m_set_depth(c, 8192);
}
