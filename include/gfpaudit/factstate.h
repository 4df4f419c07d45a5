/* Where the facts passes ended: each joined file's part in the last join
 * (the observations it added, the keys its judgement consulted) and how
 * its result was reached, kept so that a run in which a few files changed
 * starts from there instead of from every file's facts (factpass.c resume).
 *
 * A file's part: its path, its first-pass identity (triage_identity; NULL
 * for a file of the tree's facts, which is joined but not audited), the
 * digest of its judged row (NULL: its first-pass result stands), whether
 * the last run's demand wanted it (factpass.h), its observations as the
 * join took them and the keys it consulted.  The join of the parts, in
 * path order, is the join the passes made (facts.h): factstate_source()
 * answers a factbase's lookups from it, one key at a time, so a run reads
 * only the keys it asks for.  A blob (factstate_save/load) holds it all.
 */
#ifndef GFPAUDIT_FACTSTATE_H
#define GFPAUDIT_FACTSTATE_H
#include <stdbool.h>
#include <stddef.h>
#include "gfpaudit/result.h"

struct factstate;
struct factbase;

struct factstate_file {
	const char *path;
	const char *ident;   /* NULL: a file of the tree's facts */
	const char *digest;  /* NULL: the first-pass result stands */
	bool wanted;
	const struct fact_obs *const *obs; /* as the join took them */
	size_t nobs;
	char *const *consulted;
	size_t nconsulted;
};

struct factstate *factstate_new(void);
void factstate_free(struct factstate *st);
/* Set a file's part (replacing the one of the same path). */
void factstate_set(struct factstate *st, const struct factstate_file *f);
/* Drop a file's part; false when it had none. */
bool factstate_drop(struct factstate *st, const char *path);

/* The files, in no particular order: i < factstate_nfiles(). */
size_t factstate_nfiles(const struct factstate *st);
/* File i's part (obs and consulted left NULL/0); false past the end. */
bool factstate_file(const struct factstate *st, size_t i, struct factstate_file *out);
/* The index of `path`'s part, or -1. */
long factstate_find(const struct factstate *st, const char *path);
/* The keys of file i's observations, as many as it has (new array; the
 * strings are the state's).  */
const char **factstate_file_obs_keys(const struct factstate *st, size_t i, size_t *n);
/* The files (indexes) whose judgement consulted `key`, or a key its
 * wildcard covers when key is one ("field:S.*": every "field:S.f"). */
size_t *factstate_readers(struct factstate *st, const char *key, size_t *n);

/* Make fb answer its lookups from st's join (st must outlive fb). */
void factstate_source(struct factstate *st, struct factbase *fb);
/* Keys with at least one observation. */
size_t factstate_nkeys(struct factstate *st);

/* The state's join with the part of r->file replaced by r's observations
 * (the first pass's, as the join would take them): what a run that
 * resumes from st would answer once r's part is set, so that a file
 * parsed in the first pass can be judged again on its parse against it
 * (engine.h, engine_set_spec_state).  The overlay reads st (st must
 * outlive it, and r must outlive the overlay); the source answers from
 * both. */
struct factstate_overlay;
struct factstate_overlay *factstate_overlay_new(struct factstate *st, const struct file_result *r);
void factstate_overlay_source(struct factstate_overlay *ov, struct factbase *fb);
void factstate_overlay_free(struct factstate_overlay *ov);
/* Build the index now (a process about to fork shares it). */
void factstate_prepare(struct factstate *st);

/* The blob (new buffer) and back: 0, or GA_EINVAL for a blob that is not one. */
void factstate_save(struct factstate *st, void **blob, size_t *len);
int factstate_load(const void *blob, size_t len, struct factstate **out);
/* The same, taking the buffer (malloc'd; freed on error too). */
int factstate_adopt(void *blob, size_t len, struct factstate **out);

/* One file's part alone (new buffer; a file with no part: "gone"), and
 * applied to a state (set, or dropped when gone): a run that changed a few
 * files keeps their parts beside the state instead of the state again. */
void factstate_part_save(const struct factstate *st, const char *path, void **blob, size_t *len);
int factstate_part_load(struct factstate *st, const void *blob, size_t len);

#endif
