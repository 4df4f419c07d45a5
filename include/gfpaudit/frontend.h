/* The libclang front end: compiler flags for a file, parsing, and the
 * per-translation-unit facts the model needs (the tree's gfp bit values and
 * allocator constants, evaluated in the TU). */
#ifndef GFPAUDIT_FRONTEND_H
#define GFPAUDIT_FRONTEND_H
#include <stdbool.h>
#include <clang-c/Index.h>
#include "gfpaudit/engine.h"
#include "gfpaudit/gfp.h"
#include "gfpaudit/check.h"

/* Where flags come from. */
struct flags_ctx {
	const char *tree;       /* prepared kernel tree or NULL */
	const char *kmodel_dir; /* used when tree and compdb are NULL */
	struct json_t *compdb;  /* parsed compile_commands.json or NULL */
	const char *compdb_dir;
	const char *pch;        /* with tree: precompiled common headers, or NULL */
};

/* Build (once, cached under $XDG_CACHE_HOME/gfpaudit/pch/, rebuilt when a
 * header it read changed) a precompiled header of the kernel headers most
 * files include (analyzer/data/pch-headers.txt), for `tree`.  *out is the
 * .pch path, *identity a hash of the contents of every header in it (both
 * owned by the caller).  With a PCH every file is parsed with
 * KBUILD_MODNAME "gfpaudit" (a PCH fixes the macros it was built with). */
int pch_for_tree(const char *tree, char **out, char **identity);


/* The preprocessor flags (-I, -D, -U, -include) kbuild Makefiles add for
 * `path` in `tree` (ccflags-y, subdir-ccflags-y, CFLAGS_f.o; see kbuild.c),
 * argv-style and NULL-terminated (free with flags_free).  Never fails: a
 * file outside the tree or without Makefiles gets none. */
int kbuild_flags(const char *tree, const char *path, char ***out, int *nout);

/* Check that `tree` is a prepared kernel tree: GA_ETREE with a one-line
 * message saying how to prepare it. */
int flags_check_tree(const char *tree);
/* Build clang arguments for `path` (argv-style, NULL-terminated, owned by
 * caller: free each and the array). */
int flags_for_file(const struct flags_ctx *c, const char *path, char ***out, int *nout);

/* Refuse the #include directives of `text` (the file `path`) that could make
 * libclang read a device or special file, or a file outside the include
 * directories of argv and roots[] (NULL entries ignored) and path's own
 * directory; with `untrusted` (mailed or staged text) also computed
 * includes.  0, or GA_EIO with "refused: line N: ..." (analyzer/frontend/incguard.c). */
int incguard_check(const char *path, const char *text, size_t len, bool untrusted,
		   char *const *argv, int argc, const char *const *roots, size_t nroots);
void flags_free(char **argv, int n);

/* One parsed translation unit. */
struct tu {
	CXIndex index;
	CXTranslationUnit tu;
	CXFile main_file;
	const char *main_text;  /* the file as written (lent from the unsaved copy) */
	size_t main_len;
	char *main_path;        /* as given to clang */
	char *buf;              /* main file + probe appendix (owned) */
	size_t probe_offset;    /* where the appendix starts */
	int errors;             /* error diagnostics */
	char *first_error;      /* "file:line: message" of the first error */
	struct gfp_table gfp;   /* tree bit values */
	struct tree_facts facts;
	long long kmalloc_max_cache_size;
	long long hpage_pmd_order;
	long long *xval;        /* extra probe values */
	bool *xhave;
	size_t nx;
};

/* Parse `path` (contents from `unsaved` when it has the path, else the
 * disk).  Returns 0 (tu->errors may be > 0), GA_EIO (unreadable),
 * GA_EINVAL (binary file) or GA_EPARSE (libclang gave no TU). */
int tu_parse(struct tu *t, const struct flags_ctx *fc, const char *path,
	     const struct unsaved_file *unsaved, size_t nunsaved,
	     const char *const *extra_probes, size_t nextra);
void tu_release(struct tu *t);
/* Evaluate a probe added via extra_probes (index), as an integer. */
bool tu_probe_value(const struct tu *t, size_t extra_index, long long *out);

/* Location helpers.  Line/col/offset of a cursor's expansion location in
 * the main file (false when the cursor is not in the main file). */
bool tu_main_loc(const struct tu *t, CXCursor c, unsigned *line, unsigned *col, unsigned *off);
/* Spelling range [begin, end) of a cursor in the main file as written, when
 * both ends are spelled there (not inside a macro body). */
bool tu_main_range(const struct tu *t, CXCursor c, unsigned *begin, unsigned *end);
/* Source text of the main file between offsets (owned). */
char *tu_text(const struct tu *t, unsigned begin, unsigned end);
/* The operator token of a unary/binary/compound-assignment expression,
 * read at its spelling location (works inside macro bodies too). */
const char *tu_operator(const struct tu *t, CXCursor c, bool *postfix);
/* Integer value of a constant expression; false when not constant. */
bool tu_eval_int(CXCursor c, long long *out);
/* Identifier spelled at the cursor's expansion location (the name the user
 * wrote for a macro call), owned; NULL if none. */
char *tu_expansion_name(const struct tu *t, CXCursor c);

#endif
