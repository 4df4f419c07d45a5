/*
 * Callers of the kvmalloc family: the kmalloc attempt and its mask belong
 * to the helper, so no rule about that attempt's mask fires here, even on
 * the 6.12 allocator model; the fallback is kvmalloc's own vmalloc.
 */
#include <linux/slab.h>

struct tbl {
	u32 *slots;
	void *ctx;
};

int tbl_init(struct tbl *t)
{
	t->slots = kvzalloc(65536, GFP_KERNEL); // ok // site: order=4..4 fallback=kvmalloc must=NORETRY|NOWARN
	if (!t->slots)
		return -ENOMEM;
	t->ctx = kvmalloc(1 << 20, GFP_KERNEL); // ok // site: order=8..8 fallback=kvmalloc
	if (!t->ctx) {
		kvfree(t->slots);
		return -ENOMEM;
	}
	return 0;
}
/*
 * check-name: kvmalloc-family callers carry no finding about the helper's attempt
 * check-command: gfpaudit audit --allocator-model 6.12 $file
 *
 * check-output-start
 * check-output-end
 */
