/* costly-noretry-compacts: __GFP_NORETRY does not keep a costly attempt
 * out of direct compaction on this tree.
 *
 * Finds: a site with an attempt class above PAGE_ALLOC_COSTLY_ORDER that
 * always carries __GFP_NORETRY and may carry __GFP_DIRECT_RECLAIM (classes:
 * see attempts.h), on a tree whose page allocator still runs
 * direct compaction for such requests (read from its mm/page_alloc.c by the
 * slow-path model, see slowpath.h; the built-in "later" model does not).
 * Runs only when there is a tree (or --allocator-model names a model): the
 * built-in default used without one is not a fact about any allocator.
 * Why: in 6.12 a costly __GFP_NORETRY request runs async compaction before
 * it gives up, and unless that compaction was skipped or deferred it goes
 * on with direct reclaim (and drain_all_pages()) and a second compaction.
 * 6.12's __filemap_get_folio() adds NORETRY for its large-folio attempts
 * and still regressed pgbench 0.75x; the upstream fix clears
 * __GFP_DIRECT_RECLAIM for the costly orders at the caller.
 * Known false positives: callers that want the compaction (THP faults,
 * where __GFP_THISNODE makes it compaction-only on purpose); masks without
 * __GFP_IO cannot compact and are not reported.
 */
#include <stdlib.h>
#include "gfpaudit/check.h"
#include "gfpaudit/slowpath.h"
#include "gfpaudit/strbuf.h"
#include "describe.h"
#include "words.h"

/* The highest costly class that always has NORETRY and may direct-reclaim. */
static const struct attempt *costly_noretry_class(const struct site *s, int costly)
{
	const struct attempt *best = NULL;
	for (size_t i = 0; i < s->natt; i++) {
		const struct attempt *a = &s->att[i];
		if (!a->orders.known || a->orders.hi <= costly || !gfp_must(a->gfp, GFPB(NORETRY)) ||
		    !gfp_may(a->gfp, GFPB(DIRECT_RECLAIM)))
			continue;
		if (!best || a->orders.hi > best->orders.hi)
			best = a;
	}
	return best;
}

static void on_site(const struct check *c, const struct site *s, struct check_ctx *ctx)
{
	const struct slowpath_model *m = ctx->facts->model;
	int costly = ctx->facts->costly_order;
	/* a statement about the analyzed tree's allocator: without a tree (and
	 * without --allocator-model) there is no such allocator to speak of.
	 * At a kvmalloc-family call the attempt is the helper's: it is judged
	 * where the helper is defined. */
	if (!m || m->assumed || s->kind == API_KV || !site_can_be_costly(s, costly))
		return;
	const struct attempt *a = costly_noretry_class(s, costly);
	if (!a)
		return;
	struct gfp_bits g = a->gfp;
	/* __GFP_THISNODE and __GFP_NOFAIL change the answer only where an
	 * allocator exempts them (the "later" model keeps compacting for THP's
	 * THISNODE attempt): a mask that merely may carry them is judged without */
	g.may &= ~((GFPB(THISNODE) | GFPB(NOFAIL)) & ~g.must);
	int lo = a->orders.lo > costly ? a->orders.lo : costly + 1, hi = a->orders.hi;
	struct sp_outcome o;
	slowpath_simulate(m, g, hi, &o);
	if (o.compacts == SP_NO) {
		sp_outcome_release(&o);
		return;
	}
	const struct sp_fact *first = &m->facts[SPF_COMPACT_FIRST], *bail = &m->facts[SPF_CN_BAIL_SKIPPED];
	char *d = describe_attempt(s, a);
	char *where = first->file ? xasprintf("%s:%d", first->file, first->line) : xasprintf("built-in model %s", m->name);
	char *orders = lo == hi ? xasprintf("order %d", lo) : xasprintf("orders %d..%d", lo, hi);
	struct finding *f = check_report(c, s, ctx,
		"%s: its costly attempts (%s) have '__GFP_NORETRY' but may direct-reclaim, and this tree's "
		"allocator still runs direct compaction for them (%s)%s; clear '__GFP_DIRECT_RECLAIM' for "
		"orders above %d",
		d, orders, where,
		bail->present ? ", giving up only if it was skipped or deferred, otherwise reclaiming and "
				"compacting again" : "", costly);
	free(orders);
	for (size_t i = 0; i < o.nsteps; i++) {
		const struct sp_fact *x = &m->facts[o.steps[i].fact];
		if (x->file) {
			char *note = xasprintf("allocator: %s", o.steps[i].text);
			site_add_evidence(&f->site, x->file, x->line, note);
			free(note);
		}
	}
	free(where);
	free(d);
	sp_outcome_release(&o);
}

/* The candidate fixes, best first (fix/shapes.c builds them). */
static const struct fix_step fixes[] = {
	{ FIX_STRIP_DIRECT_RECLAIM, 0, 0,
	  "__GFP_NORETRY does not stop the one direct compaction of a costly attempt; "
	  "clearing direct reclaim does" },
	{ 0, 0, 0, NULL },
};

const struct check check_costly_noretry_compacts = {
	.id = "costly-noretry-compacts",
	.rank = 60,
	.severity = SEV_WARNING,
	.judged_by_size = true,
	.summary = "costly __GFP_NORETRY attempt that may direct-reclaim still enters direct compaction on this tree",
	.headline = "__GFP_NORETRY still compacts",
	.on_site = on_site,
	.why = "A costly __GFP_NORETRY attempt still runs one direct compaction before it "
	       "gives up; with a fallback to smaller orders that stall buys nothing.",
	.advice = "Clear __GFP_DIRECT_RECLAIM for the attempts above PAGE_ALLOC_COSTLY_ORDER.",
	.mail_text = "Its costly attempts have __GFP_NORETRY but may still direct-reclaim, and "
		    "this tree's allocator runs direct compaction for such a request before it gives up; "
		    "with a fallback to smaller orders that stall buys nothing.",
	.slowpath_steps = SPB(COMPACT_FIRST) | SPB(COSTLY_NORETRY) | SPB(CN_BAIL_SKIPPED) | SPB(CN_BAIL_THISNODE) |
			  SPB(CN_ASYNC) | SPB(RECLAIM) | SPB(COMPACT_AFTER) | SPB(NORETRY_EXIT),
	.fixes = fixes,
};
