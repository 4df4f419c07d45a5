/* One consistency analysis per file, reported rule by rule. */
#include <stdlib.h>
#include <string.h>
#include "consistency_rules.h"
#include "gfpaudit/datadir.h"
#include "gfpaudit/slowpath.h"
#include "gfpaudit/strbuf.h"

/* The last file analyzed (workers analyze one file at a time), keyed by
 * its text, not by where the text lives: the fix stage re-analyzes patched
 * copies of a file under the same path, and a freed buffer's address comes
 * back for the next one. */
static struct {
	char *path;
	char *contents;
	size_t len;
	const struct slowpath_model *model;
	bool sparse;
	struct cons_result r;
	bool valid;
} cache;

static const struct cons_result *analyze(const struct check_file *f, const struct check_ctx *ctx)
{
	const struct slowpath_model *m = ctx->facts ? ctx->facts->model : NULL;
	bool sparse = f->on_disk || !f->contents;
	if (cache.valid && !strcmp(cache.path, f->path) && !cache.contents == !f->contents &&
	    cache.len == f->len && (!f->contents || !memcmp(cache.contents, f->contents, f->len)) &&
	    cache.model == m && cache.sparse == sparse)
		return &cache.r;
	if (cache.valid) {
		cons_result_release(&cache.r);
		free(cache.path);
		free(cache.contents);
		cache.valid = false;
	}
	struct cons_opts o = {
		.rules = CONS_DIVERGENCE | CONS_STALE | CONS_MIX,
		.model = m,
		.sparse = sparse,
		.tree = m ? m->tree : NULL,
		.include_dir = datadir_kmodel(),
	};
	if (consistency_check(f->path, f->contents, f->len, &o, &cache.r))
		memset(&cache.r, 0, sizeof(cache.r)); /* unreadable: the engine reports the file */
	cache.path = xstrdup(f->path);
	cache.contents = f->contents ? xstrndup(f->contents, f->len) : NULL;
	cache.len = f->len;
	cache.model = m;
	cache.sparse = sparse;
	cache.valid = true;
	return &cache.r;
}

void consistency_rule_run(const struct check *c, enum cons_rule r, const struct check_file *f,
			  struct check_ctx *ctx)
{
	const struct cons_result *res = analyze(f, ctx);
	for (size_t i = 0; i < res->n; i++) {
		const struct cons_finding *cf = &res->f[i];
		if (cf->rule != r)
			continue;
		struct finding *fd = check_report_at(c, ctx, cf->function, cf->line, cf->col, cf->subject, cf->expr,
						     "%s%s", cf->message,
						     cf->sparse && strncmp(cf->message, "sparse:", 7) ? " (sparse agrees)" : "");
		for (size_t k = 0; k < cf->nev; k++)
			site_add_evidence(&fd->site, ctx->file, cf->ev[k].line, cf->ev[k].note);
	}
}
