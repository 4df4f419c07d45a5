/* The forwarding cases (t68-facts-forwarded): zero.c allocates in static
 * functions whose failure an exported function of zero.c hands back to
 * its callers; user.c calls the exported functions and copes -- or not.
 *   zero_get        (zero_alloc_big)    user.c falls back to one page, or
 *                                       to small pages (ZF_FALLBACK after
 *                                       a goto); zero.c's own zero_ref()
 *                                       discards the result
 *   zero_deep_get   (zero_alloc_deep, through the static zero_deep_fill)
 *                                       user.c goes on without it
 *   zero_ring_get   (zero_alloc_ring)   user.c returns -ENOMEM: a finding
 *   zero_spare_get  (zero_alloc_spare)  nobody calls it: a finding */
#include <linux/types.h>

struct page;

enum zfault {
	ZF_DONE,
	ZF_OOM,
	ZF_FALLBACK,
};

struct zctx {
	struct page *big;
	struct page *deep;
	struct page *ring;
	struct page *spare;
	bool have_deep;
};

struct page *zero_get(struct zctx *c);
struct page *zero_deep_get(struct zctx *c);
struct page *zero_ring_get(struct zctx *c);
struct page *zero_spare_get(struct zctx *c);
void zero_ref(struct zctx *c);
void zero_note(const char *what);
