/* The tree-wide fact base: what every analyzed file stores into struct
 * fields and passes to functions' parameters, joined over the tree.
 *
 * Each file's analysis records observations (result.h struct fact_obs):
 *   field:S.f   a value stored into field f of struct S (an assignment in any
 *               function, an initializer of a static table);
 *   field:S.*   every field of S written at once (copy_from_user into it);
 *   param:F#i   a value a call passes as parameter i of function F (static
 *               functions: param:FILE:F#i);
 *   param:F#*   F's address is taken: callers the tree does not show.
 * A field or parameter whose type is an address (a pointer, an array, a
 * function) has no key: the facts bound sizes, orders and masks.
 * The fact base joins them (one interval, the union of the kinds).  A read
 * of a field nothing in the file stored, or of a parameter, then takes the
 * joined value instead of "unknown" -- when every observation was bounded
 * (one unbounded store makes the whole key unbounded).
 *
 * Caching the judgements made with joined facts (factpass.h): a factbase
 * can record the keys factbase_get() is asked for (factbase_track), and
 * digest what it answers for a list of keys (factbase_digest).  A file
 * judged with the facts is judged the same again as long as the digest of
 * the keys it consulted is unchanged: so everything a reader takes from
 * what factbase_get() hands out must be covered by that reader's view
 * (the *_fact_text() functions below).
 */
#ifndef GFPAUDIT_FACTS_H
#define GFPAUDIT_FACTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gfpaudit/order.h"
#include "gfpaudit/result.h"

struct factbase;

struct factbase *factbase_new(void);
void factbase_free(struct factbase *fb);
/* Add every observation of a file's result. */
void factbase_add_result(struct factbase *fb, const struct file_result *r);
size_t factbase_size(const struct factbase *fb);

struct fact_value {
	struct interval iv;  /* known=false: some observation is unbounded */
	unsigned src;
	unsigned nobs;       /* observations joined */
	const char *where;   /* "file:line" of one of them (the first) */
	/* The largest observation that is a constant alone (a literal, a
	 * sizeof), kept when others are unbounded: one caller's or one
	 * store's value, a path the tree shows (has_cmax false: none). */
	bool has_cmax;
	int64_t cmax;
	const char *cmax_where; /* "file:line" of that observation */
	/* The files the observations came from, and "file:line" of the first
	 * observation made in another file than `where`'s (NULL: one file). */
	unsigned nfiles;
	const char *where2;
};
/* The joined value of `key` (with its ".*" / "#*" wildcard joined in); false
 * when the tree shows nothing for it. */
bool factbase_get(const struct factbase *fb, const char *key, struct fact_value *out);

/* Add one observation made in `file` (tree facts read back from the cache). */
void factbase_add_obs(struct factbase *fb, const char *file, const struct fact_obs *o);

/* A factbase filled on demand: the first lookup of a key (or of its
 * wildcard) calls fn, which adds that key's observations in join order
 * (factbase_add_obs); nkeys is what factbase_size() says.  factstate.h. */
typedef void (*factbase_source_fn)(void *data, const char *key, struct factbase *fb);
void factbase_set_source(struct factbase *fb, factbase_source_fn fn, void *data, size_t nkeys);

/* Start (on) or stop recording the keys factbase_get() is asked for; either
 * way the record starts empty.  The factbase is const to its readers: the
 * record is kept beside it. */
void factbase_track(struct factbase *fb, bool on);
/* The keys asked for since factbase_track(fb, true), sorted, each once
 * (new array of new strings, *n of them; NULL when none). */
char **factbase_reads(const struct factbase *fb, size_t *n);
/* A hex digest (FACTBASE_DIGEST_HEX chars + NUL) of what factbase_get()
 * answers for each of keys[0..n) (absent keys included), so two digests are
 * equal when every one of those answers is. */
#define FACTBASE_DIGEST_HEX 40
void factbase_digest(struct factbase *fb, char *const *keys, size_t n, char out[FACTBASE_DIGEST_HEX + 1]);

/* The readers' views of an answer (new strings; v NULL: the tree shows
 * nothing), which the digest covers instead of the whole answer.  Each
 * kind of key has one reader, and its view must tell apart every two
 * answers the reader treats differently (anything it copies into a result,
 * a message included); it may tell apart more (safe, costs re-judgements),
 * and gives "-" for an answer it treats as no answer.  Keep each in step
 * with its reader:
 *   field:, param:  eval_fact_text   (eval.c fact_value)
 *   fails:          callers_fact_text (callers.c callers_cope)
 *   frees:          frees_fact_text  (fix/shapes.c, kfree in other files)
 * Other keys digest everything factbase_get() answers. */
char *eval_fact_text(const struct fact_value *v);
char *callers_fact_text(const struct fact_value *v);
char *frees_fact_text(const struct fact_value *v);

#endif
