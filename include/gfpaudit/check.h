/* Rules.  One rule a file under analyzer/checks/, listed once in
 * analyzer/checks/list.h.  A rule subscribes to the events it needs (a site
 * was modelled; the whole file, for rules that read it as written) instead
 * of walking the AST. */
#ifndef GFPAUDIT_CHECK_H
#define GFPAUDIT_CHECK_H
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include "gfpaudit/finding.h"
#include "gfpaudit/fixkind.h"
#include "gfpaudit/result.h"
#include "gfpaudit/source.h"


/* A whole file, for rules that read it as written rather than through the
 * site model (the gfp/alloc_flags consistency rules). */
struct check_file {
	const char *path;     /* on disk */
	const char *contents; /* NULL: read `path`; else the analyzed text (staged, patched) */
	size_t len;
	bool on_disk;         /* the text is the file at `path`: external tools (sparse) may read it */
};

struct check_ctx {
	struct file_result *out;
	const struct tree_facts *facts;
	const char *file;   /* reported path */
};

struct strbuf;
struct slowpath_model;

/* What a mail (a review reply, a fix's commit message) says about one
 * finding is the rule's to say: review/print.c and fix/mail.c ask it
 * (check.mail, check.why, check.advice) and never compare rule ids.
 * analyzer/checks/words.c has the phrases the rules share. */
struct check_mail {
	const struct finding *f;
	const struct slowpath_model *model; /* the tree's allocator model, or NULL */
};

struct check {
	const char *id;
	/* Report order: findings at one place are listed by it, and the
	 * registration list (generated from the rules' files by
	 * analyzer/checks/gen-list.sh) is sorted by it.  Unique. */
	int rank;
	enum severity severity;
	const char *summary; /* one line, for --help, README, SARIF */
	/* For a finding at an allocation site: what is wrong, after "'API' can
	 * request order N" in a text headline (NULL: the message's first
	 * clause is the headline) */
	const char *headline;
	/* The finding is about a costly order: its confidence (site.h) is
	 * said in the message, and a "possible" one is only a note. */
	bool judged_by_size;
	void (*on_site)(const struct check *c, const struct site *s, struct check_ctx *ctx);
	void (*on_file)(const struct check *c, const struct check_file *f, struct check_ctx *ctx);
	/* Why it matters, in a sentence or two (a fix's commit message). */
	const char *why;
	/* What to change when no candidate fix is offered: one sentence. */
	const char *advice;
	/* The reviewer's statement about m->f: what the code does at this
	 * line and what that means, as plain unwrapped sentences appended to
	 * `out`.  NULL: the request in words (words_request), then mail_text,
	 * then how sure the order is; without mail_text either, the finding's
	 * message as a sentence. */
	void (*mail)(const struct check *c, const struct check_mail *m, struct strbuf *out);
	const char *mail_text;
	/* The slow-path steps (bits of enum sp_fact_id, slowpath.h) that say
	 * why the finding matters on the analyzed tree; 0: none apply. */
	uint64_t slowpath_steps;
	/* The candidate fixes to try, best first (fixkind.h), ending with a
	 * NULL reason; NULL: the rule offers none. */
	const struct fix_step *fixes;
};

/* The registration list, in rank order; NULL-terminated.
 * A rule is reached through it (check_find()), never by its symbol. */
extern const struct check *const check_table[];
size_t check_count(void);
int check_lookup(const char *id); /* index or -1 */
const struct check *check_find(const char *id); /* NULL if unknown */
/* What catches a failure of the site, as a clause ("its callers retry with
 * a smaller size"): the words every mail uses for the fallback kinds. */
const char *words_fallback(const struct site *s);
/* The rule's statement about a finding (its mail hook, or the message). */
void check_mail_statement(const struct check_mail *m, struct strbuf *out);
/* Why the finding matters on the model's tree: the rule's slow-path steps
 * for the finding's costliest attempt, each with the file:line it was read
 * from; nothing when the rule names no step or the site has no order. */
void check_mail_slowpath(const struct check_mail *m, struct strbuf *out);
uint64_t check_default_mask(void);

/* Record a finding for `s` with a formatted message (no trailing period). */
struct finding *check_report(const struct check *c, const struct site *s,
			     struct check_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Record a finding that is not about an allocation site (a function-level
 * inconsistency): the site carries only the place and `subject` as its api. */
struct finding *check_report_at(const struct check *c, struct check_ctx *ctx, const char *function,
				int line, int col, const char *subject, const char *expr,
				const char *fmt, ...) __attribute__((format(printf, 8, 9)));

/* Run every enabled rule over the file's sites (and functions). */
void checks_run_sites(uint64_t enabled, struct check_ctx *ctx);
/* Run every enabled rule that reads whole files (on_file). */
void checks_run_file(uint64_t enabled, const struct check_file *f, struct check_ctx *ctx);

#endif
