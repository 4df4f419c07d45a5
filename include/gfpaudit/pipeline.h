/* One file through the stages after the scan, in one direction:
 *
 *   engine (parse, model, checks) -> fix stage -> the caller's printer
 *
 * The fix stage verifies a candidate by analyzing the patched text again;
 * it gets that re-analysis from here as a callback (fix.h), so fix/ never
 * calls back into the engine and the engine never calls fix/.
 */
#ifndef GFPAUDIT_PIPELINE_H
#define GFPAUDIT_PIPELINE_H
#include <stddef.h>
#include "gfpaudit/engine.h"

/* engine_analyze_file, then, when engine_opts(e)->fixes is set and the file
 * was analyzed with findings, the fix stage (fix_file) on its findings.
 * Same returns as engine_analyze_file; a failing re-analysis leaves the
 * findings without fixes. */
int pipeline_analyze_file(struct engine *e, const char *path,
			  const struct unsaved_file *unsaved, size_t nunsaved,
			  struct file_result **out);

/* The re-analysis the fix stage is handed (fix_opts.reanalyze, with a
 * struct pipeline_reanalysis as its data): `text` replaces `path` among the
 * unsaved files of the original analysis, and the engine analyzes it. */
struct pipeline_reanalysis {
	struct engine *e;
	const char *path;
	const struct unsaved_file *unsaved; /* of the original analysis */
	size_t nunsaved;
};
int pipeline_reanalyze(void *data, const char *text, size_t len, struct file_result **out);

#endif
