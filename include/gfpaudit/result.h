/* The result of analyzing one file: the unit that workers send back, the
 * cache stores and `merge` joins.  JSON is its wire form
 * (file_result_to_json / file_result_from_json). */
#ifndef GFPAUDIT_RESULT_H
#define GFPAUDIT_RESULT_H
#include <stddef.h>
#include "gfpaudit/finding.h"

enum file_status { FILE_ANALYZED, FILE_SKIPPED, FILE_FAILED };

/* One observation for the tree-wide fact base (facts.h): a value stored
 * into a struct field, or passed to a function's parameter, in this file. */
struct fact_obs {
	char *key;          /* "field:S.f", "field:S.*", "param:F#i", "param:F#*" */
	struct interval iv; /* known=false: nothing bounds it */
	unsigned src;       /* provenance kinds (provenance.h) */
	int line;
};

struct file_result {
	char *file;             /* as reported */
	enum file_status status;
	char *reason;           /* why skipped/failed; parse diagnostics summary */
	int parse_errors;       /* error diagnostics in the TU (analysis went on) */
	char *error_cause;      /* the first error's message (for summaries) */
	/* Partially analyzed: errors inside (or hiding) a function that
	 * allocates, so what they hide is not judged.  Never clean. */
	bool partial;
	char *partial_function; /* that function ("" when clang lost its name) */
	/* The configuration does not build the file (audited with
	 * --all-files, or named on the command line). */
	bool not_in_config;
	struct site *sites;
	size_t nsites, sites_alloc;
	struct finding *findings;
	size_t nfindings, findings_alloc;
	/* Findings an inline comment suppressed (suppress.h): reported as
	 * such, never counted. */
	struct finding *suppressed;
	size_t nsuppressed, suppressed_alloc;
	/* Every file the translation unit opened besides the file itself
	 * (absolute paths as the compiler saw them): the cache's dependency
	 * list.  Part of the wire form, not of the user-facing reports. */
	char **includes;
	size_t nincludes;
	/* What this file stores into fields and passes to functions (wire
	 * form and cache only, like includes). */
	struct fact_obs *facts;
	size_t nfacts, facts_alloc;
	void *fact_index;       /* "line key" -> index + 1 (a GHashTable), built lazily */
	/* The fact-base keys the analysis asked for (sorted) and a digest of
	 * the answers it got (facts.h factbase_digest; NULL: analyzed without
	 * a fact base).  Wire form and cache only: the result is the same
	 * while that digest is. */
	char **consulted;
	size_t nconsulted;
	char *facts_digest;
	/* A first-pass result's second judgement, made on the same parse
	 * against the last run's facts state with the file's own part
	 * replaced (engine.c speculate; NULL: none, always in a cold run):
	 * the facts pass takes it when its keys answer the same in the join.
	 * Wire form and cache only. */
	struct file_result *spec;
	/* includes, facts and consulted as read back from the cache and not
	 * parsed yet: the JSON text of an object with those members
	 * (file_result_json_take_deferrable), or NULL.  Only the facts passes
	 * and the tree's facts read them: file_result_load_deferred() first. */
	char *deferred;
	/* where the cache keeps them when they were not read at all (store.h
	 * store_load_deferred fills `deferred` from it); opaque, or NULL */
	char *deferred_ref;
};

void file_result_init(struct file_result *r, const char *file);
void file_result_release(struct file_result *r);
void file_result_free(struct file_result *r);
struct site *file_result_add_site(struct file_result *r);
struct finding *file_result_add_finding(struct file_result *r);
/* Record an observation; the same key and line again joins into it. */
void file_result_add_fact(struct file_result *r, const char *key, struct interval iv, unsigned src, int line);

/* JSON (jansson) forms.  *_to_json returns a new reference; *_from_json fills
 * `out` (initialised by the callee) and returns 0 or GA_EINVAL. */
struct json_t;
struct json_t *site_to_json(const struct site *s);
int site_from_json(const struct json_t *j, struct site *out);
struct json_t *finding_to_json(const struct finding *f);
int finding_from_json(const struct json_t *j, struct finding *out);
struct json_t *file_result_to_json(const struct file_result *r);
int file_result_from_json(const struct json_t *j, struct file_result **out);
/* Move the members a result read back may keep as text (deferred: its
 * includes, facts and consulted keys) out of the object o into a new
 * object, which it returns (empty when o has none). */
struct json_t *file_result_json_take_deferrable(struct json_t *o);
/* Parse r->deferred into r (a no-op without): 0, or GA_EINVAL when that
 * text is not an object of those members (r then has none of them), or
 * when they are still in the cache (deferred_ref: store_load_deferred). */
int file_result_load_deferred(struct file_result *r);

/* What the tree's facts can change (factpass.h): a site whose order is
 * unknown or only "possible", or that asked about its callers or frees;
 * an observation that is not a constant; and so whether judging r with
 * facts can change it or what it publishes (the demand is decided per
 * pass). */
bool file_result_wants_facts(const struct file_result *r);
bool file_result_publishes_open(const struct file_result *r);
bool file_result_facts_eligible(const struct file_result *r);

#endif
