/* costly-no-fallback: a costly order and nothing to fall back to.
 *
 * Finds: a site whose order can exceed PAGE_ALLOC_COSTLY_ORDER where the
 * analyzer proved no fallback (no order loop, no lower-order or vmalloc retry,
 * not a kvmalloc-family API): a failure only becomes an error return.
 * A warning when the attempt can stall (it may direct-reclaim) or the memory
 * is only used through its virtual address (kvmalloc would serve); a note
 * when the attempt cannot stall (no __GFP_DIRECT_RECLAIM) and the memory must
 * be physically contiguous (usage.h): it takes a free block or fails at once,
 * the failure goes back to the caller, and no kvmalloc fix exists.
 * Why: under fragmentation costly orders fail or stall in compaction; the
 * svcrdma order-4 read sinks fell from 74 to 30 GiB/s and went back to order 0.
 * Known false positives: callers that really need contiguous memory (DMA
 * rings sized once at probe time); fallbacks done by the caller in another file.
 */
#include <stdlib.h>
#include "gfpaudit/check.h"
#include "gfpaudit/strbuf.h"
#include "describe.h"
#include "words.h"

static void on_site(const struct check *c, const struct site *s, struct check_ctx *ctx)
{
	if (!site_can_be_costly(s, ctx->facts->costly_order) || s->fallback != FB_NONE)
		return;
	char *d = describe_site(s);
	struct strbuf why = STRBUF_INIT;
	bool quiet = s->stall == STALL_NO && s->contig == CONTIG_PHYSICAL;
	if (quiet)
		strbuf_addf(&why, "; it cannot stall (no '__GFP_DIRECT_RECLAIM') and the memory must be physically "
			    "contiguous (%s, line %d): a failure goes back to the caller",
			    s->contig_why ? s->contig_why : "?", s->contig_line);
	else if (s->stall == STALL_NO)
		strbuf_adds(&why, "; it cannot stall (no '__GFP_DIRECT_RECLAIM'): it takes a free block of that "
			    "order or fails at once, and a kvmalloc with this mask is only its kmalloc");
	else if (s->contig == CONTIG_VIRTUAL)
		strbuf_adds(&why, "; the memory is only used through its virtual address, so vmalloc memory would do");
	struct finding *f = check_report(c, s, ctx, "%s: nothing catches a failure but an error return, "
					 "and orders above %d stall or fail under fragmentation%s",
					 d, ctx->facts->costly_order, why.buf);
	if (quiet)
		f->severity = SEV_NOTE;
	strbuf_release(&why);
	free(d);
}

static void mail(const struct check *c, const struct check_mail *m, struct strbuf *out)
{
	(void)c;
	const struct site *s = &m->f->site;
	words_request(out, s);
	strbuf_adds(out, ". Nothing retries at a smaller order when it fails: the caller only returns an "
		    "error, so under fragmentation the call first stalls in compaction and reclaim and "
		    "then fails.");
	if (s->contig == CONTIG_VIRTUAL)
		strbuf_adds(out, " The memory is only used through its virtual address, so vmalloc memory "
			    "would do.");
	words_confidence(out, s);
}

/* The candidate fixes, best first (fix/shapes.c builds them). */
static const struct fix_step fixes[] = {
	{ FIX_KVMALLOC, 0, FIXW_SLAB,
	  "a slab size above KMALLOC_MAX_CACHE_SIZE: kvmalloc tries kmalloc with __GFP_NORETRY "
	  "and falls back to vmalloc" },
	{ FIX_FALLBACK_LOOP, 0, FIXW_NOT_SLAB,
	  "the order is a variable the caller sizes by: retry at lower orders like the skb "
	  "frag and folio loops" },
	{ FIX_CAP_ORDER, FIX_CAP_COSTLY, FIXW_NOT_SLAB,
	  "cap the request at PAGE_ALLOC_COSTLY_ORDER; measure it, capping made svcrdma slower" },
	{ FIX_ORDER_ZERO, 0, FIXW_NOT_SLAB,
	  "order-0 pages: what svcrdma went back to when NOWAIT and capping both failed" },
	{ 0, 0, 0, NULL },
};

const struct check check_costly_no_fallback = {
	.id = "costly-no-fallback",
	.rank = 20,
	.severity = SEV_WARNING,
	.judged_by_size = true,
	.summary = "costly-order allocation with no fallback to smaller orders",
	.headline = "no fallback",
	.on_site = on_site,
	.why = "Nothing catches a failure of this request but an error return. Orders above "
	       "PAGE_ALLOC_COSTLY_ORDER stall in compaction and reclaim or fail once memory "
	       "is fragmented.",
	.advice = "Fall back to smaller orders (or to kvmalloc() when the memory need not be "
		  "physically contiguous), or keep the order at PAGE_ALLOC_COSTLY_ORDER or below.",
	.mail = mail,
	.slowpath_steps = SPB(COMPACT_FIRST) | SPB(RECLAIM) | SPB(COMPACT_AFTER) | SPB(NORETRY_EXIT) | SPB(COSTLY_EXIT) |
			  SPB(RECLAIM_RETRY) | SPB(COMPACT_RETRY) | SPB(RECLAIM_NEEDS_DR),
	.fixes = fixes,
};
