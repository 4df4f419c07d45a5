/* Blanking the function bodies a change cannot affect (analyzer/frontend/blank.c).
 *
 * `check` analyzes a changed file twice; what it reports is about the
 * functions the change touches.  Before each parse the bodies of the other
 * functions can be emptied: their text between the braces becomes spaces,
 * every newline and every preprocessor line stays, so lines and columns of
 * everything else are as written, and clang and the model skip the work.
 *
 * Which functions stay (by name, the same set on both sides):
 *   - seeds: a function whose text differs between the two sides or that
 *     is on one side only; a function that mentions an identifier of a
 *     file-scope line the change adds or removes (a macro, a global, a
 *     type);
 *   - the functions that read or write a field a seed stores into (`->f
 *     =`, `.f =`: where the memory goes, model/usage.c); of the static
 *     seeds that name an allocator of the table, every function that names them
 *     (a caller binds their parameters, model/sites.c find_bindable(); a
 *     use as a value forbids it), then, for BLANK_CALLER_ROUNDS rounds in
 *     all, the callers of those callers that are static and allocate too;
 *   - then, over both sides, every function of the file a kept body names,
 *     to a fixed point (callees: summaries, wrappers, inline helpers, the
 *     values callers pass);
 *   - and, read as text only, a function asserting an alias of the two bit
 *     spaces, BUILD_BUG_ON(... __GFP_X ... ALLOC_Y ...) (model/consistency.c).
 * Findings outside the changed functions are then not all found: `check`
 * reports only new ones inside them (-v parses everything).
 * "Names" counts what a macro of the file brings in: a body using GRAB()
 * names what `#define GRAB(n) grab(n)` names (through the macros it uses).
 * A change to a file-scope #if/#include line keeps everything.
 */
#ifndef GFPAUDIT_BLANK_H
#define GFPAUDIT_BLANK_H
#include <stdbool.h>
#include <stddef.h>

#define BLANK_CALLER_ROUNDS 3

/* A set of names (open addressing). */
struct blank_names {
	char **slot;
	size_t cap, n;
	bool all; /* keep every function */
};
void blank_names_init(struct blank_names *k);
void blank_names_release(struct blank_names *k);
/* true when s[0, len) was not in the set */
bool blank_names_add(struct blank_names *k, const char *s, size_t len);
bool blank_names_has(const struct blank_names *k, const char *s, size_t len);

/* The functions to keep for a change from old[0, olen) to new[0, nlen)
 * (either may be NULL: added or deleted), plus `seed` names (may be NULL:
 * the functions a diff's hunks touch).  `allocators`: the names of the
 * allocator table (NULL: every function may allocate).  Fills *keep
 * (initialized by the caller).  Never fails. */
void blank_plan(const char *old, size_t olen, const char *new_, size_t nlen, const struct blank_names *seed,
		const struct blank_names *allocators, struct blank_names *keep);

/* src with the bodies of the functions not in *keep blanked: *out (caller
 * frees; NUL-terminated, *out_len == len), *nblanked bodies.  0; GA_EINVAL
 * (nothing blanked, *out NULL) when the text's braces cannot be trusted: a
 * conditional directive whose branches do not balance their braces. */
int blank_bodies(const char *src, size_t len, const struct blank_names *keep, char **out, size_t *out_len,
		 size_t *nblanked);

#endif
