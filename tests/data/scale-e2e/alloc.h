/* gfpaudit scale-suite stand-in for <linux/gfp.h>: just what the inputs use */
struct page;
typedef unsigned int gfp_t;
#define ___GFP_DIRECT_RECLAIM	0x400u
#define ___GFP_KSWAPD_RECLAIM	0x800u
#define ___GFP_IO		0x40u
#define ___GFP_FS		0x80u
#define ___GFP_NOWARN		0x2000u
#define ___GFP_NORETRY		0x10000u
#define __GFP_DIRECT_RECLAIM	((gfp_t)___GFP_DIRECT_RECLAIM)
#define __GFP_KSWAPD_RECLAIM	((gfp_t)___GFP_KSWAPD_RECLAIM)
#define __GFP_RECLAIM		((gfp_t)(___GFP_DIRECT_RECLAIM | ___GFP_KSWAPD_RECLAIM))
#define __GFP_IO		((gfp_t)___GFP_IO)
#define __GFP_FS		((gfp_t)___GFP_FS)
#define __GFP_NOWARN		((gfp_t)___GFP_NOWARN)
#define __GFP_NORETRY		((gfp_t)___GFP_NORETRY)
#define GFP_KERNEL		(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
struct page *alloc_pages_noprof(gfp_t gfp, unsigned int order);
#define alloc_pages(...)	alloc_pages_noprof(__VA_ARGS__)
