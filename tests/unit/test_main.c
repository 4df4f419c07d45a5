/* Runs every registered unit test (see harness.h). */
#include "harness.h"

struct unit_test *unit_tests;

int main(void)
{
	int pass = 0, fail = 0;
	for (struct unit_test *t = unit_tests; t; t = t->next) {
		int failed = 0;
		t->fn(&failed);
		printf("%s %s\n", failed ? "FAIL" : "ok  ", t->name);
		failed ? fail++ : pass++;
	}
	printf("%d passed, %d failed\n", pass, fail);
	return fail ? 1 : 0;
}
