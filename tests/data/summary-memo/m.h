/* The shapes of tests/t21-summary-memo.sh: helpers asked the same
 * question many times (loops run to their fixed point, repeated calls). */
struct m_cfg {
	unsigned long depth;
	void *ring;
};
