/*
 * The caller lowers a variable it passed (the card index) and jumps on to
 * its error label, and another caller stores its own error code: neither
 * retries, so the helper's costly attempt has no fallback.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/errno.h>

#define CARD_STATE_BYTES	(96 * 1024)
#define CARD_ERR_NOMEM		7

struct card {
	void *state;
};

static struct card *cards[8];

static int card_init(int index)
{
	cards[index]->state = kzalloc(CARD_STATE_BYTES, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 fallback=none
	if (!cards[index]->state)
		return -ENOMEM;
	return 0;
}

int card_probe(int index)
{
	int error;

	index++;
	error = card_init(index);
	if (error) {
		index--;
		goto err_out;
	}
	return 0;
err_out:
	return error;
}

int card_reinit(int index, int *status)
{
	if (card_init(index))
		*status = CARD_ERR_NOMEM;
	return 0;
}
/*
 * check-name: a forward goto after lowering an argument, and a driver error code: no caller fallback
 *
 * check-output-start
 * corpus/fallback-caller-goto-forward.c:21:24: warning: 'kzalloc' can request order 5 (96 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-caller-goto-forward.c:21:24: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/fallback-caller-goto-forward.c:21:24: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-goto-forward.c:21:24: note: proven: every path asks for more than order 3
 * check-output-end
 */
