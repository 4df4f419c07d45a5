#include "gfpaudit/version.h"

/* the only file compiled with -DGFPAUDIT_VERSION (see the Makefile) */
const char gfpaudit_version[] = GFPAUDIT_VERSION;
const char gfpaudit_name_version[] = "gfpaudit " GFPAUDIT_VERSION;
