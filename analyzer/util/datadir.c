/* The run-time data directory (see include/gfpaudit/datadir.h). */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gfpaudit/datadir.h"
#include "gfpaudit/err.h"
#include "gfpaudit/strbuf.h"

static struct {
	bool done;
	int rc;
	char *dir, *kmodel, *rules;
	char *why; /* the message of a failed search, set again on each call */
} dd;

static void free_datadir(void)
{
	free(dd.dir);
	free(dd.kmodel);
	free(dd.rules);
	free(dd.why);
	memset(&dd, 0, sizeof(dd));
}

static bool is_datadir(const char *dir)
{
	struct stat st;
	char *gfp = xasprintf("%s/include/kmodel/linux/gfp.h", dir);
	char *rules = xasprintf("%s/rules", dir);
	bool ok = access(gfp, R_OK) == 0 && stat(rules, &st) == 0 && S_ISDIR(st.st_mode);
	free(gfp);
	free(rules);
	return ok;
}

static void take(const char *dir)
{
	char real[PATH_MAX];
	dd.dir = xstrdup(realpath(dir, real) ? real : dir);
	dd.kmodel = xasprintf("%s/include/kmodel", dd.dir);
	dd.rules = xasprintf("%s/rules", dd.dir);
}

static int search(void)
{
	const char *env = getenv("GFPAUDIT_DATADIR");
	if (env && *env) {
		if (!is_datadir(env))
			return err_set(GA_EIO, "GFPAUDIT_DATADIR='%s' is not a gfpaudit data directory "
				       "(no include/kmodel/linux/gfp.h and rules/ in it)", env);
		take(env);
		return 0;
	}
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash = len > 0 ? (exe[len] = '\0', strrchr(exe, '/')) : NULL;
	if (!slash)
		return err_set(GA_EIO, "cannot find the gfpaudit data directory: the executable's path "
			       "is unknown; set GFPAUDIT_DATADIR");
	*slash = '\0';
	const char *rel[] = { "/../share/gfpaudit", "", "/..", "/../.." };
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		char *d = xasprintf("%s%s", exe, rel[i]);
		bool ok = is_datadir(d);
		if (ok)
			take(d);
		free(d);
		if (ok)
			return 0;
	}
	return err_set(GA_EIO, "cannot find the gfpaudit data directory (include/kmodel/ and rules/) "
		       "in %s/../share/gfpaudit or next to the executable; reinstall, or set GFPAUDIT_DATADIR", exe);
}

int datadir_find(const char **out)
{
	if (!dd.done) {
		dd.done = true;
		atexit(free_datadir);
		dd.rc = search();
		if (dd.rc)
			dd.why = xstrdup(err_last());
	}
	if (dd.rc)
		return err_set(dd.rc, "%s", dd.why);
	*out = dd.dir;
	return 0;
}

const char *datadir_kmodel(void)
{
	const char *d;
	return datadir_find(&d) ? NULL : dd.kmodel;
}

const char *datadir_rules(void)
{
	const char *d;
	return datadir_find(&d) ? NULL : dd.rules;
}
