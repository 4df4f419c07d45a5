/* A register setup routine in the shape of GENMASK()/FIELD_PREP() users:
 * every value written is a constant spelled with literals and operators. */
#define LL_MASK(h, l)	(((~0UL) - (1UL << (l)) + 1) & (~0UL >> (64 - 1 - (h))))
#define LL_PREP(m, v)	((((unsigned long)(v)) << 2) & (m))
#define LL_ZERO(e)	((int)(sizeof(struct { int:(-!!(e)); })))

void ll_write(unsigned int reg, unsigned long val);

void ll_setup(void)
{
	ll_write(0x10, LL_PREP(LL_MASK(7, 2), 3) | LL_PREP(LL_MASK(15, 8), 1) + LL_ZERO(0));
	ll_write(0x14, LL_PREP(LL_MASK(9, 2), 5) | LL_PREP(LL_MASK(23, 16), 2) + LL_ZERO(0));
	ll_write(0x18, LL_PREP(LL_MASK(11, 2), 7) | LL_PREP(LL_MASK(31, 24), 3) + LL_ZERO(0));
	ll_write(0x1c, LL_PREP(LL_MASK(13, 2), 9) | LL_PREP(LL_MASK(19, 12), 4) + LL_ZERO(0));
}
