/* PLACEHOLDER while the front end lands: every file is skipped. */
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/engine.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct engine { struct engine_opts o; };

int engine_new(const struct engine_opts *opts, struct engine **out)
{
	struct engine *e = xcalloc(1, sizeof(*e));
	e->o = *opts;
	*out = e;
	return 0;
}
void engine_free(struct engine *e) { free(e); }
const struct engine_opts *engine_opts(const struct engine *e) { return &e->o; }
char *engine_report_path(const struct engine *e, const char *path) { (void)e; return xstrdup(path); }
int engine_analyze_file(struct engine *e, const char *path, const struct unsaved_file *u, size_t nu,
			struct file_result **out)
{
	(void)e; (void)u; (void)nu;
	*out = xcalloc(1, sizeof(**out));
	file_result_init(*out, path);
	(*out)->status = FILE_SKIPPED;
	(*out)->reason = xstrdup("engine not built yet");
	return 0;
}
