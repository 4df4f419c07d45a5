/* A reader of the subset of GNU make that kbuild Makefiles use to say what
 * they build and with which flags (frontend/kmake.c).
 *
 * Not make: no rules, no recipes, no $(shell).  It reads assignments (=, :=,
 * ::=, +=, ?=, with `export`/`override`), `include`, and the conditionals
 * ifeq/ifneq/ifdef/ifndef/else/endif, which it decides when their operands
 * expand (a condition it cannot decide keeps every branch, as if each were
 * taken).  Expansion knows $(CONFIG_X) (the tree's auto.conf), $(src),
 * $(obj), $(srctree), $(objtree), the Makefile's variables, substitution
 * references ($(v:.c=.o)) and the text functions kbuild Makefiles use
 * (subst, patsubst, filter, filter-out, addprefix, addsuffix, foreach, if,
 * or, and, call, sort, strip, word(s), firstword, lastword, dir, notdir,
 * basename, suffix, findstring, wildcard), and $(eval TEXT) on a line of
 * its own (`$(foreach f,$(files),$(eval CFLAGS_$(f) = -I...))`: each TEXT
 * is read as a Makefile line).  $(shell ...) and anything else make the
 * whole expansion unknown (NULL). */
#ifndef GFPAUDIT_KMAKE_H
#define GFPAUDIT_KMAKE_H
#include <stdbool.h>
#include <glib.h>

struct kmake {
	const char *tree;      /* the tree's real path (borrowed) */
	GHashTable *config;    /* CONFIG_X -> "y"/"m" (a reference is held) */
	GHashTable *vars;      /* name -> value (owned) */
	GHashTable *simple;    /* names of := variables: their value is expanded */
	GPtrArray *assigns;    /* struct kmake_assign, in reading order */
	GPtrArray *files;      /* every file read (Makefiles and what they
				* include), as paths, in reading order */
	GPtrArray *evals;      /* $(eval TEXT) met while expanding a line,
				* read as Makefile lines after it */
	GPtrArray *globs;      /* "PATTERN\tRESULT" of each $(wildcard) */
};

/* One assignment that was read in an active branch. */
struct kmake_assign {
	char *name;  /* expanded ($(CONFIG_X) gives "y", "m" or "") */
	char *value; /* as written */
	char *dir;   /* $(src) of the Makefile that made it */
};

/* The tree's include/config/auto.conf as CONFIG_X -> "y"/"m" (a new
 * reference; g_hash_table_unref it).  Kept per process while the file's
 * stamp holds.  An unprepared tree gives an empty table. */
GHashTable *kmake_config(const char *tree);

void kmake_init(struct kmake *m, const char *tree, GHashTable *config);
void kmake_release(struct kmake *m);
/* Define a simple variable (SRCARCH, BITS, ...). */
void kmake_set(struct kmake *m, const char *name, const char *value);
/* Read the Makefile at `path` ($(src) = `dir`, absolute); a missing file
 * reads as empty. */
void kmake_read(struct kmake *m, const char *path, const char *dir);
/* Expand `s` as make would in a Makefile of `dir`: owned string, or NULL
 * when a function it does not know is called, or (strict) when a variable
 * is not defined. */
char *kmake_expand(struct kmake *m, const char *s, const char *dir, bool strict);
/* What $(wildcard PATTERN) finds now, as the `globs` entries record it
 * (owned; "" for nothing). */
char *kmake_glob_key(const char *pattern);
/* The expanded value of a variable ("" when undefined or unknown). */
char *kmake_value(struct kmake *m, const char *name, const char *dir);

#endif
