/* Patch series from mail: an mbox (or one message) in, ordered patches out;
 * and review replies out as RFC 5322 messages.
 *
 * Everything here reads untrusted input (a series from a mailing list), so
 * every size is capped (struct mail_limits) and a malformed message is
 * skipped with a reason instead of failing the whole series.  Parsing uses
 * GMime; nothing here touches a repository (see apply.h for that).
 *
 * Strings in these structs are owned by the struct and freed by its
 * *_release function.  Text is UTF-8 with LF line ends (CRLF is folded).
 */
#ifndef GFPAUDIT_MAIL_H
#define GFPAUDIT_MAIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct mail_limits {
	size_t max_total;      /* whole mbox, bytes */
	size_t max_message;    /* one message as it sits in the mbox, bytes */
	size_t max_patch;      /* the diff part of one patch, bytes */
	unsigned max_messages; /* messages in one mbox */
};
#define MAIL_MAX_TOTAL_DEFAULT ((size_t)50 << 20)
#define MAIL_MAX_MESSAGE_DEFAULT ((size_t)10 << 20)
#define MAIL_MAX_PATCH_DEFAULT ((size_t)5 << 20)
#define MAIL_MAX_MESSAGES_DEFAULT 1000
#define MAIL_LIMITS_INIT { MAIL_MAX_TOTAL_DEFAULT, MAIL_MAX_MESSAGE_DEFAULT, \
			   MAIL_MAX_PATCH_DEFAULT, MAIL_MAX_MESSAGES_DEFAULT }

/* What a subject line's bracket prefixes say: "[PATCH v3 2/7] mm: foo",
 * "[RFC PATCH 0/3] ...", "[PATCH RFC net-next v2 01/10] ...", "Re: [PATCH] ...". */
struct mail_subject {
	bool is_patch;   /* PATCH or RFC or an m/n counter in the prefix */
	bool is_reply;   /* starts with Re:/Fwd:/Aw: (not a patch, even with a prefix) */
	bool rfc;
	bool numbered;   /* an m/n counter was present */
	int version;     /* 1 when absent */
	int m, n;        /* 1/1 when absent; m == 0 is the cover letter */
	char *tags;      /* other prefix words ("net-next RESEND"), "" when none */
	char *title;     /* the subject after the prefixes */
};
/* Fills `out` (always initialised; release it).  Never fails: a subject
 * without a usable prefix gives is_patch false. */
void mail_subject_parse(const char *subject, struct mail_subject *out);
void mail_subject_release(struct mail_subject *s);

/* One file section of a diff, paths without the a/ b/ prefix (plain
 * `diff -u` paths lose their first component, as `patch -p1`).  NULL for
 * /dev/null sides. */
struct mail_diff_file {
	char *old_path, *new_path;
	char *rename_from, *rename_to; /* git rename/copy headers, or NULL */
	bool git;        /* had a "diff --git" header */
	int hunks;
};
struct mail_diff_info {
	size_t begin, end;      /* the diff is body[begin, end) */
	struct mail_diff_file *files;
	size_t nfiles, files_alloc;
	bool plain;             /* at least one section without "diff --git" */
};
/* Locate the diff in a patch mail body (first "diff --git" line or "--- "
 * line followed by "+++ ") and scan its file headers, counting hunk lines
 * so the signature and trailers after the last hunk are left out.
 * Returns 0, or GA_ENOTFOUND when the body holds no diff.  `out` is always
 * initialised; release it. */
int mail_diff_scan(const char *body, size_t len, struct mail_diff_info *out);
void mail_diff_info_release(struct mail_diff_info *d);
/* Rewrite plain unified-diff sections (`diff -u`, `diff -urN`, quilt) into
 * git form for libgit2's parser: "diff --git a/X b/X", "--- a/X"/"+++ b/X"
 * (or /dev/null with a new/deleted file mode), the first path component
 * stripped as `patch -p1` does; git sections pass unchanged; other lines
 * between sections (Index:, ====, "Only in", signatures) are dropped.
 * Returns a new string (caller frees), its length in *out_len. */
char *mail_diff_to_git(const char *diff, size_t len, size_t *out_len);
/* The first "base-commit: <hex>" trailer line in `body`, or NULL (caller frees). */
char *mail_base_commit(const char *body, size_t len);

struct mail_message {
	char *subject;        /* decoded, whitespace folded */
	char *from, *to, *cc; /* address lists as text ("" when absent) */
	char *message_id;     /* without <>, "" when absent */
	char *in_reply_to;    /* without <>, or NULL */
	char **references;    /* without <>, n_references of them */
	size_t n_references;
	char *date;           /* the Date header as written, or NULL */
	char *body;           /* decoded text parts (+ diff attachments), LF ends */
	size_t body_len;
	struct mail_subject subj;
	/* The diff (a copy of its part of body) and its file list; NULL/empty
	 * when the message has none.  diff_error says why a patch cannot be
	 * used (over the patch size cap) while still holding its place. */
	char *diff;
	size_t diff_len;
	struct mail_diff_info files;
	char *diff_error;
	char *base_commit;    /* its base-commit: trailer, or NULL */
	long offset;          /* byte offset of the message in the mbox */
	size_t size;          /* bytes it takes in the mbox */
};

struct mail_skipped {
	long offset;
	char *subject; /* may be NULL when the headers could not be read */
	char *reason;
};

struct mail_series {
	struct mail_message *messages; /* every message kept, in mbox order */
	size_t nmessages, messages_alloc;
	long cover;          /* index into messages, -1 when there is none */
	size_t *patches;     /* indexes into messages, ordered by m */
	size_t npatches;
	int version, total;  /* of the chosen series (total = n of m/n) */
	char *base_commit;   /* from the cover letter, else the first patch that has one */
	struct mail_skipped *skipped;
	size_t nskipped, skipped_alloc;
	char **warnings;     /* missing patches, conflicting trailers, ... */
	size_t nwarnings, warnings_alloc;
};

/* Parse `buf` (an mbox, or one RFC 2822 message when it does not start with
 * a "From " line) into a series.  Returns 0 (even with skipped messages) or
 * GA_EINVAL when the whole input is over a cap or holds no message at all,
 * with err_last() saying which.  `out` is always initialised; release it. */
int mail_series_parse(const char *buf, size_t len, const struct mail_limits *lim,
		      struct mail_series *out);
/* Read `paths` ("-" for stdin) one after the other as one mbox (the files
 * of `git format-patch` are each an mbox of one message) within the total
 * cap, then mail_series_parse.  GA_EIO when unreadable, GA_EINVAL over the cap. */
int mail_series_read(const char *const *paths, size_t npaths, const struct mail_limits *lim,
		     struct mail_series *out);
void mail_series_release(struct mail_series *s);
/* The message of patch `i` (0-based in m order), or the cover letter (NULL). */
const struct mail_message *mail_series_patch(const struct mail_series *s, size_t i);
const struct mail_message *mail_series_cover(const struct mail_series *s);

/* Replies.  A reply is built from the message it answers: "Re: " subject,
 * In-Reply-To and References to it, To its From, Cc its To and Cc. */
struct mail_reply_opts {
	const char *from;       /* "Name <addr>" (required) */
	const char *user_agent;
	const char *message_id; /* the reply's own, without <> (mail_new_message_id); NULL: made here */
};
/* A new Message-Id (without <>) on the domain of `from`'s address. */
char *mail_new_message_id(const char *from);
struct mail_out; /* an mbox being written */
/* Start an mbox on `f` (not closed by mail_out_free). */
struct mail_out *mail_out_new(FILE *f);
void mail_out_free(struct mail_out *o);
/* Write one reply to `orig` with the UTF-8 `text` as its body.  Returns 0 or
 * GA_EIO. */
int mail_out_reply(struct mail_out *o, const struct mail_message *orig,
		   const struct mail_reply_opts *opts, const char *text);

/* Exposed for tests: unfold and strip a header value to one line. */
char *mail_fold_ws(const char *s);

#endif
