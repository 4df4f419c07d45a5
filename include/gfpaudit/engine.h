/* The analysis engine: one file in, one file_result out.
 *
 * scan -> parse (frontend/) -> model (model/) -> checks (checks/); the fix
 * stage runs after it (pipeline.h).  Front ends (cmd_*.c) only choose files
 * and printers; they all call this.
 */
#ifndef GFPAUDIT_ENGINE_H
#define GFPAUDIT_ENGINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gfpaudit/result.h"
#include "gfpaudit/source.h"

/* A rule's severity as a .gfpaudit [severity] line sets it (config.h). */
struct rule_severity {
	int rule;     /* check index (check.h) */
	int severity; /* enum severity */
};

struct engine_opts {
	const char *tree;       /* prepared kernel tree, or NULL: kmodel headers */
	const char *compdb;     /* compile_commands.json, or NULL */
	const char *kmodel_dir; /* model headers; NULL: the compiled-in default */
	const char **allocator_files; /* extra allocator tables, NULL-terminated */
	uint64_t rules;         /* enabled rules, bit = check index (check.h) */
	bool fixes;             /* pipeline_analyze_file: run the fix stage after
				 * the engine (the engine itself never fixes) */
	bool pch;               /* with a tree: parse through a precompiled header
				 * of the common kernel headers (built once per tree) */
	bool pch_optional;      /* a PCH that cannot be built is not an error:
				 * parse without it (engine_pch_problem says why) */
	bool defer_prepare;     /* with a tree: read its Makefiles and build the
				 * PCH only in engine_prepare(), not in engine_new()
				 * (check: a cached answer needs neither) */
	const char *allocator_model; /* slowpath.h: NULL/"auto" reads the tree, or a built-in name */
	const char *model_tree; /* where "auto" reads mm/page_alloc.c when that is not `tree`
				 * (review: the repository, prepared or not); NULL: tree */
	bool collect_facts;     /* record what each file stores and passes (facts.h) */
	/* A compiler command line for one file (`gfpaudit cc`, kbuild's
	 * CHECK): taken as that file's compile_commands.json entry (compdb
	 * must be NULL); cc_dir is the directory it runs in. */
	const char *const *cc_argv;
	size_t cc_argc;
	const char *cc_file, *cc_dir;
	int verbose;
	/* severities that replace the rules' own (after the checks, before
	 * suppressions); lent, live as long as the engine */
	const struct rule_severity *severities;
	size_t nseverities;
	/* .gfpaudit [skip] paths, relative to skip_base: such a file is not
	 * parsed (analyzed, nothing found, the reason says why); lent */
	const char *const *skip;
	size_t nskip;
	const char *skip_base;
};

struct engine;

/* 0, GA_ETREE (tree not prepared: err_last() says how to prepare it),
 * GA_EINVAL (bad allocator table) or GA_ENOMEM. */
int engine_new(const struct engine_opts *opts, struct engine **out);
void engine_free(struct engine *e);
/* Read the tree's Makefiles and build (or find) its precompiled headers,
 * before workers fork so they share both.  engine_new() does it unless
 * opts.defer_prepare; the analysis does it when nobody did.  Idempotent;
 * 0, or the PCH's error when it is not optional. */
int engine_prepare(struct engine *e);

/* Analyze `path`.  Returns 0 with *out filled for analyzed, skipped and failed
 * files alike (see file_result.status/reason); a negative code only when the
 * engine itself cannot go on. */
int engine_analyze_file(struct engine *e, const char *path,
			const struct unsaved_file *unsaved, size_t nunsaved,
			struct file_result **out);

/* What the engine read of the main file, for the stages after it: the fix
 * stage edits this text and sizes orders against the tree's
 * PAGE_ALLOC_COSTLY_ORDER. */
struct engine_source {
	char *text;        /* the file as parsed (from disk or the unsaved copy);
			    * NULL when the file was not analyzed; caller frees */
	size_t len;
	int costly_order;  /* as evaluated in the file (0: unknown) */
};

/* engine_analyze_file that also fills *src (zeroed first) for an analyzed file. */
int engine_analyze_source(struct engine *e, const char *path,
			  const struct unsaved_file *unsaved, size_t nunsaved,
			  struct file_result **out, struct engine_source *src);

/* From now on, reads of fields and parameters consult this fact base
 * (facts.h; NULL: none).  The engine does not own it; forked workers
 * inherit it.  pipeline_analyze_file records in each result the keys it
 * consulted and a digest of their answers (an empty fact base: the keys a
 * file would consult). */
struct factbase;
void engine_set_facts(struct engine *e, struct factbase *fb);
struct factbase *engine_facts(const struct engine *e);
/* The last run's facts state (factstate.h), or NULL: the first pass
 * judges each file it parses a second time against that run's join with
 * the file's part replaced (engine.c speculate), so that a run resuming
 * from the state need not parse it again.  The caller keeps st. */
struct factstate;
void engine_set_spec_state(struct engine *e, struct factstate *st);

/* With opts.pch and opts.pch_optional: why the engine parses without a PCH
 * (NULL when it has one, or was not asked). */
const char *engine_pch_problem(const struct engine *e);

/* A hash of the contents of the headers in the PCH the engine parses with,
 * or NULL without one: results depend on it (the result cache keys on it). */
const char *engine_pch_identity(const struct engine *e);

/* What the tree's configuration does with `path` (kbuild.c): CONFIG_BUILT
 * (obj-y, obj-m, lib-y, or outside the tree: an external module),
 * CONFIG_NOT_BUILT (listed under an option that is off, or by no Makefile),
 * CONFIG_OTHER_ARCH (under arch/ of another architecture: never parsed with
 * this one's flags), CONFIG_UNKNOWN (no tree). */
enum config_state { CONFIG_UNKNOWN, CONFIG_BUILT, CONFIG_NOT_BUILT, CONFIG_OTHER_ARCH };
enum config_state engine_config_state(const struct engine *e, const char *path);

/* The header constants the file `path` is judged with (source.h): its
 * flags, and in place of its text the headers that define them, through
 * the probes of every parse (frontend/tu.c).  For the Coccinelle rules
 * (cocci.h), which cannot read headers.  0, or the parse's error
 * (GA_EPARSE, GA_EIO, GA_ETREE). */
struct tree_constants;
int engine_probe_constants(struct engine *e, const char *path, struct tree_constants *out);

/* The path as reported: relative to the tree root when under it. */
char *engine_report_path(const struct engine *e, const char *path);
const struct engine_opts *engine_opts(const struct engine *e);

#endif
