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

/* A command's options as one table (git's parse-options): the same rows
 * are parsed (getopt_long underneath: options and operands may mix) and
 * listed by --help, so the help names exactly what is parsed.  A table
 * ends with CLI_END(). */
enum cli_opt_type {
	CLI_OPT_END,
	CLI_OPT_SET,      /* no argument: *(int *)value = set */
	CLI_OPT_COUNT,    /* no argument: ++*(int *)value */
	CLI_OPT_STRING,   /* *(const char **)value = the argument */
	CLI_OPT_CHOICE,   /* STRING, one of the '|'-separated words in `choices` */
	CLI_OPT_INT,      /* *(int *)value = a whole number from lo to hi */
	CLI_OPT_CALLBACK, /* cb(cmd, opt, arg): 0, or err_set() with the whole message */
	CLI_OPT_HELP,     /* -h, --help: the command's usage on stdout, exit 0 */
};
struct cli_option {
	enum cli_opt_type type;
	int short_name;        /* 0: none */
	const char *long_name; /* NULL: none */
	void *value;
	const char *argh;      /* the argument's name in the help; NULL: takes none */
	/* The help text at column 23; '\n' continues it on the next line at
	 * that column.  NULL: not listed on a line of its own (another row's
	 * text names it, as "--pch" in the text of "--no-pch"). */
	const char *help;
	int set, lo, hi;
	const char *choices;   /* CLI_OPT_CHOICE: "text|json" */
	int (*cb)(const char *cmd, const struct cli_option *opt, const char *arg);
	const char *alias;     /* a second long name, listed as "--name, --alias" */
};
#define CLI_OPT_(t, s, l, v, a, h) \
	.type = (t), .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h)
#define CLI_SET(s, l, v, val, h)     { CLI_OPT_(CLI_OPT_SET, s, l, v, NULL, h), .set = (val) }
#define CLI_COUNT(s, l, v, h)        { CLI_OPT_(CLI_OPT_COUNT, s, l, v, NULL, h) }
#define CLI_STRING(s, l, v, a, h)    { CLI_OPT_(CLI_OPT_STRING, s, l, v, a, h) }
#define CLI_CHOICE(s, l, v, a, c, h) { CLI_OPT_(CLI_OPT_CHOICE, s, l, v, a, h), .choices = (c) }
#define CLI_INT(s, l, v, a, min, max, h) \
	{ CLI_OPT_(CLI_OPT_INT, s, l, v, a, h), .lo = (min), .hi = (max) }
#define CLI_CALLBACK(s, l, v, a, f, h) { CLI_OPT_(CLI_OPT_CALLBACK, s, l, v, a, h), .cb = (f) }
#define CLI_HELP()                   { CLI_OPT_(CLI_OPT_HELP, 'h', "help", NULL, NULL, "this text") }
#define CLI_END()                    { .type = CLI_OPT_END }

/* --timeout and --memory-limit of the commands that analyze each file in a
 * child process (check, review), into a struct isolate_limits. */
#define CLI_ISOLATE_OPTIONS(lim) \
	CLI_CALLBACK(0, "timeout", (lim), "SEC", cli_opt_limit, \
		"give up on one file after SEC seconds (default 300); each\n" \
		"file is analyzed in a child process, so a file that crashes,\n" \
		"hangs or exhausts the analyzer fails alone (exit 3)"), \
	CLI_CALLBACK(0, "memory-limit", (lim), "MIB", cli_opt_limit, \
		"address-space limit of that child (default 4096)")

/* Parse argv[1..] for command `cmd` against `opts`.  Returns the index of
 * the first operand in argv (getopt_long moves the operands behind the
 * options), or -1 when the command is done: *exit_code is then EXIT_CLEAN
 * after --help (usage(stdout, opts)), EXIT_USAGE after a bad option or
 * argument (the message on stderr; for an unknown option getopt's, then
 * usage(stderr, opts)).  usage prints the command's text around
 * cli_print_options(f, opts). */
int cli_parse_options(const char *cmd, const struct cli_option *opts, int argc, char **argv,
		      void (*usage)(FILE *, const struct cli_option *), int *exit_code);
/* The option lines of `opts` for --help, in table order. */
void cli_print_options(FILE *f, const struct cli_option *opts);
/* Callbacks for options several commands share: --color WHEN into a
 * const char *; --timeout SEC and --memory-limit MIB into a struct
 * isolate_limits (the option's long name says which); --severity LEVEL
 * into a const char *, checked against the severity names. */
int cli_opt_color(const char *cmd, const struct cli_option *opt, const char *arg);
int cli_opt_limit(const char *cmd, const struct cli_option *opt, const char *arg);
int cli_opt_severity(const char *cmd, const struct cli_option *opt, const char *arg);
/* --allocators FILE into a struct cli_common. */
int cli_opt_allocator(const char *cmd, const struct cli_option *opt, const char *arg);

#endif
