#include <errno.h>
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
