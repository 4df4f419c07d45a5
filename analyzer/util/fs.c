#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gfpaudit/fs.h"
#include "gfpaudit/err.h"
#include "gfpaudit/strbuf.h"

int fs_mkdir_p(const char *dir, mode_t mode)
{
	char *d = xstrdup(dir);
	int rc = 0;
	for (char *p = d + 1; ; p++) {
		if (*p == '/' || !*p) {
			char c = *p;
			*p = 0;
			if (mkdir(d, mode) < 0 && errno != EEXIST) {
				rc = err_set(GA_EIO, "cannot create '%s': %s", d, strerror(errno));
				break;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	free(d);
	return rc;
}

bool fs_path_matches(const char *base, const char *const *pats, size_t n, const char *path)
{
	char real[PATH_MAX], cwd[PATH_MAX];
	char *abs = realpath(path, real) ? xstrdup(real)
		  : path[0] == '/' ? xstrdup(path)
		  : xasprintf("%s/%s", getcwd(cwd, sizeof(cwd)) ? cwd : ".", path);
	size_t blen = strlen(base);
	bool hit = false;
	if (!strncmp(abs, base, blen) && (abs[blen] == '/' || !strcmp(base, "/"))) {
		const char *rel = abs + blen + (abs[blen] == '/');
		const char *name = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
		for (size_t i = 0; !hit && i < n; i++) {
			char *p = xstrdup(pats[i]);
			size_t l = strlen(p);
			while (l > 1 && p[l - 1] == '/')
				p[--l] = '\0';
			hit = fnmatch(p, rel, 0) == 0 || (!strncmp(rel, p, l) && rel[l] == '/') ||
			      (!strchr(p, '/') && fnmatch(p, name, 0) == 0);
			free(p);
		}
	}
	free(abs);
	return hit;
}
