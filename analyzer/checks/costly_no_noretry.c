/* costly-no-noretry: an opportunistic costly attempt that may stall.
 *
 * Finds: a site with an attempt class above PAGE_ALLOC_COSTLY_ORDER that has a
 * fallback after it, may set __GFP_DIRECT_RECLAIM and does not always set
 * __GFP_NORETRY (classes: see attempts.h).  Never at a kvmalloc-family call:
 * that attempt and its mask belong to the helper.
 * Why: the caller can live without the large block (it has a fallback), yet
 * the allocator will run direct compaction and reclaim, and retry, for it.
 * This is the iomap/filemap buffered-write regression (pgbench 0.75x).
 * Not reported where the tree's allocator does the same with __GFP_NORETRY as
 * without it (a mask without __GFP_IO: no compaction, and a costly order gives
 * up after one reclaim round either way): the flag is no fix there.
 * Known false positives: masks that come from a parameter the callers always
 * restrict (the rule sees only this file); sysfs-tuned THP masks.
 */
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/check.h"
#include "describe.h"
#include "words.h"
#include "gfpaudit/slowpath.h"

/* The slow path's work: compaction, reclaim, draining, their retries, the
 * OOM killer (how it then gives up is not work). */
static bool work_step(enum sp_fact_id f)
{
	return f == SPF_COMPACT_FIRST || f == SPF_RECLAIM || f == SPF_DRAIN || f == SPF_COMPACT_AFTER ||
	       f == SPF_RECLAIM_RETRY || f == SPF_COMPACT_RETRY || f == SPF_OOM;
}

static const struct sp_step *next_work(const struct sp_outcome *o, size_t *i)
{
	for (; *i < o->nsteps; (*i)++)
		if (work_step(o->steps[*i].fact))
			return &o->steps[(*i)++];
	return NULL;
}

/* Does the slow path do the same work for `g` at `order` as for `g` with
 * __GFP_NORETRY?  Then adding it changes nothing (no model: it may). */
static bool noretry_changes_nothing(const struct slowpath_model *m, struct gfp_bits g, int order)
{
	if (!m)
		return false;
	struct gfp_bits nr = { g.must | GFPB(NORETRY), g.may | GFPB(NORETRY) };
	struct sp_outcome a, b;
	slowpath_simulate(m, g, order, &a);
	slowpath_simulate(m, nr, order, &b);
	bool same = a.compacts == b.compacts && a.reclaims == b.reclaims && a.retries == b.retries && a.oom == b.oom;
	size_t i = 0, j = 0;
	for (const struct sp_step *x, *y; same;) {
		x = next_work(&a, &i);
		y = next_work(&b, &j);
		if (!x || !y) {
			same = !x && !y;
			break;
		}
		same = x->fact == y->fact && x->when == y->when && !strcmp(x->text, y->text);
	}
	sp_outcome_release(&a);
	sp_outcome_release(&b);
	return same;
}

/* Why a finding is only a note, or NULL.  Judged on the whole 6.12 tree
 * (bench/accuracy/issue14-precision-f.md, 44 rows): where the code goes on
 * without the block (a feature off, here or in every caller) or its
 * callers get it another way, none of 25 was worth a change.  (An order
 * loop whose mask may carry __GFP_NORETRY, none of 8 either; but a mask
 * the site does not know — a gfp_t parameter — "may" too, and those stay.) */
static const char *quiet_fallback(const struct site *s)
{
	switch (s->fallback) {
	case FB_FEATURE_OFF:
	case FB_CALLER_OFF:
		return "the code goes on without the block, once; a stall there is rarely worth the flag";
	case FB_CALLER_PATH:
		return "the callers get it another way; a stall there is rarely worth the flag";
	default:
		return NULL;
	}
}

static void on_site(const struct check *c, const struct site *s, struct check_ctx *ctx)
{
	int costly = ctx->facts->costly_order;
	/* a kvmalloc-family call: the kmalloc attempt and its mask are the helper's */
	if (s->kind == API_KV || !site_can_be_costly(s, costly))
		return;
	for (size_t i = 0; i < s->natt; i++) {
		const struct attempt *a = &s->att[i];
		if (a->role != ROLE_FALLBACK || !a->orders.known || a->orders.hi <= costly)
			continue;
		if (!gfp_may(a->gfp, GFPB(DIRECT_RECLAIM)) || gfp_must(a->gfp, GFPB(NORETRY)) ||
		    noretry_changes_nothing(ctx->facts->model, a->gfp, a->orders.hi))
			continue;
		char *d = describe_attempt(s, a);
		const char *why = quiet_fallback(s);
		/* a mask picked among known ones (a policy: THP defrag, a pool's
		 * flags) that may hold __GFP_NORETRY: whether this attempt stalls
		 * is the policy's call (judged: 0 of 8 such rows worth a change,
		 * bench/accuracy/issue14-precision-f.md); a mask the site does not
		 * know at all (a gfp_t parameter: every bit "may") stays */
		if (!why && gfp_may(a->gfp, GFPB(NORETRY)) && (a->gfp.may | a->gfp.must) != GFP_ALL_BITS)
			why = "the mask may carry __GFP_NORETRY already, as the policy that picks it decides";
		struct finding *f = check_report(c, s, ctx, "%s: the attempt has a fallback yet may enter direct reclaim "
						 "without '__GFP_NORETRY', so it can stall in compaction and reclaim%s%s",
						 d, why ? "; a note: " : "", why ? why : "");
		if (why && f->severity > SEV_NOTE)
			f->severity = SEV_NOTE;
		/* a hand-rolled kvmalloc: its author expects sizes past the
		 * slab's reach, so a likely size is one (judged on the whole
		 * 6.12 tree: both such rows worth a change, 4 of the 5 vmalloc
		 * rows pooled; bench/accuracy/issue14-precision-f.md) */
		if (!why && s->fallback == FB_VMALLOC && s->conf == CONF_LIKELY && f->severity < c->severity) {
			f->severity = c->severity;
			char *m = xasprintf("%s; a warning although the size is only likely: the vmalloc fallback "
					    "says the code expects such sizes", f->message);
			free(f->message);
			f->message = m;
		}
		free(d);
		return;
	}
}

static void mail(const struct check *c, const struct check_mail *m, struct strbuf *out)
{
	(void)c;
	const struct site *s = &m->f->site;
	words_request(out, s);
	strbuf_addf(out, ". When it fails, %s; yet this attempt may enter direct reclaim without "
		    "__GFP_NORETRY: under fragmentation every call pays for compaction and reclaim "
		    "before it falls back.", words_fallback(s));
	words_confidence(out, s);
}

#define STRIP_WHY "a costly __GFP_NORETRY attempt still compacts once; clearing direct " \
	"reclaim keeps only the kswapd wake-up (socket page-frag refill, mm/filemap 2026)"

/* The candidate fixes, best first (fix/shapes.c builds them). */
static const struct fix_step fixes[] = {
	{ FIX_ADD_NORETRY, 0, FIXW_NORETRY_IDIOM,
	  "the function already uses __GFP_NORETRY for its opportunistic attempts" },
	{ FIX_STRIP_DIRECT_RECLAIM, 0, FIXW_NORETRY_IDIOM, STRIP_WHY },
	{ FIX_STRIP_DIRECT_RECLAIM, 0, FIXW_NOT_NORETRY_IDIOM | FIXW_FN_STRIPS,
	  "the function already clears __GFP_DIRECT_RECLAIM for opportunistic attempts" },
	{ FIX_STRIP_DIRECT_RECLAIM, 0, FIXW_NOT_NORETRY_IDIOM | FIXW_NOT_FN_STRIPS, STRIP_WHY },
	{ FIX_ADD_NORETRY, 0, FIXW_NOT_NORETRY_IDIOM,
	  "the page-cache folio loop idiom: the attempt with a fallback gives up early and quietly" },
	{ 0, 0, 0, NULL },
};

const struct check check_costly_no_noretry = {
	.id = "costly-no-noretry",
	.rank = 10,
	.severity = SEV_WARNING,
	.judged_by_size = true,
	.summary = "costly-order attempt with a fallback may direct-reclaim without __GFP_NORETRY",
	.headline = "no __GFP_NORETRY before its fallback",
	.on_site = on_site,
	.why = "The caller falls back to a smaller order when this attempt fails, yet the "
	       "attempt may enter direct reclaim and compaction without __GFP_NORETRY. Under "
	       "fragmentation every failed attempt above PAGE_ALLOC_COSTLY_ORDER runs "
	       "__alloc_pages_slowpath(), direct compaction and drain_all_pages(), once per "
	       "order of the fallback; this is how large folios in the buffered write path "
	       "cost pgbench a quarter of its throughput.",
	.advice = "Add __GFP_NORETRY | __GFP_NOWARN to the attempts that have a fallback, or clear "
		  "__GFP_DIRECT_RECLAIM from them.",
	.mail = mail,
	.slowpath_steps = SPB(COMPACT_FIRST) | SPB(RECLAIM) | SPB(DRAIN) | SPB(COMPACT_AFTER) | SPB(RECLAIM_RETRY) |
			  SPB(COMPACT_RETRY) | SPB(COSTLY_EXIT),
	.fixes = fixes,
};
