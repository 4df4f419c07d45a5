/* gfpaudit hook: install or remove the pre-commit hook. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/vcs.h"
#include "gfpaudit/err.h"

static void usage(FILE *f, const struct cli_option *opts)
{
	fprintf(f,
"usage: gfpaudit hook install [--repo DIR] [--force | --chain]\n"
"       gfpaudit hook uninstall [--repo DIR]\n"
"\n"
"install writes a pre-commit hook (in core.hooksPath when set, else the\n"
"repository's hooks directory, shared by its linked worktrees) that runs\n"
"'gfpaudit check --staged' with this binary's absolute path.  It refuses to\n"
"overwrite a hook that is not gfpaudit's unless given --chain or --force.\n"
"uninstall removes only gfpaudit's hook and puts a chained one back.\n"
"'git commit --no-verify' skips the hook for one commit.  The kbuild tree the\n"
"hook uses: 'git config gfpaudit.tree KDIR' (see 'gfpaudit check --help').\n"
"\n");
	cli_print_options(f, opts);
	fprintf(f, "\n"
"exit: 0 done, 2 usage or a hook that is not gfpaudit's, 3 tool failure\n");
}

int cmd_hook(int argc, char **argv)
{
	const char *repo_dir = NULL;
	int force = 0, chain = 0;
	const struct cli_option opts[] = {
		CLI_SET(0, "chain", &chain, 1,
			"install: keep the hook that is there as\n"
			"pre-commit.gfpaudit-chained and run it first"),
		CLI_SET(0, "force", &force, 1,
			"install: replace it (it is kept as pre-commit.gfpaudit-saved,\n"
			"or pre-commit.gfpaudit-saved.N when that name is taken)"),
		CLI_STRING(0, "repo", &repo_dir, "DIR",
			"the repository (default: the one containing the current directory)"),
		CLI_HELP(),
		CLI_END(),
	};
	int rc, first = cli_parse_options("hook", opts, argc, argv, usage, &rc);
	if (first < 0)
		return rc;
	if (first + 1 != argc || (strcmp(argv[first], "install") && strcmp(argv[first], "uninstall"))) {
		usage(stderr, opts);
		return EXIT_USAGE;
	}
	bool install = !strcmp(argv[first], "install");
	unsigned flags = (force ? VCS_HOOK_FORCE : 0) | (chain ? VCS_HOOK_CHAIN : 0);
	if ((flags & VCS_HOOK_FORCE) && (flags & VCS_HOOK_CHAIN)) {
		fprintf(stderr, "gfpaudit hook: --force and --chain exclude each other\n");
		return EXIT_USAGE;
	}
	if (!install && flags) {
		fprintf(stderr, "gfpaudit hook: --force and --chain are for install\n");
		return EXIT_USAGE;
	}
	/* the hook outlives the shell that ran us: it needs an absolute path */
	char bin[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", bin, sizeof(bin) - 1);
	if (n <= 0) {
		fprintf(stderr, "gfpaudit hook: cannot find this program's path\n");
		return EXIT_TOOL;
	}
	bin[n] = 0;

	struct vcs *v = NULL;
	rc = vcs_open(repo_dir, 0, &v);
	if (rc) {
		fprintf(stderr, "gfpaudit hook: %s\n", err_last());
		return rc == GA_ENOTFOUND ? EXIT_USAGE : EXIT_TOOL;
	}
	enum vcs_hook_outcome oc;
	char *path = NULL, *saved = NULL;
	rc = install ? vcs_hook_install(v, bin, flags, &oc, &path, &saved) : vcs_hook_uninstall(v, &oc, &path);
	int exit_code = EXIT_CLEAN;
	if (rc) {
		fprintf(stderr, "gfpaudit hook: %s\n", err_last());
		exit_code = rc == GA_EINVAL ? EXIT_USAGE : EXIT_TOOL;
	} else {
		static const char *const what[] = {
			[VCS_HOOK_INSTALLED] = "installed",
			[VCS_HOOK_UPDATED] = "updated",
			[VCS_HOOK_CHAINED] = "installed; the hook that was there runs first (pre-commit.gfpaudit-chained)",
			[VCS_HOOK_REPLACED] = "installed; the hook that was there is saved as",
			[VCS_HOOK_REMOVED] = "removed",
			[VCS_HOOK_RESTORED] = "removed; the chained hook is back in place",
			[VCS_HOOK_ABSENT] = "not installed: nothing to remove",
		};
		fprintf(stderr, "gfpaudit: %s: %s%s%s\n", path, what[oc], saved ? " " : "", saved ? saved : "");
	}
	free(path);
	free(saved);
	vcs_free(v);
	return exit_code;
}
