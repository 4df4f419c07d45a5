/* The stages after the scan, one way: the engine, then the fix stage with
 * re-analysis handed to it as a callback (see pipeline.h). */
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/pipeline.h"
#include "gfpaudit/fix.h"
#include "gfpaudit/strbuf.h"

int pipeline_reanalyze(void *data, const char *text, size_t len, struct file_result **out)
{
	const struct pipeline_reanalysis *ra = data;
	size_t nu = 0;
	struct unsaved_file *u = xcalloc(ra->nunsaved + 1, sizeof(*u));
	for (size_t i = 0; i < ra->nunsaved; i++)
		if (strcmp(ra->unsaved[i].path, ra->path))
			u[nu++] = ra->unsaved[i];
	u[nu++] = (struct unsaved_file){ ra->path, text, len };
	int rc = engine_analyze_file(ra->e, ra->path, u, nu, out);
	free(u);
	return rc;
}

int pipeline_analyze_file(struct engine *e, const char *path,
			  const struct unsaved_file *unsaved, size_t nunsaved,
			  struct file_result **out)
{
	const struct engine_opts *eo = engine_opts(e);
	struct engine_source src;
	int rc = engine_analyze_source(e, path, unsaved, nunsaved, out, eo->fixes ? &src : NULL);
	if (rc || !eo->fixes)
		return rc;
	struct file_result *r = *out;
	if (src.text && r->status == FILE_ANALYZED && r->nfindings) {
		struct pipeline_reanalysis ra = { e, path, unsaved, nunsaved };
		struct fix_opts fo = { .verbose = eo->verbose, .costly_order = src.costly_order,
				       .reanalyze = pipeline_reanalyze, .reanalyze_data = &ra };
		fix_file(path, src.text, src.len, r, &fo);
	}
	free(src.text);
	return 0;
}
