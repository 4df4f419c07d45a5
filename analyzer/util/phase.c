/* Phase marks for GFPAUDIT_PROFILE (phase.h). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "gfpaudit/phase.h"

bool phase_on(void)
{
	static int on = -1;
	if (on < 0)
		on = getenv("GFPAUDIT_PROFILE") != NULL;
	return on;
}

void phase_mark(const char *what)
{
	static struct timespec last;
	if (!phase_on())
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (last.tv_sec || last.tv_nsec)
		fprintf(stderr, "phase: %s %.2f s\n", what,
			(double)(now.tv_sec - last.tv_sec) + (double)(now.tv_nsec - last.tv_nsec) / 1e9);
	last = now;
}
