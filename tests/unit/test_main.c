/* Runs the registered unit tests (see harness.h): all of them, or those
 * named as arguments (exit 2 when a name matches no test). */
#include <setjmp.h>
#include <stdlib.h>
#include "harness.h"

struct unit_test *unit_tests;
static jmp_buf stop;
static const char *skip_reason;

void unit_stop(const char *skip)
{
	skip_reason = skip;
	longjmp(stop, 1);
}

static int wanted(const struct unit_test *t, int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], t->name))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	static int pass, fail, skip; /* static: kept across the longjmp */
	for (int i = 1; i < argc; i++) {
		const struct unit_test *t = unit_tests;
		while (t && strcmp(t->name, argv[i]))
			t = t->next;
		if (!t) {
			fprintf(stderr, "unit-tests: no test named '%s'\n", argv[i]);
			return 2;
		}
	}
	for (struct unit_test *t = unit_tests; t; t = t->next) {
		if (!wanted(t, argc, argv))
			continue;
		/* volatile: read after a longjmp out of the test */
		volatile int failed = 0;
		skip_reason = NULL;
		if (!setjmp(stop))
			t->fn((int *)&failed);
		if (failed) {
			printf("FAIL %s\n", t->name);
			fail++;
		} else if (skip_reason) {
			printf("skip %s: %s\n", t->name, skip_reason);
			skip++;
		} else {
			printf("ok   %s\n", t->name);
			pass++;
		}
	}
	printf("%d passed, %d failed, %d skipped\n", pass, fail, skip);
	return fail ? 1 : 0;
}
