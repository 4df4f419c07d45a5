/* The caller-fallback cases (t68): pool.c allocates and hands every
 * failure back; user.c calls it and copes -- or not.  Each function of
 * pool.c has its own way of being called:
 *   pool_fill_chunks   the caller retries with a smaller chunk
 *   pool_table_alloc   the caller falls back to vmalloc
 *   pool_trace_enable  the caller goes on without tracing
 *   pool_ring_setup    the caller returns the error: still a finding
 *   pool_stage_alloc   one caller goes on, one returns the error: still a finding
 *   pool_hook_alloc    its address goes into an ops table: callers unseen
 * and pool_ctx_create returns a 72 KiB context that pool.c frees in
 * pool_ctx_destroy and user.c frees itself too (a kvzalloc fix must see
 * both: frees.h). */
#include <linux/types.h>

struct pool_set {
	void *table;
	void *trace;
	void *ring;
	void *stage;
	void *hook;
	struct page *chunk[64];
	unsigned int nchunks;
	bool tracing;
};

struct pool_ctx {
	unsigned long slots[9216];
};

struct pool_ops {
	int (*grow)(struct pool_set *ps);
};

int pool_fill_chunks(struct pool_set *ps, unsigned int unit);
void *pool_table_alloc(void);
int pool_trace_enable(struct pool_set *ps);
int pool_ring_setup(struct pool_set *ps);
int pool_stage_alloc(struct pool_set *ps);
int pool_hook_alloc(struct pool_set *ps);
void pool_note(const char *what);
struct pool_ctx *pool_ctx_create(void);
void pool_ctx_destroy(struct pool_ctx **pc);
