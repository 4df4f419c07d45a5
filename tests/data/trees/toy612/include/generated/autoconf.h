/* toy configuration for the unit tests */
#define CONFIG_MMU 1
#define CONFIG_COMPACTION 1
#define CONFIG_CMA 1
#define CONFIG_ZONE_DMA32 1
