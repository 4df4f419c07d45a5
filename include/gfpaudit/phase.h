/* Where the main process's time goes: with GFPAUDIT_PROFILE set, each mark
 * prints "phase: WHAT S s" (seconds since the previous mark) on stderr. */
#ifndef GFPAUDIT_PHASE_H
#define GFPAUDIT_PHASE_H

#include <stdbool.h>

void phase_mark(const char *what);
/* Is GFPAUDIT_PROFILE set (for counts worth printing beside the marks)? */
bool phase_on(void);

#endif
