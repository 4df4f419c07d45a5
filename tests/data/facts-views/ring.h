/* The view cases (t69): what a judgement takes from the fact base, and
 * nothing else, decides whether it is judged again.  cfg.c stores a
 * constant into ring.depth, ring.c allocates with that field and hands
 * its failure back, user.c calls ring.c and hands the failure on. */
#include <linux/types.h>

struct ring {
	u32 depth;       /* stored by cfg_init() */
	void *buf;
	void *slots;
};

void cfg_init(struct ring *r);
int ring_setup(struct ring *r);
int user_start(struct ring *r);
