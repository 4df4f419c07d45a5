/* gfpaudit cc: the checker kbuild runs for each C file it compiles,
 * `make C=1 CHECK="gfpaudit cc"` (C=2: every file, built or not).  kbuild
 * calls $(CHECK) $(CHECKFLAGS) $(c_flags) FILE.c from the kernel's object
 * tree; the file is parsed with exactly those flags (the kept ones: -I, -D,
 * -U, -include, -isystem, --target, -std, ...; sparse's own, such as
 * --arch= and -Wbitwise, go), findings are printed GCC-style on stderr, and
 * the exit is 0 unless -Wgfpaudit-error asks otherwise (sparse's
 * -Wsparse-error convention), so a build is never broken by default. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cmd.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/engine.h"
#include "gfpaudit/isolate.h"
#include "gfpaudit/report.h"
#include "gfpaudit/result.h"
#include "gfpaudit/diag.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: gfpaudit cc [-Wgfpaudit-error] [--gfpaudit-severity=LEVEL] [--gfpaudit-color=WHEN]\n"
"                   COMPILER-ARGS... FILE.c\n"
"\n"
"The checker for kbuild: analyze FILE.c with the compiler arguments kbuild\n"
"passes and print findings GCC-style on stderr.  In a kernel tree:\n"
"\n"
"  make C=1 CHECK=\"gfpaudit cc\"             files that are recompiled\n"
"  make C=2 CHECK=\"gfpaudit cc\" mm/         every file of mm/\n"
"  make C=1 CHECK=\"gfpaudit cc\" M=DIR       an out-of-tree module\n"
"\n"
"kbuild runs it from the object tree; when that is a prepared tree its\n"
"allocator model and page size are used.  Arguments gfpaudit does not need\n"
"(code generation, warnings, dependency output, sparse's CHECKFLAGS such as\n"
"--arch= and -Wbitwise) are ignored.\n"
"\n"
"  -Wgfpaudit-error            exit 1 when there are findings (3 when the file\n"
"                              could not be analyzed): the build stops\n"
"  --gfpaudit-severity=LEVEL   print findings at or above note|warning|error\n"
"                              (default warning)\n"
"  --gfpaudit-color=WHEN       colour the diagnostics as GCC does: auto (default:\n"
"                              when stderr is a terminal, unless NO_COLOR is set or\n"
"                              TERM=dumb), always, never\n"
"  -h, --help                  this text (alone)\n"
"\n"
"exit: 0 (also with findings, unless -Wgfpaudit-error), 2 usage\n");
	cli_print_setup(f, "NO_COLOR, TERM (--gfpaudit-color=auto)");
}

static bool is_c_file(const char *a)
{
	size_t n = strlen(a);
	struct stat st;
	return a[0] != '-' && n > 2 && !strcmp(a + n - 2, ".c") && stat(a, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_prepared(const char *dir)
{
	char *p = xasprintf("%s/include/generated/autoconf.h", dir);
	bool ok = access(p, R_OK) == 0;
	free(p);
	return ok;
}

int cmd_cc(int argc, char **argv)
{
	bool werror = false;
	const char *severity = "warning", *file = NULL, *color = "auto";
	const char **cargs = xcalloc((size_t)argc + 1, sizeof(*cargs));
	size_t ncargs = 0;
	int rc = EXIT_USAGE;
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		free(cargs);
		return EXIT_CLEAN;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-Wgfpaudit-error"))
			werror = true;
		else if (!strncmp(argv[i], "--gfpaudit-severity=", 20))
			severity = argv[i] + 20;
		else if (!strncmp(argv[i], "--gfpaudit-color=", 17))
			color = argv[i] + 17;
		else
			cargs[ncargs++] = argv[i];
	}
	/* kbuild puts the source last; take the last existing .c argument */
	for (size_t i = ncargs; i-- > 0 && !file;)
		if (is_c_file(cargs[i]))
			file = cargs[i];
	int sev = severity_lookup(severity);
	if (sev < 0) {
		fprintf(stderr, "gfpaudit cc: unknown severity '%s' (note, warning, error)\n", severity);
		free(cargs);
		return EXIT_USAGE;
	}
	if (!cli_color_mode_ok(color)) {
		fprintf(stderr, "gfpaudit cc: --gfpaudit-color takes auto, always or never, not '%s'\n", color);
		free(cargs);
		return EXIT_USAGE;
	}
	if (!file) {
		fprintf(stderr, "gfpaudit cc: no C source file among the arguments\n");
		usage(stderr);
		free(cargs);
		return EXIT_USAGE;
	}
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd))) {
		fprintf(stderr, "gfpaudit cc: cannot read the current directory\n");
		free(cargs);
		return EXIT_TOOL;
	}
	struct cli_common c = { .config_from = file };
	struct engine_opts eo;
	if (cli_engine_opts(&c, &eo)) {
		fprintf(stderr, "gfpaudit cc: %s\n", err_last());
		free(cargs);
		return EXIT_USAGE;
	}
	eo.tree = is_prepared(cwd) ? cwd : NULL;
	eo.cc_argv = cargs;
	eo.cc_argc = ncargs;
	eo.cc_file = file;
	eo.cc_dir = cwd;
	struct engine *e = NULL;
	if (engine_new(&eo, &e)) {
		fprintf(stderr, "gfpaudit cc: %s\n", err_last());
		free(cargs);
		return werror ? EXIT_TOOL : EXIT_CLEAN;
	}
	struct isolate_limits lim = { ISOLATE_TIMEOUT_SEC, ISOLATE_MEM_LIMIT_MB };
	struct file_result *r = NULL;
	if (isolate_analyze(e, file, NULL, 0, &lim, &r)) {
		fprintf(stderr, "gfpaudit cc: %s: %s\n", file, err_last());
		rc = werror ? EXIT_TOOL : EXIT_CLEAN;
		goto out;
	}
	if (r->status == FILE_FAILED) {
		fprintf(stderr, "gfpaudit: %s: not analyzed: %s\n", file, r->reason ? r->reason : "no reason given");
		rc = werror ? EXIT_TOOL : EXIT_CLEAN;
		file_result_free(r);
		goto out;
	}
	if (r->partial)
		fprintf(stderr, "gfpaudit: %s: %s%s\n", file,
			r->reason && !strncmp(r->reason, "partially analyzed", 18) ? "" : "partially analyzed: ",
			r->reason ? r->reason : "parse errors");
	struct report rep;
	report_init(&rep);
	rep.min_show = (enum severity)sev;
	size_t n = 0;
	for (size_t k = 0; k < r->nfindings; k++)
		n += r->findings[k].severity >= (enum severity)sev;
	report_add(&rep, r);
	struct diag_style ds;
	diag_style_init(&ds, color, stderr, NULL); /* names as kbuild gave them */
	rep.style = &ds;
	report_text(&rep, stderr);
	diag_style_release(&ds);
	report_release(&rep);
	rc = werror && n ? EXIT_FINDINGS : EXIT_CLEAN;
out:
	engine_free(e);
	free(cargs);
	return rc;
}
