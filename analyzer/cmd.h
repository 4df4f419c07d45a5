/* Front ends.  Each parses its options, calls the engine and picks a printer;
 * it returns an exit code (err.h EXIT_*).  Declared next to their table
 * (commands.h), not in include/gfpaudit/: only main.c calls them. */
#ifndef GFPAUDIT_ANALYZER_CMD_H
#define GFPAUDIT_ANALYZER_CMD_H
#define COMMAND(name, help) int cmd_##name(int argc, char **argv);
#include "commands.h"
#undef COMMAND
#endif
