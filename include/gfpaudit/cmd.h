/* Front ends.  Each parses its options, calls the engine and picks a printer;
 * it returns an exit code (err.h EXIT_*). */
#ifndef GFPAUDIT_CMD_H
#define GFPAUDIT_CMD_H
#define COMMAND(name, help) int cmd_##name(int argc, char **argv);
#include "../../analyzer/commands.h"
#undef COMMAND
#endif
