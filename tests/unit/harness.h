/* A tiny unit-test harness: TEST(name) { ... CHECK(cond); ... }.
 * Tests register themselves at load time; main() runs them all and prints
 * "N passed, N failed".  One file per module: tests/unit/test_<module>.c. */
#ifndef GFPAUDIT_TEST_HARNESS_H
#define GFPAUDIT_TEST_HARNESS_H
#include <stdio.h>
#include <string.h>

struct unit_test { const char *name; void (*fn)(int *failed); struct unit_test *next; };
extern struct unit_test *unit_tests;

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
#endif
