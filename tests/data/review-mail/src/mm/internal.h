/* a test input written for gfpaudit: the alloc_flags bits */
#define ALLOC_WMARK_MIN		0x00
#define ALLOC_WMARK_LOW		0x01
#define ALLOC_WMARK_HIGH	0x02
#define ALLOC_NO_WATERMARKS	0x04
#define ALLOC_OOM		0x08
#define ALLOC_NON_BLOCK		0x10
#define ALLOC_MIN_RESERVE	0x20
#define ALLOC_CPUSET		0x40
#define ALLOC_CMA		0x80
#define ALLOC_HIGHATOMIC	0x200
#define ALLOC_KSWAPD		0x800
