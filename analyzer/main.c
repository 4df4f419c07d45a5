/* gfpaudit: dispatch only.  See analyzer/commands.h for the command table. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "cmd.h"
#include "gfpaudit/err.h"
#include "gfpaudit/version.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
#define COMMAND(name, help) { #name, cmd_##name, help },
#include "commands.h"
#undef COMMAND
};

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: gfpaudit <command> [options]\n\n"
		"gfpaudit finds page-allocator calls in Linux kernel code that can ask for\n"
		"orders above PAGE_ALLOC_COSTLY_ORDER without __GFP_NORETRY or without a\n"
		"fallback, and checks gfp masks against the allocator's alloc_flags.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'gfpaudit help <command>' or 'gfpaudit <command> --help' shows a command's options;\n"
		"'gfpaudit --version' the version.  Manual: gfpaudit(1), gfpaudit-<command>(1).\n"
		"exit codes: 0 clean, 1 findings at or above the threshold, 2 usage, 3 tool failure\n");
}

static void on_sigpipe(int sig)
{
	(void)sig; /* the write that raised it fails with EPIPE */
}

/* Results lost on the way out are a tool failure, never a clean exit:
 * "audit > /dev/full" or a closed pipe must not look like "no findings". */
static int finish(int code)
{
	int err = 0, bad = 0;
	errno = 0;
	if (fflush(stdout) != 0) {
		bad = 1;
		err = errno;
	} else if (ferror(stdout)) {
		bad = 1; /* an earlier write failed: its errno is gone */
	}
	errno = 0;
	if (fclose(stdout) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	if (bad) {
		fprintf(stderr, "gfpaudit: cannot write the output: %s\n", err ? strerror(err) : "write error");
		return EXIT_TOOL;
	}
	return code;
}

int main(int argc, char **argv)
{
	/* a closed stdout is an error to report (EPIPE), not a silent death;
	 * caught rather than ignored, so the tools we exec (spatch, sparse)
	 * start with the default again */
	struct sigaction sa = { .sa_handler = on_sigpipe, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* 'gfpaudit help CMD' is 'gfpaudit CMD --help' */
		const struct command *c = find(argv[2]);
		if (!c) {
			fprintf(stderr, "gfpaudit: '%s' is not a command; see 'gfpaudit --help'\n", argv[2]);
			return EXIT_USAGE;
		}
		char *args[] = { argv[2], "--help", NULL };
		return finish(c->fn(2, args));
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish(EXIT_CLEAN);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("%s\n", gfpaudit_name_version);
		return finish(EXIT_CLEAN);
	}
	const struct command *c = find(argv[1]);
	if (c)
		return finish(c->fn(argc - 1, argv + 1));
	fprintf(stderr, "gfpaudit: '%s' is not a command; see 'gfpaudit --help'\n", argv[1]);
	return EXIT_USAGE;
}
