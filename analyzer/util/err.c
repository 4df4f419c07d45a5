#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include "gfpaudit/err.h"

static char last[1024];

int err_set(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last, sizeof(last), fmt, ap);
	va_end(ap);
	return code;
}

const char *err_last(void) { return last; }
void err_clear(void) { last[0] = 0; }

int debug_on(void)
{
	static int on = -1;
	if (on < 0)
		on = getenv("GFPAUDIT_DEBUG") != NULL;
	return on;
}
