/* The libclang front end: compiler flags for a file, parsing, and the
 * per-translation-unit facts the model needs (the tree's gfp bit values and
 * allocator constants, evaluated in the TU). */
#ifndef GFPAUDIT_FRONTEND_H
#define GFPAUDIT_FRONTEND_H
#include <stdbool.h>
#include <clang-c/Index.h>
#include "gfpaudit/gfp.h"
#include "gfpaudit/source.h"

/* Where flags come from. */
struct flags_ctx {
	const char *tree;       /* prepared kernel tree or NULL */
	const char *kmodel_dir; /* used when tree and compdb are NULL */
	struct json_t *compdb;  /* parsed compile_commands.json or NULL */
	const char *compdb_dir;
	const char *pch;        /* with tree: precompiled common headers, or NULL */
	const char *pch_module; /* the same built with -DMODULE (for obj-m files) */
	bool for_pch;           /* flags to build a PCH: no per-object defines */
	bool module;            /* with for_pch: the -DMODULE variant */
	bool tracepoints;       /* no -DNOTRACE: tracepoints as the kernel
				 * builds them (slower; some files use the
				 * trace_event_raw_* structs directly) */
};

/* Build (once, cached under $XDG_CACHE_HOME/gfpaudit/pch/, rebuilt when a
 * header it read changed) a precompiled header of the kernel headers most
 * files include (analyzer/data/pch-headers.txt), for `tree`, for built-in
 * objects or (`module`) with -DMODULE.  *out is the .pch path, *identity a
 * hash of the contents of every header in it (both owned by the caller).
 * The PCH is built without KBUILD_MODFILE (clang takes macros a PCH does
 * not define from each file's command line, so every built-in file gets
 * its own) and with KBUILD_MODNAME and KBUILD_BASENAME "gfpaudit": header
 * inline functions expand them in the PCH, and a macro the PCH defines
 * differently would be refused, so files parsed through it get those. */
int pch_for_tree(const char *tree, bool module, char **out, char **identity);
/* The same for the list's first few headers alone (linux/kernel.h,
 * linux/mm.h, linux/fs.h, ...): for the files whose own identifiers clash
 * with a macro or declaration of a header of the whole list they never
 * include (libata's enum PORT_UNKNOWN against uapi/linux/serial.h's macro,
 * i915's PORT_NONE against uapi/linux/ethtool.h's).  Its headers are the
 * whole PCH's first ones, which the whole one's identity covers. */
int pch_base_for_tree(const char *tree, bool module, char **out);


/* How kbuild builds one C file of a tree (kbuild.c). */
struct kbuild_obj {
	char state;       /* 'y' built in, 'm' module, 'n' listed under an option
			   * that is off, 0 listed by no Makefile */
	bool out_of_tree; /* outside the tree: an external module (M=) */
	char *modname;    /* KBUILD_MODNAME before name-fix (composite's name) */
	char *modfile;    /* KBUILD_MODFILE: tree-relative, without .o */
	char *builder;    /* directory whose Makefile lists it (tree-relative;
			   * absolute for an external module) */
	char *objrel;     /* the object as that Makefile names it (../x/f.o) */
	char *arch;       /* SRCARCH of the tree's configuration */
};

/* What the tree's Makefiles and configuration say about `path` (owned
 * fields; kbuild_obj_release).  0, or GA_ENOTFOUND when neither the tree
 * nor the file's directory exists. */
int kbuild_object(const char *tree, const char *path, struct kbuild_obj *out);
void kbuild_obj_release(struct kbuild_obj *o);
/* True when the tree-relative `relpath` lies under arch/ of an architecture
 * other than `tree_arch`. */
bool kbuild_other_arch(const char *tree_arch, const char *relpath);

/* The preprocessor flags (-I, -D, -U, -include) kbuild Makefiles add for
 * `path` in `tree` (ccflags-y, subdir-ccflags-y, CFLAGS_f.o of the Makefile
 * that builds it; see kbuild.c), argv-style and NULL-terminated (free with
 * flags_free).  Never fails: a file without Makefiles gets none. */
int kbuild_flags(const char *tree, const char *path, char ***out, int *nout);
/* The files that decide those flags and whether `path` is built: the
 * configuration (include/config/auto.conf, .config), the top-level Kbuild,
 * the Makefiles (Kbuild) from the top down to the directory that builds it
 * and its own directory's, and the files they `include`; existing files
 * only, each once (free with flags_free).  The result cache keeps them with
 * the file's headers, so editing one re-analyzes the files it builds. */
int kbuild_inputs(const char *tree, const char *path, char ***out, int *nout);

/* The architecture a tree is configured for, as kbuild sets it up. */
struct kbuild_arch {
	char *srcarch; /* SRCARCH from the configuration (CONFIG_ARM64: "arm64") */
	char *triple;  /* clang's --target: CLANG_TARGET_FLAGS_$(SRCARCH) of
			* scripts/Makefile.clang (a built-in table before
			* 5.15); NULL when unknown */
	char **flags;  /* KBUILD_CPPFLAGS then KBUILD_CFLAGS as
			* arch/$(SRCARCH)/Makefile sets them for clang, split
			* into words as the shell would; unfiltered (a flag
			* behind $(call cc-option,..) is not there) */
	int nflags;
	char **inputs; /* the files read (that Makefile, what it includes,
			* scripts/Makefile.clang) */
	int ninputs;
};
int kbuild_arch(const char *tree, struct kbuild_arch *out);
void kbuild_arch_release(struct kbuild_arch *a);
/* SRCARCH of the tree's configuration ("x86" when it says nothing), owned. */
char *kbuild_tree_arch(const char *tree);

/* Check that `tree` is a prepared kernel tree: GA_ETREE with a one-line
 * message saying how to prepare it (for its ARCH), or that libclang cannot
 * parse for its target.  Reads the arch's flags (kept per process: call it
 * before forking workers). */
int flags_check_tree(const char *tree);
/* The tree's SRCARCH and clang target (NULL when unknown), valid until the
 * configuration changes; GA_ETREE when libclang refuses the target. */
int flags_tree_arch(const char *tree, const char **srcarch, const char **triple);
/* sparse's arguments for the tree's architecture (include paths, the
 * -include files, --arch=$(SRCARCH), -m64/-m32, the endianness, the arch
 * Makefile's defines), as the kernel's `make C=1` gives them; GA_ETREE
 * when the tree is not prepared.  Free with flags_free. */
int flags_sparse(const char *tree, char ***out, int *nout);
/* The files besides the headers whose edit changes how `path` is parsed:
 * kbuild_inputs() and the arch Makefiles the flags came from (nothing
 * without a tree, or with compile_commands.json).  Free with flags_free. */
int flags_inputs(const struct flags_ctx *c, const char *path, char ***out, int *nout);
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

#define TU_MAX_ERRORS 64

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
	char *first_message;    /* its message alone */
	struct tu_error {       /* where each error is (up to TU_MAX_ERRORS) */
		bool in_main;   /* in the main file (else a header, or none) */
		unsigned off;   /* offset in the main file (expansion location) */
	} *errs;
	size_t nerrs;
	struct gfp_table gfp;   /* tree bit values */
	struct tree_facts facts;
	long long kmalloc_max_cache_size;
	long long hpage_pmd_order;
	long long max_order_macro; /* MAX_ORDER as defined; -1: not defined */
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
/* The constants the TU's probes found (tree_constants, source.h). */
void tu_constants(const struct tu *t, struct tree_constants *out);
/* Evaluate a probe added via extra_probes (index), as an integer. */
bool tu_probe_value(const struct tu *t, size_t extra_index, long long *out);

/* Location helpers.  Line/col/offset of a cursor's expansion location in
 * the main file (false when the cursor is not in the main file). */
bool tu_main_loc(const struct tu *t, CXCursor c, unsigned *line, unsigned *col, unsigned *off);
/* Spelling range [begin, end) of a cursor in the main file as written, when
 * both ends are spelled there (not inside a macro body). */
bool tu_main_range(const struct tu *t, CXCursor c, unsigned *begin, unsigned *end);
/* The operator token of a unary/binary/compound-assignment expression,
 * read at its spelling location (works inside macro bodies too). */
const char *tu_operator(const struct tu *t, CXCursor c, bool *postfix);
/* Integer value of a constant expression; false when not constant. */
bool tu_eval_int(CXCursor c, long long *out);
/* Identifier spelled at the cursor's expansion location (the name the user
 * wrote for a macro call), owned; NULL if none. */
char *tu_expansion_name(const struct tu *t, CXCursor c);

#endif
