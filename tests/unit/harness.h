/* A tiny unit-test harness: TEST(name) { ... CHECK(cond); ... }.
 * Tests register themselves at load time; main() runs them all, or the
 * ones named on the command line (build/unit-tests NAME...), and prints
 * "N passed, N failed, N skipped".  One file per module:
 * tests/unit/test_<module>.c.
 *
 * CHECK* records a failure and goes on; REQUIRE* records it and stops the
 * test (use it for what the rest of the test reads or dereferences, so no
 * `if (x)` guard is needed after it); SKIP(why) stops the
 * test and counts it as skipped, not passed.  Both stop with a longjmp back
 * to the runner, so they work in helpers too (helpers take `int *failed_`
 * and are called as helper(failed_, ...)); what the test allocated before
 * is leaked, which a test binary can afford. */
#ifndef GFPAUDIT_TEST_HARNESS_H
#define GFPAUDIT_TEST_HARNESS_H
#include <stdio.h>
#include <string.h>

struct unit_test { const char *name; void (*fn)(int *failed); struct unit_test *next; };
extern struct unit_test *unit_tests;
/* Stop the running test; `skip` non-NULL: counted as skipped, with the reason. */
void unit_stop(const char *skip) __attribute__((noreturn));

#define TEST(name) \
	static void test_##name(int *failed_); \
	static struct unit_test reg_##name = { #name, test_##name, NULL }; \
	__attribute__((constructor)) static void register_##name(void) { \
		reg_##name.next = unit_tests; unit_tests = &reg_##name; } \
	static void test_##name(int *failed_)

/* `stop_`: 1 stops the test when this check fails (REQUIRE*), 0 goes on. */
#define UNIT_FAILED_(stop_) do { *failed_ = 1; if (stop_) unit_stop(NULL); } while (0)
#define UNIT_CHECK_(stop_, cond) do { if (!(cond)) { \
	fprintf(stderr, "  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	UNIT_FAILED_(stop_); } } while (0)
#define UNIT_CHECK_EQ_INT_(stop_, a, b) do { long long a_ = (a), b_ = (b); if (a_ != b_) { \
	fprintf(stderr, "  %s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #a, a_, b_); \
	UNIT_FAILED_(stop_); } } while (0)
#define UNIT_CHECK_EQ_STR_(stop_, a, b) do { const char *a_ = (a), *b_ = (b); \
	if (!a_ || !b_ || strcmp(a_, b_)) { \
	fprintf(stderr, "  %s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, \
		a_ ? a_ : "(null)", b_ ? b_ : "(null)"); UNIT_FAILED_(stop_); } } while (0)

#define CHECK(cond) UNIT_CHECK_(0, cond)
#define CHECK_EQ_INT(a, b) UNIT_CHECK_EQ_INT_(0, a, b)
#define CHECK_EQ_STR(a, b) UNIT_CHECK_EQ_STR_(0, a, b)

/* The same checks, stopping the test when they fail (and only then: a
 * failed CHECK before a REQUIRE does not stop it). */
#define REQUIRE(cond) UNIT_CHECK_(1, cond)
#define REQUIRE_EQ_INT(a, b) UNIT_CHECK_EQ_INT_(1, a, b)
#define REQUIRE_EQ_STR(a, b) UNIT_CHECK_EQ_STR_(1, a, b)

#define SKIP(why) unit_stop(why)
#endif
