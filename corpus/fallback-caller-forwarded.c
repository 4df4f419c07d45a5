/*
 * The failure travels up through a static function of the file before a
 * caller copes: rom_from_vram() allocates 128 KiB and returns false on
 * failure, rom_from_disabled() returns what rom_from_vram() returned, and
 * rom_get() tries the next source when either fails.  Every static
 * function's callers are in this file, so the handling of the one above is
 * the handling of the one below.  When the function above hands the
 * failure on too (an error return), or its address is taken (callers the
 * tree does not show), nothing copes.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/types.h>
#include <linux/errno.h>

#define ROM_BYTES	(128 * 1024)

struct card {
	u8 *rom;
	bool igp;
};

static bool rom_from_vram(struct card *c)
{
	c->rom = kmalloc(ROM_BYTES, GFP_KERNEL); // note: costly-no-noretry // site: order=5..5 fallback=caller-other-path fbat=51
	if (!c->rom)
		return false;
	c->rom[0] = 0x55;
	return true;
}

static bool rom_from_disabled(struct card *c)
{
	if (c->igp)
		return rom_from_vram(c);
	return false;
}

static bool rom_from_platform(struct card *c)
{
	c->rom = vzalloc(ROM_BYTES);
	return c->rom != NULL;
}

bool rom_get(struct card *c)
{
	bool r = rom_from_disabled(c);

	if (!r)
		r = rom_from_platform(c);
	return r;
}

/* handed on twice, then returned as an error: nothing copes */
static bool log_from_vram(struct card *c)
{
	c->rom = kmalloc(ROM_BYTES, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 fallback=none
	return c->rom != NULL;
}

static bool log_load(struct card *c)
{
	if (!log_from_vram(c))
		return false;
	return true;
}

int log_init(struct card *c)
{
	if (!log_load(c))
		return -ENOMEM;
	return 0;
}

/* the function above has its address taken: its callers are not all here */
static bool fw_from_vram(struct card *c)
{
	c->rom = kmalloc(ROM_BYTES, GFP_KERNEL); // warn: costly-no-fallback // site: order=5..5 fallback=none
	return c->rom != NULL;
}

static bool fw_load(struct card *c)
{
	return fw_from_vram(c);
}

bool (*card_fw_load)(struct card *c) = fw_load;

bool fw_get(struct card *c)
{
	if (!fw_load(c))
		return rom_from_platform(c);
	return true;
}
/*
 * check-name: a static function hands the failure to a caller that copes (forwarded)
 *
 * check-output-start
 * corpus/fallback-caller-forwarded.c:58:11: warning: 'kmalloc' can request order 5 (128 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-caller-forwarded.c:58:11: note: gfp GFP_KERNEL
 * corpus/fallback-caller-forwarded.c:58:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-forwarded.c:58:11: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/fallback-caller-forwarded.c:58:11: note: proven: every path asks for more than order 3
 * corpus/fallback-caller-forwarded.c:79:11: warning: 'kmalloc' can request order 5 (128 KiB): no fallback [costly-no-fallback]
 * corpus/fallback-caller-forwarded.c:79:11: note: gfp GFP_KERNEL
 * corpus/fallback-caller-forwarded.c:79:11: note: fallback none: nothing catches a failure but an error return, and orders above 3 stall or fail under fragmentation
 * corpus/fallback-caller-forwarded.c:79:11: note: the memory is only used through its virtual address, so vmalloc memory would do
 * corpus/fallback-caller-forwarded.c:79:11: note: proven: every path asks for more than order 3
 * check-output-end
 */
