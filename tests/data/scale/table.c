// a test input written for gfpaudit
/* gfpaudit test input (scale suite): a table sized by a caller. */
#include <linux/slab.h>

struct table {
	unsigned long *slots;
	size_t n;
};

int table_init(struct table *t, size_t n)
{
	t->slots = kmalloc_array(n, sizeof(*t->slots), GFP_KERNEL);
	if (!t->slots)
		return -12;
	t->n = n;
	return 0;
}
