/* The stages after the scan, one way: the engine, then the fix stage with
 * re-analysis handed to it as a callback (see pipeline.h). */
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/pipeline.h"
#include "gfpaudit/fix.h"
#include "gfpaudit/facts.h"
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
	struct factbase *fb = engine_facts(e);
	if (fb)
		factbase_track(fb, true);
	int rc = engine_analyze_source(e, path, unsaved, nunsaved, out, eo->fixes ? &src : NULL);
	if (!rc && eo->fixes) {
		struct file_result *r = *out;
		if (src.text && r->status == FILE_ANALYZED && r->nfindings) {
			struct pipeline_reanalysis ra = { e, path, unsaved, nunsaved };
			struct fix_opts fo = { .verbose = eo->verbose, .costly_order = src.costly_order,
					       .reanalyze = pipeline_reanalyze, .reanalyze_data = &ra, .facts = fb };
			fix_file(path, src.text, src.len, r, &fo);
		}
		free(src.text);
	}
	if (fb) {
		/* what the result depends on beyond the file: the fact-base
		 * answers (the fixes' re-analyses included) */
		if (!rc) {
			struct file_result *r = *out;
			r->consulted = factbase_reads(fb, &r->nconsulted);
			char d[FACTBASE_DIGEST_HEX + 1];
			factbase_digest(fb, r->consulted, r->nconsulted, d);
			r->facts_digest = xstrdup(d);
		}
		factbase_track(fb, false);
	}
	return rc;
}
