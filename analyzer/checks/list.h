/* The registration list: one line per rule, in report order.
 * Each CHECK(name) is defined in analyzer/checks/<name>.c as check_<name>. */
CHECK(costly_no_noretry)
CHECK(costly_no_fallback)
CHECK(nofail_high_order)
CHECK(gfp_contradiction)
CHECK(noretry_without_nowarn)
CHECK(costly_noretry_compacts)
CHECK(gfp_derived_divergence)
CHECK(stale_alloc_flags)
CHECK(gfp_alloc_flags_mix)
CHECK(costly_retry_mayfail)
CHECK(bad_suppression)
