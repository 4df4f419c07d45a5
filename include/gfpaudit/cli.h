/* Option handling shared by the front ends (validated in one place). */
#ifndef GFPAUDIT_CLI_H
#define GFPAUDIT_CLI_H
#include <stdint.h>
#include <stdio.h>
#include "gfpaudit/engine.h"

/* Allocator tables a run takes, --allocators and $GFPAUDIT_ALLOCATORS together. */
#define CLI_MAX_ALLOCATORS 15

/* Options every analyzing command accepts. */
struct cli_common {
	const char *tree, *compdb, *format;
	const char *enable, *disable;
	const char *allocators[CLI_MAX_ALLOCATORS + 1]; /* NULL-terminated */
	int nallocators;    /* may exceed CLI_MAX_ALLOCATORS: cli_engine_opts refuses */
	int verbose, quiet;
	const char *severity; /* threshold for exit 1 */
	const char *allocator_model; /* --allocator-model: NULL (auto) or a built-in (slowpath.h) */
	/* where the search for .gfpaudit starts (a file or directory; NULL:
	 * the current directory), and what cli_load_config found */
	const char *config_from;
	struct config *config;
};

/* Apply --enable/--disable lists ("a,b") to `base` (the default mask as
 * .gfpaudit [rules] changed it).  GA_EINVAL with a message naming the
 * unknown rule. */
int cli_rule_mask_from(uint64_t base, const char *enable, const char *disable, uint64_t *out);
/* Find and read the run's .gfpaudit from c->config_from up (config.h) into
 * c->config, once a process; under -v say which file it was and what it
 * sets.  GA_EINVAL / GA_EIO for a file that cannot be used (the commands
 * exit 2).  cli_engine_opts calls it. */
struct config;
int cli_load_config(struct cli_common *c);
/* Add an --allocators file (counted beyond CLI_MAX_ALLOCATORS, for
 * cli_engine_opts to refuse). */
void cli_add_allocator(struct cli_common *c, const char *file);
/* Fill engine options from the common options (allocator files include
 * $GFPAUDIT_ALLOCATORS) and the run's .gfpaudit (rules, severities).
 * GA_EINVAL for an unknown rule, more than CLI_MAX_ALLOCATORS allocator
 * tables or a bad .gfpaudit; GA_EIO when there is no data directory. */
int cli_engine_opts(struct cli_common *c, struct engine_opts *out);
/* For --help: the configuration file, suppressions and the environment
 * variables every analyzing command reads, then `env` (the command's own,
 * NULL: none). */
void cli_print_setup(FILE *f, const char *env);
/* Print the rule list (id, severity, summary) for --help. */
void cli_print_rules(FILE *f);
int cli_default_jobs(void);
/* --color takes auto, always or never. */
bool cli_color_mode_ok(const char *mode);
/* Progress lines on a stderr that is not a terminal by default: under CI=true. */
int cli_progress_default(void);
/* Strict decimal numbers for options: digits only (no sign, blank or
 * suffix), lo <= value <= hi.  cli_parse_long returns GA_EINVAL without a
 * message; cli_parse_int sets "gfpaudit CMD: OPT takes a whole number from
 * LO to HI, not 'S'". */
int cli_parse_long(const char *s, long lo, long hi, long *out);
int cli_parse_int(const char *cmd, const char *opt, const char *s, int lo, int hi, int *out);
/* --timeout SEC (timeout true) or --memory-limit MIB into *lim, with the
 * bounds `audit` uses; GA_EINVAL with the message as cli_parse_int. */
struct isolate_limits;
int cli_parse_limit(const char *cmd, bool timeout, const char *s, struct isolate_limits *lim);
/* The longest --timeout: a week. */
#define CLI_TIMEOUT_MAX 604800

#endif
