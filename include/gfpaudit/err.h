/* Error codes and the one "last error" message.
 *
 * Library functions return 0 on success or a negative GA_E* code, and set a
 * message with err_set() at the place where the failure happened.  Callers
 * pass the code up (one `goto cleanup`); only the command layer prints
 * err_last() and decides the exit code.  The message buffer is per process
 * (workers are processes, not threads).
 */
#ifndef GFPAUDIT_ERR_H
#define GFPAUDIT_ERR_H

enum {
	GA_OK = 0,
	GA_ENOMEM = -1,    /* allocation failed */
	GA_EIO = -2,       /* file missing, unreadable, not a regular file */
	GA_EINVAL = -3,    /* bad input: usage, malformed data */
	GA_EPARSE = -4,    /* the front end could not parse the file at all */
	GA_ETREE = -5,     /* kernel tree missing or not prepared */
	GA_ETOOL = -6,     /* an external tool or library failed */
	GA_ENOTFOUND = -7, /* looked-up thing does not exist */
};

/* Set the last error message (printf-style); returns `code` for tail calls. */
int err_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The last message set, or "" when none. Lent; valid until the next err_set. */
const char *err_last(void);
void err_clear(void);

/* GFPAUDIT_DEBUG=1 in the environment: the model's trace on stderr (read
 * once; the trace calls sit in hot paths). */
int debug_on(void);

/* Exit codes of the command layer (README documents them). */
enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2, EXIT_TOOL = 3 };

#endif
