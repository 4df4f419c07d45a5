/* How GCC-style diagnostic lines look on a terminal and for an editor:
 * colour (--color=auto|always|never, NO_COLOR) and file names relative to
 * the current directory when it lies inside the tree the names are relative
 * to (quickfix from a subdirectory).  Display only: JSON, SARIF, caches and
 * fingerprints keep the tree-relative names. */
#ifndef GFPAUDIT_DIAG_H
#define GFPAUDIT_DIAG_H
#include <stdbool.h>
#include <stdio.h>

struct diag_style {
	bool color;
	char *below;   /* the current directory relative to the root, with a
			* trailing '/', or NULL (at the root or outside it) */
};

/* mode: "auto" (colour when `out` is a terminal, TERM is not "dumb" and
 * NO_COLOR is unset or empty), "always", "never"; root: the directory the
 * reported names are relative to (NULL: names are as given).  GA_EINVAL for
 * another mode. */
int diag_style_init(struct diag_style *st, const char *mode, FILE *out, const char *root);
void diag_style_release(struct diag_style *st);
/* The name to print for `file` (tree-relative or as given).  Caller frees. */
char *diag_path(const struct diag_style *st, const char *file);
/* "FILE:LINE[:COL]: KIND: MESSAGE[ [RULE]]\n"; col 0 and rule NULL are left
 * out; kind is a severity name, "note", "site" or "suppressed". */
void diag_print(FILE *out, const struct diag_style *st, const char *file, int line, int col,
		const char *kind, const char *message, const char *rule);

/* A finding for a reader: the headline "FILE:LINE:COL: KIND: HEAD: PHRASE
 * [RULE]" with HEAD the message's first clause (clauses are "; "-separated,
 * not inside '...'), PHRASE (may be NULL) what is wrong, the part after the
 * locus under DIAG_HEADLINE_MAX characters (PHRASE goes first, then what
 * follows the first ": " of HEAD becomes a note, then HEAD is cut at a word,
 * "..."), then every other clause (and a cut HEAD whole) as a "note:" line
 * at the same place. */
#define DIAG_HEADLINE_MAX 100
void diag_print_finding(FILE *out, const struct diag_style *st, const char *file, int line, int col,
			const char *kind, const char *message, const char *phrase, const char *rule);

#endif
