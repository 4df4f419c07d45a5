/* gfpaudit review: a mailed patch series in, review mails (or JSON) out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cmd.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/review.h"
#include "gfpaudit/err.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/vcs.h"

static void usage(FILE *f, const struct cli_option *opts)
{
	fprintf(f,
"usage: gfpaudit review MBOX... [--tree REPO] [--base REV] [--format email|json|b4|b4-check] [-o FILE]\n"
"\n"
"Review a patch series from a mailing list: find its base, apply it patch by\n"
"patch in memory, analyze the C files each patch touches before and after it,\n"
"and report only what the series changes (introduced and fixed findings).\n"
"\n"
"  MBOX...              the series (b4 am output, or the files of git format-patch,\n"
"                       read as one mbox); '-' for stdin\n");
	cli_print_options(f, opts);
	fprintf(f, "\n"
"The series is untrusted: it is applied in memory only (no checkout, no index,\n"
"no refs), paths leaving the tree are refused, sizes are capped (10 MB a message,\n"
"5 MB a diff, 50 MB an mbox), and nothing from it is built or run.\n"
"\n"
"exit: 0 nothing new, 1 findings introduced, 2 usage or a series that cannot be\n"
"reviewed (base not in REPO, no patch, over a cap, a patch that does not apply),\n"
"3 tool failure (files the engine could not analyze)\n");
	cli_print_setup(f, "SOURCE_DATE_EPOCH (the Date of the reply mails)");
}

/* Everything from the mail (subjects, paths, errors quoting them) goes
 * out with its control characters escaped. */
static void tell(int quiet, const char *fmt, const char *a, const char *b)
{
	if (quiet)
		return;
	char *pa = xprintable(a), *pb = xprintable(b);
	fprintf(stderr, fmt, pa, pb);
	free(pa);
	free(pb);
}

struct review_args {
	struct cli_common c;
	const char *output, *from, *base;
	int no_pch;
	struct isolate_limits iso;
	const char *const *mboxes;
	size_t nmboxes;
	bool b4, b4check; /* --format b4 or b4-check; b4check: b4 too */
	int sev;
};

/* Parse the command line into *a: -1 to go on, else the exit code. */
static int review_parse(int argc, char **argv, struct review_args *a)
{
	const struct cli_option opts[] = {
		CLI_STRING(0, "tree", &a->c.tree, "REPO",
			"git repository to apply to (default: .); when it is a\n"
			"prepared kernel tree its kbuild flags are used"),
		CLI_STRING(0, "base", &a->base, "REV",
			"base when the series has no base-commit: trailer (or names\n"
			"one that REPO lacks); default HEAD"),
		CLI_CHOICE(0, "format", &a->c.format, "FMT", "email|json|b4|b4-check",
			"email (default: an mbox of replies), json, b4 (read one\n"
			"message on stdin, print a JSON array of check results:\n"
			"b4's review-perpatch-check-cmd), or b4-check (one line per\n"
			"finding, nothing when clean: b4's am/prep-perpatch-check-cmd);\n"
			"both read B4_TRACKING_FILE to apply patch N after patch N-1"),
		CLI_STRING('o', NULL, &a->output, "FILE", "write the output to FILE instead of stdout"),
		CLI_STRING(0, "from", &a->from, "ADDR",
			"sender of the reply mails (default: git's user.name and\n"
			"user.email in REPO; --format email needs one of them)"),
		CLI_STRING(0, "enable", &a->c.enable, "RULE,..", "run only these rules"),
		CLI_STRING(0, "disable", &a->c.disable, "RULE,..", "do not run these rules"),
		CLI_CALLBACK(0, "allocators", &a->c, "FILE", cli_opt_allocator, "extra allocator table"),
		CLI_CALLBACK(0, "severity", &a->c.severity, "LEVEL", cli_opt_severity,
			"report introduced and fixed findings at or above\n"
			"note|warning|error (default warning: a costly order that is\n"
			"not proven is a note, never mailed; introduced ones are\n"
			"counted on stderr and in JSON)"),
		CLI_SET('q', "quiet", &a->c.quiet, 1, "say nothing on stderr but errors"),
		CLI_ISOLATE_OPTIONS(&a->iso),
		CLI_SET(0, "no-pch", &a->no_pch, 1,
			"parse without the precompiled kernel headers (used with a\n"
			"prepared tree when the series touches no header)"),
		CLI_COUNT('v', "verbose", &a->c.verbose, "name the .gfpaudit read (see below)"),
		CLI_HELP(),
		CLI_END(),
	};
	int rc, i = cli_parse_options("review", opts, argc, argv, usage, &rc);
	if (i < 0)
		return rc;
	a->b4check = !strcmp(a->c.format, "b4-check");
	a->b4 = !strcmp(a->c.format, "b4") || a->b4check;
	if (a->b4check)
		a->c.quiet = 1; /* b4 takes any stderr line for a failure */
	static const char *const stdin_only[] = { "-" };
	a->mboxes = i < argc ? (const char *const *)argv + i : a->b4 ? stdin_only : NULL;
	a->nmboxes = i < argc ? (size_t)(argc - i) : 1;
	if (!a->mboxes) {
		fprintf(stderr, "gfpaudit review: no MBOX given\n");
		usage(stderr, opts);
		return EXIT_USAGE;
	}
	a->sev = severity_lookup(a->c.severity);
	return -1;
}

/* The review's options, the engine's from the command line and .gfpaudit,
 * and the sender of the mails (*ident: git's identity, to free). */
static int review_setup(struct review_args *a, struct review_opts *ro, char **ident)
{
	struct cli_common *c = &a->c;
	*ro = (struct review_opts){
		.mboxes = a->mboxes, .nmboxes = a->nmboxes, .repo = c->tree ? c->tree : ".", .base = a->base,
		.limits = MAIL_LIMITS_INIT, .max_file = REVIEW_MAX_FILE_DEFAULT, .verbose = c->verbose,
		.min_severity = a->sev, .isolation = a->iso,
		.b4_tracking = a->b4 && getenv("B4_TRACKING_FILE") && *getenv("B4_TRACKING_FILE") ? getenv("B4_TRACKING_FILE") : NULL,
	};
	c->config_from = ro->repo;
	c->tree = NULL; /* review decides: kbuild flags only for a prepared tree */
	if (cli_engine_opts(c, &ro->engine)) {
		fprintf(stderr, "gfpaudit review: %s\n", err_last());
		return EXIT_USAGE;
	}
	/* the mails (and b4's details) offer the verified candidate fix */
	ro->engine.fixes = !a->b4check && strcmp(c->format, "json");
	ro->no_pch = a->no_pch;

	/* -o naming one of the inputs would replace the series with its review */
	struct stat ost;
	if (a->output && stat(a->output, &ost) == 0)
		for (size_t i = 0; i < a->nmboxes; i++) {
			struct stat ist;
			if (strcmp(a->mboxes[i], "-") && stat(a->mboxes[i], &ist) == 0 &&
			    ist.st_dev == ost.st_dev && ist.st_ino == ost.st_ino) {
				fprintf(stderr, "gfpaudit review: -o '%s' is the input '%s': refusing to overwrite it\n",
					a->output, a->mboxes[i]);
				return EXIT_USAGE;
			}
		}
	if (!a->from && !a->b4 && !strcmp(c->format, "email")) {
		struct vcs *v = NULL;
		/* no repository at all: review_run says so */
		if (!vcs_open(ro->repo, 0, &v) && vcs_identity(v, ident)) {
			fprintf(stderr, "gfpaudit review: --format email needs a sender: pass --from 'Name <addr>' "
				"or set user.name and user.email in git's configuration\n");
			vcs_free(v);
			return EXIT_USAGE;
		}
		vcs_free(v);
		a->from = *ident;
	}
	return -1;
}

/* -o is written to a temporary file next to it (*tmp) and renamed at the
 * end by close_output(): a failed run leaves the previous output as it was. */
static int open_output(const char *output, FILE **out, char **tmp)
{
	*out = stdout;
	*tmp = NULL;
	if (!output)
		return -1;
	*tmp = xasprintf("%s.gfpaudit-XXXXXX", output);
	int fd = mkstemp(*tmp);
	mode_t mask = umask(0);
	umask(mask);
	if (fd >= 0)
		fchmod(fd, 0666 & ~mask); /* as fopen would have made it */
	if (fd < 0 || !(*out = fdopen(fd, "w"))) {
		fprintf(stderr, "gfpaudit review: cannot write '%s': %s\n", output, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(*tmp);
		}
		free(*tmp);
		*tmp = NULL;
		*out = stdout;
		return EXIT_TOOL;
	}
	return -1;
}

/* Close -o's temporary file; rename it over `output` when the whole report
 * (`complete`) was written.  Returns the exit code. */
static int close_output(const char *output, FILE *out, char *tmp, bool complete, int exit_code)
{
	if (out == stdout)
		return exit_code;
	int bad = fflush(out) != 0 || ferror(out);
	bad |= fclose(out) != 0;
	/* a run that stopped before its report was printed (or could not
	 * write it) does not replace a previous output */
	bool keep = !bad && complete;
	if (bad && exit_code != EXIT_TOOL) {
		fprintf(stderr, "gfpaudit review: cannot write '%s'\n", output);
		exit_code = EXIT_TOOL;
	}
	if (keep && rename(tmp, output) != 0) {
		fprintf(stderr, "gfpaudit review: cannot write '%s': %s\n", output, strerror(errno));
		exit_code = EXIT_TOOL;
		keep = false;
	}
	if (!keep) {
		unlink(tmp);
		if (!bad)
			fprintf(stderr, "gfpaudit review: '%s' left as it was (the review did not complete)\n", output);
	}
	free(tmp);
	return exit_code;
}

/* The review of a series with patches: notes on stderr, the report in the
 * chosen format on `out` (*complete when all of it was printed), the
 * counts.  Returns the exit code. */
static int review_report(const struct review_args *a, struct review *r, FILE *out, bool *complete)
{
	const struct cli_common *c = &a->c;
	int exit_code = EXIT_CLEAN;
	tell(c->quiet, "gfpaudit review: %s%s\n", r->base_note, "");
	for (size_t i = 0; i < r->series.nskipped; i++)
		tell(c->quiet, "gfpaudit review: skipped '%s': %s\n",
		     r->series.skipped[i].subject ? r->series.skipped[i].subject : "(no subject)",
		     r->series.skipped[i].reason);
	for (size_t i = 0; i < r->series.nwarnings; i++)
		tell(c->quiet, "gfpaudit review: warning: %s%s\n", r->series.warnings[i], "");
	size_t findings = 0, unapplied = 0, notes = 0;
	for (size_t i = 0; i < r->npatches; i++) {
		const struct review_patch *p = &r->patches[i];
		findings += p->nintroduced;
		if (!p->applied) {
			unapplied++;
			if (unapplied == 1)
				tell(a->b4check, "gfpaudit review: '%s' %s\n", p->msg->subject, p->error);
		}
		if (p->ar.moved && !c->quiet) {
			char *subj = xprintable(p->msg->subject);
			fprintf(stderr, "gfpaudit review: '%s': %d hunk%s applied at an offset\n", subj,
				p->ar.moved, p->ar.moved == 1 ? "" : "s");
			free(subj);
		}
		for (size_t k = 0; k < p->nnotes; k++, notes++)
			tell(c->quiet, "gfpaudit review: %s%s\n", p->notes[k], "");
	}
	int prc;
	if (a->b4check)
		prc = review_print_b4_check(r, out);
	else if (a->b4)
		prc = review_print_b4(r, out);
	else if (!strcmp(c->format, "json"))
		prc = review_print_json(r, out);
	else
		prc = review_print_email(r, &(struct review_print_opts){ .from = a->from }, out);
	*complete = prc == 0;
	if (prc) {
		tell(0, "gfpaudit review: %s%s\n", err_last(), "");
		exit_code = EXIT_TOOL;
	} else if (a->b4check) {
		exit_code = findings || unapplied ? EXIT_FINDINGS : EXIT_CLEAN;
	} else if (a->b4) {
		exit_code = EXIT_CLEAN; /* the verdict is in the JSON */
	} else if (findings) {
		exit_code = EXIT_FINDINGS;
	} else if (unapplied) {
		exit_code = EXIT_USAGE;
	} else if (notes) {
		exit_code = EXIT_TOOL;
	}
	if (!c->quiet) {
		size_t open, transient, fixed;
		review_counts(r, &open, &transient, &fixed);
		fprintf(stderr, "gfpaudit review: %zu/%zu patches applied; %zu introduced (%zu fixed again later in the series), %zu fixed\n",
			r->npatches - unapplied, r->npatches, open + transient, transient, fixed);
		/* not on the list: a costly order gfpaudit could not prove is
		 * wrong too often to be mailed (README "Severity of a review") */
		size_t below = review_below(r);
		if (below)
			fprintf(stderr, "gfpaudit review: %zu introduced finding%s below --severity %s not mailed%s;"
				" --severity %s shows %s\n", below, below == 1 ? "" : "s", c->severity,
				a->sev == SEV_WARNING ? " (notes: a costly order not proven, a missing __GFP_NOWARN)" : "",
				a->sev == SEV_ERROR ? "warning or note" : "note", below == 1 ? "it" : "them");
	}
	return exit_code;
}

int cmd_review(int argc, char **argv)
{
	struct review_args a = { .c = { .format = "email", .severity = "warning" },
				 .iso = { ISOLATE_TIMEOUT_SEC, ISOLATE_MEM_LIMIT_MB } };
	struct review_opts ro;
	char *ident = NULL, *tmp = NULL;
	FILE *out = stdout;
	struct review *r = NULL;
	bool complete = false; /* the whole report was printed */
	int rc;
	if ((rc = review_parse(argc, argv, &a)) >= 0)
		return rc;
	if ((rc = review_setup(&a, &ro, &ident)) >= 0 || (rc = open_output(a.output, &out, &tmp)) >= 0) {
		free(ident);
		return rc;
	}
	int exit_code = EXIT_CLEAN;
	if ((rc = review_run(&ro, &r))) {
		tell(0, "gfpaudit review: %s%s\n", err_last(), "");
		exit_code = rc == GA_ENOTFOUND || rc == GA_EINVAL || rc == GA_EIO || rc == GA_ETREE ? EXIT_USAGE : EXIT_TOOL;
		if (a.b4 && !a.b4check) {
			complete = review_print_b4_error(err_last(), out) == 0;
			exit_code = exit_code == EXIT_USAGE ? EXIT_CLEAN : exit_code;
		}
	} else if (!r->npatches) { /* a cover letter alone */
		if (!a.b4) {
			tell(0, "gfpaudit review: %s%s\n", "the input holds a cover letter and no patch", "");
			exit_code = EXIT_USAGE;
		} else if (!a.b4check) {
			fputs("[]\n", out);
		}
		complete = true;
	} else {
		exit_code = review_report(&a, r, out, &complete);
	}
	review_free(r);
	free(ident);
	return close_output(a.output, out, tmp, complete, exit_code);
}
