/* Calls ring_setup() and returns its error: ring.c's failure is not
 * handled here (fails:ring_setup answers "propagates"). */
#include <linux/errno.h>
#include "ring.h"

int user_start(struct ring *r)
{
	int err;

	cfg_init(r);
	err = ring_setup(r);
	if (err)
		return err;
	return 0;
}
