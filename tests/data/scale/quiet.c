// a test input written for gfpaudit
/* gfpaudit test input (scale suite): no allocation at all. */
#include <linux/types.h>

static int sum(const int *v, int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += v[i];
	return s;
}

int quiet_sum(const int *v, int n)
{
	return sum(v, n);
}
