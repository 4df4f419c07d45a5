/* The engine: parse one file, model its sites, run the rules. */
#include <limits.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>
#include <string.h>
#include <jansson.h>
#include "gfpaudit/fs.h"
#include "gfpaudit/suppress.h"
#include "gfpaudit/datadir.h"
#include "gfpaudit/engine.h"
#include "gfpaudit/isolate.h"
#include "gfpaudit/frontend.h"
#include "gfpaudit/sites.h"
#include "gfpaudit/check.h"
#include "gfpaudit/slowpath.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"
#include "gfpaudit/facts.h"
#include "gfpaudit/factstate.h"
#include "gfpaudit/result.h"

struct engine {
	struct engine_opts o;
	struct alloc_table table;  /* built-in + user files */
	char **probes;             /* ARG_CONST gfp expressions, evaluated per TU */
	size_t nprobes;
	json_t *compdb;
	char *compdb_dir;
	char *tree_real;
	char *pch;                 /* precompiled common headers (opts.pch with a tree) */
	char *pch_module;          /* the same with -DMODULE, for obj-m files */
	char *pch_base, *pch_base_module; /* the first few headers alone (reparse_as_kbuild) */
	char *pch_problem;         /* why there is none although opts.pch asked */
	char *pch_identity;        /* what the PCH holds (frontend.h) */
	bool prepared;             /* engine_prepare() ran */
	struct slowpath_model *model; /* the tree's page allocator, for the rules */
	struct factbase *facts;    /* engine_set_facts */
	struct factstate *spec_state; /* engine_set_spec_state */
};

void engine_set_spec_state(struct engine *e, struct factstate *st)
{
	e->spec_state = st;
}

void engine_set_facts(struct engine *e, struct factbase *fb)
{
	e->facts = fb;
}

struct factbase *engine_facts(const struct engine *e)
{
	return e->facts;
}

const struct engine_opts *engine_opts(const struct engine *e) { return &e->o; }

static void collect_probes(struct engine *e)
{
	for (size_t i = 0; i < e->table.n; i++) {
		struct alloc_entry *a = &e->table.e[i];
		if (a->gfp.how != ARG_CONST)
			continue;
		a->probe = (int)e->nprobes;
		e->probes = xrealloc(e->probes, (e->nprobes + 1) * sizeof(*e->probes));
		e->probes[e->nprobes++] = xstrdup(a->gfp.text);
	}
}

/* The tree's Makefiles read and its precompiled headers built (or found):
 * before workers fork, so they share both.  Once; 0 without a tree. */
int engine_prepare(struct engine *e)
{
	int rc = 0;
	if (e->prepared || !e->tree_real)
		return 0;
	e->prepared = true;
	/* the Makefiles (kbuild.c keeps them per process) */
	struct kbuild_obj ko;
	char *probe = xasprintf("%s/Makefile", e->tree_real);
	kbuild_object(e->tree_real, probe, &ko);
	kbuild_obj_release(&ko);
	free(probe);
	char *id_mod = NULL;
	if (e->o.pch && ((rc = pch_for_tree(e->tree_real, false, &e->pch, &e->pch_identity)) ||
			  (rc = pch_for_tree(e->tree_real, true, &e->pch_module, &id_mod)))) {
		if (!e->o.pch_optional)
			return rc;
		e->pch_problem = xstrdup(err_last());
		free(e->pch);
		free(e->pch_module);
		free(e->pch_identity);
		e->pch = e->pch_module = e->pch_identity = NULL;
	} else if (id_mod) {
		char *both = xasprintf("%s+%s", e->pch_identity, id_mod);
		free(e->pch_identity);
		e->pch_identity = both;
	}
	free(id_mod);
	/* best effort: without them a clash is parsed without a PCH; none when
	 * the whole PCH is already the base one (the whole list did not build) */
	if (e->pch && e->pch_module &&
	    (pch_base_for_tree(e->tree_real, false, &e->pch_base) ||
	     pch_base_for_tree(e->tree_real, true, &e->pch_base_module) || !strcmp(e->pch_base, e->pch))) {
		err_clear();
		free(e->pch_base);
		free(e->pch_base_module);
		e->pch_base = e->pch_base_module = NULL;
	}
	return 0;
}

int engine_new(const struct engine_opts *opts, struct engine **out)
{
	struct engine *e = xcalloc(1, sizeof(*e));
	int rc = 0;
	e->o = *opts;
	if (!e->o.kmodel_dir && (rc = datadir_find(&e->o.kmodel_dir)) == 0)
		e->o.kmodel_dir = datadir_kmodel();
	if (rc)
		goto fail;
	if ((rc = alloc_table_init(&e->table)))
		goto fail;
	for (const char **f = opts->allocator_files; f && *f; f++)
		if ((rc = alloc_table_load_file(&e->table, *f)))
			goto fail;
	collect_probes(e);
	if (opts->tree) {
		if ((rc = flags_check_tree(opts->tree)))
			goto fail;
		char real[PATH_MAX];
		e->tree_real = xstrdup(realpath(opts->tree, real) ? real : opts->tree);
		if (!opts->defer_prepare && (rc = engine_prepare(e)))
			goto fail;
	}
	if ((rc = slowpath_model_load(opts->model_tree ? opts->model_tree : opts->tree, opts->allocator_model, &e->model)))
		goto fail;
	if (opts->cc_argv) {
		/* one entry, as a compilation database would hold the command */
		json_t *args = json_array(), *ent = json_object();
		json_array_append_new(args, json_string("cc"));
		for (size_t i = 0; i < opts->cc_argc; i++)
			json_array_append_new(args, json_string(opts->cc_argv[i]));
		json_object_set_new(ent, "directory", json_string(opts->cc_dir ? opts->cc_dir : "."));
		json_object_set_new(ent, "file", json_string(opts->cc_file ? opts->cc_file : ""));
		json_object_set_new(ent, "arguments", args);
		e->compdb = json_array();
		json_array_append_new(e->compdb, ent);
	} else if (opts->compdb) {
		json_error_t jerr;
		e->compdb = json_load_file(opts->compdb, 0, &jerr);
		if (!e->compdb || !json_is_array(e->compdb)) {
			rc = err_set(GA_EINVAL, "cannot read compile_commands.json '%s': %s", opts->compdb,
				     e->compdb ? "not an array" : jerr.text);
			goto fail;
		}
	}
	*out = e;
	return 0;
fail:
	engine_free(e);
	*out = NULL;
	return rc;
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	alloc_table_release(&e->table);
	for (size_t i = 0; i < e->nprobes; i++)
		free(e->probes[i]);
	free(e->probes);
	json_decref(e->compdb);
	free(e->compdb_dir);
	free(e->tree_real);
	free(e->pch);
	free(e->pch_module);
	free(e->pch_base);
	free(e->pch_base_module);
	free(e->pch_problem);
	free(e->pch_identity);
	slowpath_model_free(e->model);
	free(e);
}

const char *engine_pch_problem(const struct engine *e)
{
	return e->pch_problem;
}

const char *engine_pch_identity(const struct engine *e)
{
	return e->pch_identity;
}

char *engine_report_path(const struct engine *e, const char *path)
{
	if (e->tree_real) {
		char real[PATH_MAX];
		const char *p = realpath(path, real) ? real : path;
		size_t n = strlen(e->tree_real);
		if (!strncmp(p, e->tree_real, n) && p[n] == '/')
			return xstrdup(p + n + 1);
	}
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	return xstrdup(path);
}

enum config_state engine_config_state(const struct engine *e, const char *path)
{
	if (!e->tree_real || e->compdb)
		return CONFIG_UNKNOWN;
	struct kbuild_obj o;
	enum config_state st = CONFIG_UNKNOWN;
	if (!kbuild_object(e->tree_real, path, &o)) {
		char *rep = engine_report_path(e, path);
		if (!o.out_of_tree && o.arch && kbuild_other_arch(o.arch, rep))
			st = CONFIG_OTHER_ARCH;
		else
			st = o.out_of_tree || o.state == 'y' || o.state == 'm' ? CONFIG_BUILT : CONFIG_NOT_BUILT;
		free(rep);
	}
	kbuild_obj_release(&o);
	return st;
}

/* A copy of the table per file: wrappers found in one file do not leak. */
static void table_copy(struct alloc_table *dst, const struct alloc_table *src)
{
	memset(dst, 0, sizeof(*dst));
	for (size_t i = 0; i < src->n; i++) {
		const struct alloc_entry *s = &src->e[i];
		struct alloc_entry *d = alloc_table_add(dst, s->name, s->kind);
		char *name = d->name;
		*d = *s;
		d->name = name;
		const struct arg_ref *from[4] = { &s->gfp, &s->order, &s->size, &s->count };
		struct arg_ref *to[4] = { &d->gfp, &d->order, &d->size, &d->count };
		for (int k = 0; k < 4; k++)
			to[k]->text = from[k]->text ? xstrdup(from[k]->text) : NULL;
	}
}

struct inc_collect {
	struct file_result *r;
	size_t alloc;
	CXFile main;
};

static void collect_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	struct inc_collect *ic = data;
	(void)stack;
	if (!depth || clang_File_isEqual(f, ic->main))
		return;
	CXString n = clang_getFileName(f);
	const char *s = clang_getCString(n);
	if (s && *s) {
		char real[PATH_MAX];
		ALLOC_GROW(ic->r->includes, ic->r->nincludes + 1, ic->alloc);
		ic->r->includes[ic->r->nincludes++] = xstrdup(realpath(s, real) ? real : s);
	}
	clang_disposeString(n);
}

static double prof_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Findings in source order; on one line, in rule-table order. */
static int cmp_finding(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	if (x->site.line != y->site.line)
		return x->site.line - y->site.line;
	if (x->site.col != y->site.col)
		return x->site.col - y->site.col;
	return check_lookup(x->rule) - check_lookup(y->rule);
}

/* ---- parse errors that can hide an allocation ---- */

struct fn_extent {
	unsigned b, e;
	char *name;
};

struct fn_walk {
	const struct tu *t;
	struct fn_extent *v;
	size_t n, alloc;
};

static enum CXChildVisitResult fn_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct fn_walk *w = data;
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f1, f2;
	unsigned b, e;
	clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, &b);
	clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &e);
	if (!f1 || !f2 || !clang_File_isEqual(f1, w->t->main_file) || !clang_File_isEqual(f2, w->t->main_file) ||
	    b > e || e > w->t->main_len)
		return CXChildVisit_Continue;
	ALLOC_GROW(w->v, w->n + 1, w->alloc);
	CXString sp = clang_getCursorSpelling(c);
	w->v[w->n++] = (struct fn_extent){ b, e, xstrdup(clang_getCString(sp)) };
	clang_disposeString(sp);
	return CXChildVisit_Continue;
}

/* Does text[b, e) name an allocator of the table (or a function of the
 * file that holds a site)? */
static bool names_allocator(const struct tu *t, unsigned b, unsigned e, const struct alloc_table *table,
			    const struct file_result *r)
{
	const char *s = t->main_text;
#define IDCH(c) ((c) == '_' || ((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || ((c) >= '0' && (c) <= '9'))
	for (unsigned i = b; i < e;) {
		if (!IDCH(s[i]) || (s[i] >= '0' && s[i] <= '9')) {
			i++;
			continue;
		}
		unsigned j = i;
		while (j < e && IDCH(s[j]))
			j++;
		char *id = xstrndup(s + i, j - i);
		bool hit = alloc_table_find(table, id) != NULL;
		for (size_t k = 0; !hit && k < r->nsites; k++)
			hit = r->sites[k].function && !strcmp(r->sites[k].function, id);
		free(id);
		if (hit)
			return true;
		i = j;
	}
#undef IDCH
	return false;
}

/* A file with parse errors is partially analyzed when an error lies in a
 * function that holds an allocation site or names an allocator (or a
 * function of the file that holds one), when a header failed (declarations
 * the file's allocating functions use may be missing), or when an error
 * outside any function is followed, before the next function clang kept,
 * by text that names an allocator (a function whose declarator clang
 * rejected is dropped with its body). */
static void mark_partial(const struct tu *t, const struct alloc_table *table, struct file_result *r)
{
	if (!t->errors)
		return;
	struct fn_walk w = { .t = t };
	clang_visitChildren(clang_getTranslationUnitCursor(t->tu), fn_visit, &w);
	bool header_error = t->nerrs == 0;
	for (size_t i = 0; i < t->nerrs; i++)
		header_error |= !t->errs[i].in_main;
	const char *hit = NULL;
	for (size_t f = 0; f < w.n && !hit; f++) {
		bool err_in = header_error;
		for (size_t i = 0; i < t->nerrs && !err_in; i++)
			err_in = t->errs[i].in_main && t->errs[i].off >= w.v[f].b && t->errs[i].off <= w.v[f].e;
		if (err_in && names_allocator(t, w.v[f].b, w.v[f].e, table, r))
			hit = w.v[f].name;
	}
	for (size_t i = 0; i < t->nerrs && !hit; i++) {
		if (!t->errs[i].in_main)
			continue;
		unsigned o = t->errs[i].off, end = (unsigned)t->main_len;
		bool inside = false;
		for (size_t f = 0; f < w.n; f++) {
			if (o >= w.v[f].b && o <= w.v[f].e)
				inside = true;
			else if (w.v[f].b > o && w.v[f].b < end)
				end = w.v[f].b;
		}
		if (!inside && names_allocator(t, o, end, table, r))
			hit = "";
	}
	if (hit) {
		r->partial = true;
		r->partial_function = xstrdup(hit);
	}
	for (size_t f = 0; f < w.n; f++)
		free(w.v[f].name);
	free(w.v);
}

/* A PCH shows every file the declarations and macros of all its headers,
 * also of those the file never includes (i915's `enum port` member
 * PORT_NONE against uapi/linux/ethtool.h's macro, libata's PORT_UNKNOWN
 * against uapi/linux/serial.h's, a static `bsearch` against
 * linux/bsearch.h), and NOTRACE drops the trace_event_raw_* structs a few
 * files use (infiniband's mad.c): a file with errors is parsed again
 * through the PCH of the first few headers alone (*how 3) and, when that
 * has errors too, as kbuild does; of the first parse and kbuild's, the
 * one with fewer errors is kept in *t.  On 6.12 the first try mends 331
 * of the 335 files with errors (i915, xe, libata, libsas: their parses
 * from source were 28 % of a whole-tree run's parse time). */
static int reparse_as_kbuild(struct engine *e, struct flags_ctx *fc, const char *path,
			     const struct unsaved_file *unsaved, size_t nunsaved, struct tu *t, int *how)
{
	/* one TU at a time: a worker's peak is the larger parse, not both
	 * (dcn32_resource.c: 254 MB with the PCH, then 450 with both) */
	int first_errors = t->errors;
	struct flags_ctx first = *fc;
	tu_release(t);
	if (e->pch_base && e->pch_base_module && (fc->pch || fc->pch_module)) {
		fc->pch = e->pch_base;
		fc->pch_module = e->pch_base_module;
		*how = 3;
		int rc = tu_parse(t, fc, path, unsaved, nunsaved, (const char *const *)e->probes, e->nprobes);
		if (!rc && !t->errors)
			return 0;
		err_clear();
		tu_release(t);
	}
	fc->pch = fc->pch_module = NULL;
	fc->tracepoints = true;
	*how = 1;
	if (!tu_parse(t, fc, path, unsaved, nunsaved, (const char *const *)e->probes, e->nprobes) &&
	    t->errors < first_errors)
		return 0;
	/* the first was better: parse it again (fc stays as kbuild's, as the
	 * flags' inputs were always taken after this) */
	tu_release(t);
	*how = 2;
	return tu_parse(t, &first, path, unsaved, nunsaved, (const char *const *)e->probes, e->nprobes);
}

/* Findings an inline comment suppresses move to r->suppressed, with the
 * comment's reason and line (suppress.h); bad-suppression reports the
 * comments that cannot apply and is itself never suppressed. */
static void apply_suppressions(struct file_result *r, const char *text, size_t len)
{
	struct suppressions s;
	suppressions_scan(text, len, &s);
	size_t keep = 0;
	for (size_t i = 0; i < r->nfindings; i++) {
		struct finding *f = &r->findings[i];
		const struct suppression *x = strcmp(f->rule, "bad-suppression")
			? suppressions_match(&s, f->rule, f->site.line) : NULL;
		if (!x) {
			r->findings[keep++] = *f;
			continue;
		}
		f->suppressed = xstrdup(x->reason);
		f->suppressed_line = x->line;
		ALLOC_GROW(r->suppressed, r->nsuppressed + 1, r->suppressed_alloc);
		r->suppressed[r->nsuppressed++] = *f;
	}
	r->nfindings = keep;
	suppressions_release(&s);
}

int engine_analyze_file(struct engine *e, const char *path,
			const struct unsaved_file *unsaved, size_t nunsaved,
			struct file_result **out)
{
	return engine_analyze_source(e, path, unsaved, nunsaved, out, NULL);
}

/* Everything after the parse (r has what the parse gave: includes, parse
 * errors): the sites with the fact base fb, the rules, the suppressions.
 * *t3 is when the sites were found (profile). */
static void judge_tu(struct engine *e, struct tu *t, const char *path, const char *rep,
		     const struct unsaved_file *unsaved, size_t nunsaved, struct factbase *fb,
		     struct file_result *r, double *t3)
{
	t->facts.model = NULL; /* as parsed: the sites do not see the rules' model */
	struct alloc_table table;
	table_copy(&table, &e->table);
	struct sites_opts so = { .report_path = rep, .table = &table, .facts = fb,
				 .collect_facts = e->o.collect_facts };
	sites_find(t, &so, r);
	*t3 = prof_now();
	mark_partial(t, &table, r);
	alloc_table_release(&table);
	if (t->errors) {
		r->error_cause = xstrdup(t->first_message ? t->first_message : "?");
		if (r->partial && *r->partial_function)
			r->reason = xasprintf("partially analyzed: '%s' allocates and %d parse error%s may hide part "
					      "of it; first: %s", r->partial_function, t->errors, t->errors == 1 ? "" : "s",
					      t->first_error ? t->first_error : "?");
		else if (r->partial)
			r->reason = xasprintf("partially analyzed: %d parse error%s may hide a function that "
					      "allocates; first: %s", t->errors, t->errors == 1 ? "" : "s",
					      t->first_error ? t->first_error : "?");
		else
			r->reason = xasprintf("%d parse error%s (analyzed as far as the parse allows); first: %s",
					      t->errors, t->errors == 1 ? "" : "s", t->first_error ? t->first_error : "?");
	}
	/* a file with errors and not one function body is not C we understood */
	if (t->errors && !so.nfunctions) {
		r->status = FILE_FAILED;
		r->partial = false;
		free(r->reason);
		r->reason = xasprintf("does not parse as C (%d error%s); first: %s", t->errors,
				      t->errors == 1 ? "" : "s", t->first_error ? t->first_error : "?");
	}
	t->facts.model = e->model;
	struct check_ctx cc = { .out = r, .facts = &t->facts, .file = rep };
	if (r->status == FILE_ANALYZED) {
		uint64_t rules = e->o.rules ? e->o.rules : check_default_mask();
		checks_run_sites(rules, &cc);
		bool on_disk = true;
		for (size_t i = 0; i < nunsaved; i++)
			if (!strcmp(unsaved[i].path, path))
				on_disk = false;
		struct check_file cf = { .path = path, .contents = t->main_text, .len = t->main_len, .on_disk = on_disk };
		checks_run_file(rules, &cf, &cc);
		for (size_t i = 0; i < r->nfindings; i++)
			for (size_t k = 0; k < e->o.nseverities; k++)
				if (check_lookup(r->findings[i].rule) == e->o.severities[k].rule)
					r->findings[i].severity = (enum severity)e->o.severities[k].severity;
		apply_suppressions(r, t->main_text, t->main_len);
	}
	if (r->nfindings > 1)
		qsort(r->findings, r->nfindings, sizeof(*r->findings), cmp_finding);
}

/* Judged again on the parse in hand (r->spec): the first pass judges
 * against an empty fact base, and the facts pass would parse the file
 * again to judge it with the join.  The facts pass takes this judgement
 * instead when the keys it read answer the same in the join (factpass.c):
 * a judgement depends on those answers only.  Against what: the last
 * run's join with this file's part replaced by its observations, when the
 * engine has that run's state (engine_set_spec_state: a run that resumes
 * from it answers so unless other files moved the keys).  Without one (a
 * cold run) there is no second judgement: against the file's own
 * observations alone it was taken for 14 of the 385 files of the mixed
 * bench set that had one (the other files' stores move the keys too) and
 * cost a fifth of the first pass.  Done when that changes what the
 * file's reads answer, and the facts pass may judge the file again at all
 * (file_result_facts_eligible). */
static void speculate(struct engine *e, struct tu *t, const char *path, const char *rep,
		      const struct unsaved_file *unsaved, size_t nunsaved, struct file_result *r)
{
	if (factbase_size(e->facts) || !e->spec_state)
		return; /* not the first pass, or no state to judge against */
	size_t n = 0;
	char **keys = factbase_reads(e->facts, &n);
	struct factbase *base = factbase_new();
	struct factstate_overlay *ov = factstate_overlay_new(e->spec_state, r);
	factstate_overlay_source(ov, base);
	char d0[FACTBASE_DIGEST_HEX + 1], d1[FACTBASE_DIGEST_HEX + 1];
	factbase_digest(e->facts, keys, n, d0);
	factbase_digest(base, keys, n, d1);
	r->consulted = keys;
	r->nconsulted = n;
	r->facts_digest = d0;
	bool eligible = file_result_facts_eligible(r);
	r->consulted = NULL;
	r->nconsulted = 0;
	r->facts_digest = NULL;
	if (n && strcmp(d0, d1) && eligible) {
		struct file_result *s = xcalloc(1, sizeof(*s));
		file_result_init(s, rep);
		s->parse_errors = r->parse_errors;
		s->includes = xcalloc(r->nincludes + 1, sizeof(*s->includes));
		for (size_t i = 0; i < r->nincludes; i++)
			s->includes[i] = xstrdup(r->includes[i]);
		s->nincludes = r->nincludes;
		factbase_track(base, true);
		double t3;
		judge_tu(e, t, path, rep, unsaved, nunsaved, base, s, &t3);
		s->consulted = factbase_reads(base, &s->nconsulted);
		factbase_digest(base, s->consulted, s->nconsulted, d1);
		s->facts_digest = xstrdup(d1);
		factbase_track(base, false);
		r->spec = s;
	}
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	factbase_free(base);
	factstate_overlay_free(ov);
}

int engine_analyze_source(struct engine *e, const char *path,
			  const struct unsaved_file *unsaved, size_t nunsaved,
			  struct file_result **out, struct engine_source *src)
{
	if (src)
		memset(src, 0, sizeof(*src));
	struct file_result *r = xcalloc(1, sizeof(*r));
	char *rep = engine_report_path(e, path);
	file_result_init(r, rep);
	*out = r;
	if (engine_prepare(e)) { /* deferred and nobody did it (engine.h) */
		r->status = FILE_FAILED;
		r->reason = xstrdup(err_last());
		free(rep);
		return 0;
	}
	struct flags_ctx fc = { .tree = e->tree_real, .kmodel_dir = e->o.kmodel_dir, .pch = e->pch, .pch_module = e->pch_module,
				.compdb = e->compdb };
	if (e->o.nskip && fs_path_matches(e->o.skip_base, e->o.skip, e->o.nskip, path)) {
		r->reason = xasprintf("not analyzed: a [skip] path of %s/.gfpaudit covers it", e->o.skip_base);
		free(rep);
		return 0;
	}
	if (engine_config_state(e, path) == CONFIG_OTHER_ARCH) {
		struct kbuild_obj o;
		kbuild_object(e->tree_real, path, &o);
		r->status = FILE_SKIPPED;
		r->reason = xasprintf("built for another architecture only: not parsed with the flags of this "
				      "tree's ARCH=%s", o.arch ? o.arch : "?");
		kbuild_obj_release(&o);
		free(rep);
		return 0;
	}
	struct tu t;
	double t0 = prof_now();
	int rc = tu_parse(&t, &fc, path, unsaved, nunsaved, (const char *const *)e->probes, e->nprobes);
	char *pch_why = NULL;
	if (rc == GA_EPARSE && (fc.pch || fc.pch_module)) {
		/* libclang gave no TU with the precompiled header: mostly a
		 * stale one (error 4, an AST read error: a header it holds,
		 * such as the tree's include/generated/autoconf.h, changed
		 * after it was built, maybe under this run).  Say so, and parse
		 * from source. */
		pch_why = strstr(err_last(), "(error 4)")
			? xstrdup("libclang could not read the precompiled header back (error 4, an AST read error: "
				  "stale or damaged; a header it holds, such as include/generated/autoconf.h, changed "
				  "after it was built, maybe during this run); parsed without it")
			: xasprintf("%s with the precompiled header; parsed without it", err_last());
		err_clear();
		tu_release(&t);
		fc.pch = fc.pch_module = NULL;
		rc = tu_parse(&t, &fc, path, unsaved, nunsaved, (const char *const *)e->probes, e->nprobes);
		if (rc) {
			char *both = xasprintf("%s; %s", pch_why, err_last());
			err_set(rc, "%s", both);
			free(both);
		} else {
			char *p = xprintable(pch_why);
			fprintf(stderr, "gfpaudit: %s: warning: %s\n", rep, p);
			free(p);
		}
	}
	free(pch_why);
	if (rc) {
		r->status = rc == GA_EINVAL ? FILE_SKIPPED : FILE_FAILED;
		r->reason = xstrdup(err_last());
		tu_release(&t);
		free(rep);
		return 0;
	}
	int reparsed = 0;
	if (t.errors && e->tree_real && !e->compdb &&
	    (rc = reparse_as_kbuild(e, &fc, path, unsaved, nunsaved, &t, &reparsed))) {
		r->status = FILE_FAILED;
		r->reason = xstrdup(err_last());
		tu_release(&t);
		free(rep);
		return 0;
	}
	r->parse_errors = t.errors;
	double t1 = prof_now();
	long parsed_kb = isolate_peak_kb();
	struct inc_collect ic = { .r = r, .main = t.main_file };
	clang_getInclusions(t.tu, collect_inclusion, &ic);
	/* the Makefiles and configuration behind the flags: the cache keeps
	 * them with the headers (an edit re-analyzes the files they build) */
	char **fin = NULL;
	int nfin = 0;
	flags_inputs(&fc, path, &fin, &nfin);
	for (int i = 0; i < nfin; i++) {
		ALLOC_GROW(r->includes, r->nincludes + 1, ic.alloc);
		r->includes[r->nincludes++] = fin[i];
	}
	free(fin);
	double t2 = prof_now(), t3 = t2;
	judge_tu(e, &t, path, rep, unsaved, nunsaved, e->facts, r, &t3);
	if (e->facts && e->o.collect_facts && !src && r->status == FILE_ANALYZED)
		speculate(e, &t, path, rep, unsaved, nunsaved, r);
	if (src && r->status == FILE_ANALYZED) {
		src->text = xstrndup(t.main_text, t.main_len); /* no NUL: tu_parse refuses those */
		src->len = t.main_len;
		src->costly_order = t.facts.costly_order;
	}
	double t4 = prof_now();
	tu_release(&t);
	/* GFPAUDIT_PROFILE=1: one line a file (bench/run.sh sums them); rss is
	 * the process's peak on this file in a worker (which resets it before
	 * each: isolate.h), its peak so far elsewhere; base what a worker
	 * shared with its parent at the fork, start what it held when the
	 * file began (0 outside a worker), parsed the peak when libclang's
	 * parse was done (the rest is the model's); in KiB; reparsed 1 when
	 * kbuild's parse was kept, 2 the first one made again, 3 the one
	 * through the PCH of the first few headers (reparse_as_kbuild) */
	if (getenv("GFPAUDIT_PROFILE"))
		fprintf(stderr, "profile: %s parse %.3f inclusions %.3f sites %.3f checks %.3f release %.3f rss %ld "
			"base %ld start %ld parsed %ld reparsed %d\n", rep, t1 - t0, t2 - t1, t3 - t2, t4 - t3, prof_now() - t4,
			isolate_peak_kb(), isolate_rss_base_kb(), isolate_file_start_kb(), parsed_kb, reparsed);
	free(rep);
	return 0;
}

/* The headers that define the constants, each only when the tree has it
 * (a miniature tree, an old one): no error for a missing one. */
static const char constants_probe[] =
	"#if __has_include(<linux/gfp.h>)\n#include <linux/gfp.h>\n#endif\n"
	"#if __has_include(<linux/mm.h>)\n#include <linux/mm.h>\n#endif\n"
	"#if __has_include(<linux/slab.h>)\n#include <linux/slab.h>\n#endif\n"
	"#if __has_include(<linux/huge_mm.h>)\n#include <linux/huge_mm.h>\n#endif\n";

int engine_probe_constants(struct engine *e, const char *path, struct tree_constants *out)
{
	int rc = engine_prepare(e);
	if (rc)
		return rc;
	struct flags_ctx fc = { .tree = e->tree_real, .kmodel_dir = e->o.kmodel_dir, .pch = e->pch,
				.pch_module = e->pch_module, .compdb = e->compdb };
	struct unsaved_file uf = { path, constants_probe, sizeof(constants_probe) - 1 };
	struct tu t;
	rc = tu_parse(&t, &fc, path, &uf, 1, NULL, 0);
	if (rc == GA_EPARSE && (fc.pch || fc.pch_module)) { /* a stale PCH: as engine_analyze_source */
		err_clear();
		tu_release(&t);
		fc.pch = fc.pch_module = NULL;
		rc = tu_parse(&t, &fc, path, &uf, 1, NULL, 0);
	}
	if (!rc)
		tu_constants(&t, out);
	tu_release(&t);
	return rc;
}
