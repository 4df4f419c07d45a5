/* A light structural reading of one C file, for code that has to be read as
 * written rather than as compiled: the allocator's own sources (the slow-path
 * model reads mm/page_alloc.c of the analyzed tree, which need not be
 * prepared) and allocator-internal consistency rules, which are about the
 * names the programmer wrote (`__GFP_HIGH` vs `ALLOC_MIN_RESERVE`), not the
 * integers the preprocessor makes of them.
 *
 * Lexing is libclang's (clang_tokenize).  On top of it: preprocessor
 * conditionals are resolved with the tree's configuration (kconf.h; an
 * undecidable #if keeps its first branch), object- and function-like
 * #defines and enum constants are recorded, function definitions are found,
 * and bodies are parsed on demand into statements and expressions.  Macros
 * are NOT expanded in code: a macro call is a call.  Anything the parser
 * cannot read becomes an opaque node that still covers its tokens, so a
 * malformed region never loses the rest of the function.
 *
 * Everything hangs off one `struct csrc` (one arena); pointers stay valid
 * until csrc_free().
 */
#ifndef GFPAUDIT_CSRC_H
#define GFPAUDIT_CSRC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gfpaudit/kconf.h"

enum ctok_kind { CT_PUNCT, CT_KEYWORD, CT_IDENT, CT_LITERAL };

struct ctok {
	enum ctok_kind kind;
	const char *text;
	int line, col;
	unsigned offset; /* byte offset of the token in the file */
};

struct cdefine {
	const char *name;
	bool funclike;
	const char **params;
	int nparams;
	struct ctok *body; /* replacement list */
	size_t nbody;
	int line;
};

/* An enumerator; its value is `expr` if given, else the previous one + 1
 * (`prev` NULL: 0). */
struct cenum {
	const char *name;
	const char *prev;
	struct ctok *expr;
	size_t nexpr;
	int line;
};

enum cx_kind {
	CX_IDENT, CX_NUM, CX_STR, CX_CALL, CX_UNARY, CX_POSTFIX, CX_BINARY,
	CX_ASSIGN, CX_COND, CX_CAST, CX_MEMBER, CX_INDEX, CX_OPAQUE,
};

struct cx {
	enum cx_kind kind;
	const char *text;   /* identifier, literal, operator ("&&", "|=", "->"), cast type */
	struct cx *a, *b, *c;
	struct cx **args;   /* CX_CALL (callee is a) */
	size_t nargs;
	size_t tb, te;      /* token range [tb, te) in the owning token array */
	const struct ctok *toks; /* that array */
	int line, col;
};

enum cs_kind {
	CS_BLOCK, CS_DECL, CS_EXPR, CS_IF, CS_WHILE, CS_DO, CS_FOR, CS_SWITCH,
	CS_CASE, CS_DEFAULT, CS_LABEL, CS_GOTO, CS_RETURN, CS_BREAK, CS_CONTINUE,
	CS_EMPTY, CS_MACROLOOP, CS_OPAQUE,
};

struct cdecl {
	const char *name;
	const char *type;   /* type text without qualifiers, e.g. "unsigned int", "gfp_t" */
	bool pointer;
	struct cx *init;    /* NULL when none */
	int line, col;
};

struct cs {
	enum cs_kind kind;
	int line, col;
	size_t tb, te;
	struct cx *e;       /* expression / condition / return value / case value / macro call */
	struct cs *init;    /* CS_FOR: init statement (decl or expr), may be NULL */
	struct cx *step;    /* CS_FOR */
	struct cs *body, *els;
	struct cs **kids;   /* CS_BLOCK */
	size_t nkids;
	const char *label;  /* CS_LABEL, CS_GOTO */
	struct cdecl *decls; /* CS_DECL */
	size_t ndecls;
	struct cs *parent;
};

struct cparam {
	const char *name, *type;
	bool pointer;
};

struct cfunc {
	const char *name;
	int line;
	struct cparam *params;
	size_t nparams;
	size_t body_tb, body_te; /* tokens of the body, braces included */
	struct cs *body;          /* parsed by csrc_body() */
};

struct csrc {
	char *path;
	struct ctok *toks;  /* code tokens: no comments, directives or inactive regions */
	size_t ntoks;
	struct cdefine *defs;
	size_t ndefs;
	struct cenum *enums;
	size_t nenums;
	struct cfunc *funcs;
	size_t nfuncs;
	struct cfunc *protos; /* declarations without a body (parameters only) */
	size_t nprotos;
	struct csrc_arena *arena;
	size_t defs_alloc, enums_alloc, funcs_alloc, toks_alloc, protos_alloc;
	const struct kconf *cfg;
};

/* Read `path` (or `contents` when not NULL) with configuration `cfg` (may be
 * NULL: every CONFIG_ option off, undecidable #if keep their first branch).
 * 0, GA_EIO (unreadable) or GA_ETOOL (libclang could not lex it). */
int csrc_parse(const char *path, const char *contents, size_t len,
	       const struct kconf *cfg, struct csrc **out);
void csrc_free(struct csrc *c);

/* The definition of `name` (the last one when #ifdef'd twice), or NULL. */
struct cfunc *csrc_function(const struct csrc *c, const char *name);
/* The definition of `name`, else its prototype (parameters only), or NULL. */
struct cfunc *csrc_prototype(const struct csrc *c, const char *name);
/* Parse a function body on first use; never NULL for a found function. */
struct cs *csrc_body(struct csrc *c, struct cfunc *f);
const struct cdefine *csrc_define(const struct csrc *c, const char *name);
const struct cenum *csrc_enum(const struct csrc *c, const char *name);

/* Parse tokens as one expression (macro bodies, #if lines); opaque on failure. */
struct cx *csrc_parse_expr(struct csrc *c, const struct ctok *toks, size_t n);

/* ---- helpers over the trees ---- */
/* The expression with parentheses, casts and likely()/unlikely() peeled. */
const struct cx *cx_strip(const struct cx *e);
bool cx_is_ident(const struct cx *e, const char *name);
/* Callee name of a call (through likely/unlikely), or NULL. */
const char *cx_callee(const struct cx *e);
/* Does any token of `e` spell `name`? */
bool cx_mentions(const struct cx *e, const char *name);
/* Does any token of `e` start with `prefix`? */
bool cx_mentions_prefix(const struct cx *e, const char *prefix);
/* Source text of `e`, tokens joined by single spaces where needed; owned by the caller. */
char *cx_text(const struct cx *e);
/* Visit `e` and its sub-expressions (pre-order); stop when fn returns true. */
bool cx_walk(const struct cx *e, bool (*fn)(const struct cx *, void *), void *data);
/* Visit statements of `s` (pre-order, including s); stop when fn returns true. */
bool cs_walk(const struct cs *s, bool (*fn)(const struct cs *, void *), void *data);

/* ---- integer evaluation (macros, #if, enum constants) ---- */
struct ceval_env {
	/* Value of an identifier: 0 and *out, or -1 unknown. */
	int (*ident)(void *data, const char *name, int64_t *out);
	/* Value of a call: 0 and *out, or -1 unknown (NULL: calls unknown). */
	int (*call)(void *data, const struct cx *call, int64_t *out);
	void *data;
};
/* 0 with *out, or -1 when some part is unknown. */
int cx_eval(const struct cx *e, const struct ceval_env *env, int64_t *out);
/* A C integer literal (hex, octal, suffixes); false if not one. */
bool ctok_number(const char *text, int64_t *out);

/* ---- control flow of one function ---- */
enum cnode_kind { CN_ENTRY, CN_EXIT, CN_STMT, CN_COND, CN_LABEL };
struct cnode {
	enum cnode_kind kind;
	const struct cs *s;  /* the statement (for CN_COND: the if/loop/switch) */
	const struct cx *e;  /* what is evaluated here: expression, condition, init (NULL: nothing) */
	int *succ;
	size_t nsucc, succ_alloc;
};
struct cfg {
	struct cnode *nodes; /* [0] entry, [1] exit */
	size_t n, alloc;
};
/* Build the flow graph of a parsed body (gotos, loops, switch, break/continue). */
void cfg_build(struct cfg *g, const struct cs *body);
void cfg_release(struct cfg *g);

#endif
