/*
 * A table set up once and grown later: the first branch's allocation
 * returns on failure and the branch ends in a return, so the allocation
 * of the grow branch below (into the same local) never runs after it
 * failed: no fallback.  The same for two cases of a switch, and for a
 * failure that returns from an else branch.  A branch that goes on past
 * its block when the first attempt fails (or jumps there) keeps the
 * second attempt as its fallback.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/printk.h>

#define NCLASS	8

struct slot_ctx {
	unsigned long handle;
	unsigned long teid;
	unsigned long stats[6];
};

struct slot_tab {
	struct slot_ctx *ctx[NCLASS];
	unsigned short n[NCLASS];
};

int slot_tab_size(struct slot_tab *t, int c, unsigned short want)
{
	struct slot_ctx *q;

	if (!t->ctx[c]) {
		q = kcalloc(1024, sizeof(*q), GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 fallback=none
		if (!q)
			return -ENOMEM;
		t->ctx[c] = q;
		t->n[c] = 1024;
		return 0;
	}
	if (want > 256)
		return -EINVAL;
	if (want > t->n[c]) {
		q = kcalloc(want, sizeof(*q), GFP_KERNEL); // ok // site: order=0..2 fallback=none
		if (!q)
			return -ENOMEM;
		memcpy(q, t->ctx[c], t->n[c] * sizeof(*q));
		kfree(t->ctx[c]);
		t->ctx[c] = q;
		t->n[c] = want;
	}
	return 0;
}

void *slot_buf(int big)
{
	void *p = NULL;

	if (big) {
		p = kmalloc(64 * 1024, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN); // ok // site: order=4..4 fallback=lower-order fbat=64
		if (p)
			return p;
	}
	p = kmalloc(4096, GFP_KERNEL);
	return p;
}
/* two cases of a switch: the second case's copy is not the first one's */
void slot_copy_update(void **copy, const void *rec, int op, size_t len)
{
	void *p;

	switch (op) {
	case 1:
		p = kmemdup(rec, 64 * 1024, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 fallback=none
		if (p) {
			kfree(*copy);
			*copy = p;
		}
		break;
	case 2:
		p = kmemdup(rec, len, GFP_KERNEL); // ok // site: fallback=none
		if (p) {
			kfree(*copy);
			*copy = p;
		}
		break;
	}
}

/* a goto from the branch's failure reaches the second attempt: a fallback */
void *slot_buf_goto(int big)
{
	void *p;

	if (big) {
		p = kmalloc(64 * 1024, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN); // ok // site: order=4..4 fallback=lower-order
		if (!p)
			goto small;
		return p;
	}
small:
	p = kmalloc(4096, GFP_KERNEL);
	return p;
}
/* two sections with a local of the same name each: the first one's
 * failure returns from its else branch, the second section's buffer is
 * another one */
void slot_upload(const unsigned char *data, unsigned short n1, unsigned short n2,
		 void (*send)(void *buf, int len))
{
	if (n1) {
		unsigned char *buf = kmalloc(64 * 1024, GFP_KERNEL); // warn: costly-no-fallback // site: order=4..4 fallback=none
		if (buf) {
			memcpy(buf, data, n1);
			send(buf, n1);
			kfree(buf);
		} else {
			pr_err("no upload buffer\n");
			return;
		}
	}
	if (n2) {
		unsigned char *buf = kmalloc(4096, GFP_KERNEL);
		if (!buf)
			return;
		memcpy(buf, data + n1, n2 > 4096 ? 4096 : n2);
		send(buf, n2);
		kfree(buf);
	}
}
/*
 * check-name: an allocation in a branch that returns has no fallback below the branch
 *
 * check-output-start
 * corpus/fallback-shape-other-branch.c:34:7: warning: 'kcalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-shape-other-branch.c:34:7: note: gfp GFP_KERNEL | __GFP_ZERO
 * corpus/fallback-shape-other-branch.c:34:7: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-shape-other-branch.c:34:7: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/fallback-shape-other-branch.c:34:7: note: proven: every path asks for more than order 3
 * corpus/fallback-shape-other-branch.c:74:7: warning: 'kmemdup' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-shape-other-branch.c:74:7: note: gfp GFP_KERNEL
 * corpus/fallback-shape-other-branch.c:74:7: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-shape-other-branch.c:74:7: note: proven: every path asks for more than order 3
 * corpus/fallback-shape-other-branch.c:112:24: warning: 'kmalloc' can request order 4 (64 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-shape-other-branch.c:112:24: note: gfp GFP_KERNEL
 * corpus/fallback-shape-other-branch.c:112:24: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-shape-other-branch.c:112:24: note: proven: every path asks for more than order 3
 * check-output-end
 */
