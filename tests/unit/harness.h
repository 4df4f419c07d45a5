/* A tiny unit-test harness: TEST(name) { ... CHECK(cond); ... }.
 * Tests register themselves at load time; main() runs them all, or the
 * ones named on the command line (build/unit-tests NAME...), and prints
 * "N passed, N failed, N skipped".  One file per module:
 * tests/unit/test_<module>.c.
 *
 * CHECK* records a failure and goes on; REQUIRE* records it and stops the
 * test (use it before dereferencing what it checks); SKIP(why) stops the
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

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	*failed_ = 1; } } while (0)
#define CHECK_EQ_INT(a, b) do { long long a_ = (a), b_ = (b); if (a_ != b_) { \
	fprintf(stderr, "  %s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #a, a_, b_); \
	*failed_ = 1; } } while (0)
#define CHECK_EQ_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
	if (!a_ || !b_ || strcmp(a_, b_)) { \
	fprintf(stderr, "  %s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, \
		a_ ? a_ : "(null)", b_ ? b_ : "(null)"); *failed_ = 1; } } while (0)

/* The same checks, stopping the test when they fail. */
#define REQUIRE(cond) do { CHECK(cond); if (*failed_) unit_stop(NULL); } while (0)
#define REQUIRE_EQ_INT(a, b) do { CHECK_EQ_INT(a, b); if (*failed_) unit_stop(NULL); } while (0)
#define REQUIRE_EQ_STR(a, b) do { CHECK_EQ_STR(a, b); if (*failed_) unit_stop(NULL); } while (0)

#define SKIP(why) unit_stop(why)
#endif
