/* gfpaudit review: a mailed patch series in, review mails (or JSON) out. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "gfpaudit/cmd.h"
#include "gfpaudit/cli.h"
#include "gfpaudit/review.h"
#include "gfpaudit/err.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/vcs.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: gfpaudit review MBOX... [--tree REPO] [--base REV] [--format email|json|b4|b4-check] [-o FILE]\n"
"\n"
"Review a patch series from a mailing list: find its base, apply it patch by\n"
"patch in memory, analyze the C files each patch touches before and after it,\n"
"and report only what the series changes (introduced and fixed findings).\n"
"\n"
"  MBOX...              the series (b4 am output, or the files of git format-patch,\n"
"                       read as one mbox); '-' for stdin\n"
"  --tree REPO          git repository to apply to (default: .); when it is a\n"
"                       prepared kernel tree its kbuild flags are used\n"
"  --base REV           base when the series has no base-commit: trailer (or names\n"
"                       one that REPO lacks); default HEAD\n"
"  --format FMT         email (default: an mbox of replies), json, b4 (read one\n"
"                       message on stdin, print a JSON array of check results:\n"
"                       b4's review-perpatch-check-cmd), or b4-check (one line per\n"
"                       finding, nothing when clean: b4's am/prep-perpatch-check-cmd);\n"
"                       both read B4_TRACKING_FILE to apply patch N after patch N-1\n"
"  -o FILE              write the output to FILE instead of stdout\n"
"  --from ADDR          sender of the reply mails (default: git's user.name and\n"
"                       user.email in REPO; --format email needs one of them)\n"
"  --enable RULE,..     run only these rules;  --disable RULE,..  do not run these\n"
"  --allocators FILE    extra allocator table\n"
"  --severity LEVEL     report introduced and fixed findings at or above\n"
"                       note|warning|error (default warning: a costly order that is\n"
"                       not proven is a note, never mailed; introduced ones are\n"
"                       counted on stderr and in JSON)\n"
"  -q, --quiet          say nothing on stderr but errors\n"
"  --timeout SEC        give up on one file after SEC seconds (default 300); each\n"
"                       file is analyzed in a child process, so a file that crashes,\n"
"                       hangs or exhausts the analyzer fails alone (exit 3)\n"
"  --memory-limit MIB   address-space limit of that child (default 4096)\n"
"  --no-pch             parse without the precompiled kernel headers (used with a\n"
"                       prepared tree when the series touches no header)\n"
"  -v, --verbose        name the .gfpaudit read (see below)\n"
"  -h, --help           this text\n"

"\n"
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

int cmd_review(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "base", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "from", required_argument, NULL, 'F' },
		{ "enable", required_argument, NULL, 'E' },
		{ "disable", required_argument, NULL, 'D' },
		{ "allocators", required_argument, NULL, 'A' },
		{ "severity", required_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "memory-limit", required_argument, NULL, 'm' },
		{ "no-pch", no_argument, NULL, 'P' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_common c = { .format = "email", .severity = "warning" };
	const char *output = NULL, *from = NULL, *base = NULL;
	int opt, no_pch = 0;
	struct isolate_limits iso = { ISOLATE_TIMEOUT_SEC, ISOLATE_MEM_LIMIT_MB };
	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:qvh", longopts, NULL)) != -1) {
		switch (opt) {
		case 't': c.tree = optarg; break;
		case 'b': base = optarg; break;
		case 'f': c.format = optarg; break;
		case 'F': from = optarg; break;
		case 'E': c.enable = optarg; break;
		case 'D': c.disable = optarg; break;
		case 'A': cli_add_allocator(&c, optarg); break;
		case 'S': c.severity = optarg; break;
		case 'o': output = optarg; break;
		case 'q': c.quiet = 1; break;
		case 'P': no_pch = 1; break;
		case 'T':
		case 'm':
			if (cli_parse_limit("review", opt == 'T', optarg, &iso)) {
				fprintf(stderr, "%s\n", err_last());
				return EXIT_USAGE;
			}
			break;
		case 'v': c.verbose++; break;
		case 'h': usage(stdout); return EXIT_CLEAN;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	bool b4check = !strcmp(c.format, "b4-check");
	bool b4 = !strcmp(c.format, "b4") || b4check;
	if (!b4 && strcmp(c.format, "email") && strcmp(c.format, "json")) {
		fprintf(stderr, "gfpaudit review: unknown format '%s' (email, json, b4, b4-check)\n", c.format);
		return EXIT_USAGE;
	}
	if (b4check)
		c.quiet = 1; /* b4 takes any stderr line for a failure */
	static const char *const stdin_only[] = { "-" };
	const char *const *mboxes = optind < argc ? (const char *const *)argv + optind : b4 ? stdin_only : NULL;
	size_t nmboxes = optind < argc ? (size_t)(argc - optind) : 1;
	if (!mboxes) {
		fprintf(stderr, "gfpaudit review: no MBOX given\n");
		usage(stderr);
		return EXIT_USAGE;
	}

	int sev = severity_lookup(c.severity);
	if (sev < 0) {
		fprintf(stderr, "gfpaudit review: unknown severity '%s' (note, warning, error)\n", c.severity);
		return EXIT_USAGE;
	}
	struct review_opts ro = {
		.mboxes = mboxes, .nmboxes = nmboxes, .repo = c.tree ? c.tree : ".", .base = base,
		.limits = MAIL_LIMITS_INIT, .max_file = REVIEW_MAX_FILE_DEFAULT, .verbose = c.verbose,
		.min_severity = sev, .isolation = iso,
		.b4_tracking = b4 && getenv("B4_TRACKING_FILE") && *getenv("B4_TRACKING_FILE") ? getenv("B4_TRACKING_FILE") : NULL,
	};
	c.config_from = ro.repo;
	c.tree = NULL; /* review decides: kbuild flags only for a prepared tree */
	if (cli_engine_opts(&c, &ro.engine)) {
		fprintf(stderr, "gfpaudit review: %s\n", err_last());
		return EXIT_USAGE;
	}
	/* the mails (and b4's details) offer the verified candidate fix */
	ro.engine.fixes = !b4check && strcmp(c.format, "json");
	ro.no_pch = no_pch;

	/* -o naming one of the inputs would replace the series with its review */
	struct stat ost;
	if (output && stat(output, &ost) == 0)
		for (size_t i = 0; i < nmboxes; i++) {
			struct stat ist;
			if (strcmp(mboxes[i], "-") && stat(mboxes[i], &ist) == 0 &&
			    ist.st_dev == ost.st_dev && ist.st_ino == ost.st_ino) {
				fprintf(stderr, "gfpaudit review: -o '%s' is the input '%s': refusing to overwrite it\n",
					output, mboxes[i]);
				return EXIT_USAGE;
			}
		}
	/* -o is written to a temporary file next to it and renamed at the end:
	 * a failed run leaves the previous output as it was */
	FILE *out = stdout;
	char *tmp = NULL;
	if (output) {
		tmp = xasprintf("%s.gfpaudit-XXXXXX", output);
		int fd = mkstemp(tmp);
		mode_t mask = umask(0);
		umask(mask);
		if (fd >= 0)
			fchmod(fd, 0666 & ~mask); /* as fopen would have made it */
		if (fd < 0 || !(out = fdopen(fd, "w"))) {
			fprintf(stderr, "gfpaudit review: cannot write '%s': %s\n", output, strerror(errno));
			if (fd >= 0) {
				close(fd);
				unlink(tmp);
			}
			free(tmp);
			return EXIT_TOOL;
		}
	}
	char *ident = NULL;
	if (!from && !b4 && !strcmp(c.format, "email")) {
		struct vcs *v = NULL;
		/* no repository at all: review_run says so */
		if (!vcs_open(ro.repo, 0, &v) && vcs_identity(v, &ident)) {
			fprintf(stderr, "gfpaudit review: --format email needs a sender: pass --from 'Name <addr>' "
				"or set user.name and user.email in git's configuration\n");
			vcs_free(v);
			if (out != stdout) {
				fclose(out);
				unlink(tmp);
				free(tmp);
			}
			return EXIT_USAGE;
		}
		vcs_free(v);
		from = ident;
	}
	struct review *r = NULL;
	bool complete = false; /* the whole report was printed */
	int rc = review_run(&ro, &r), exit_code = EXIT_CLEAN;
	if (rc) {
		tell(0, "gfpaudit review: %s%s\n", err_last(), "");
		exit_code = rc == GA_ENOTFOUND || rc == GA_EINVAL || rc == GA_EIO || rc == GA_ETREE ? EXIT_USAGE : EXIT_TOOL;
		if (b4 && !b4check) {
			complete = review_print_b4_error(err_last(), out) == 0;
			exit_code = exit_code == EXIT_USAGE ? EXIT_CLEAN : exit_code;
		}
		goto done;
	}

	if (!r->npatches) { /* a cover letter alone */
		if (!b4) {
			tell(0, "gfpaudit review: %s%s\n", "the input holds a cover letter and no patch", "");
			exit_code = EXIT_USAGE;
		} else if (!b4check) {
			fputs("[]\n", out);
		}
		complete = true;
		goto done;
	}
	tell(c.quiet, "gfpaudit review: %s%s\n", r->base_note, "");
	for (size_t i = 0; i < r->series.nskipped; i++)
		tell(c.quiet, "gfpaudit review: skipped '%s': %s\n",
		     r->series.skipped[i].subject ? r->series.skipped[i].subject : "(no subject)",
		     r->series.skipped[i].reason);
	for (size_t i = 0; i < r->series.nwarnings; i++)
		tell(c.quiet, "gfpaudit review: warning: %s%s\n", r->series.warnings[i], "");
	size_t findings = 0, unapplied = 0, notes = 0;
	for (size_t i = 0; i < r->npatches; i++) {
		const struct review_patch *p = &r->patches[i];
		findings += p->nintroduced;
		if (!p->applied) {
			unapplied++;
			if (unapplied == 1)
				tell(b4check, "gfpaudit review: '%s' %s\n", p->msg->subject, p->error);
		}
		if (p->ar.moved && !c.quiet) {
			char *subj = xprintable(p->msg->subject);
			fprintf(stderr, "gfpaudit review: '%s': %d hunk%s applied at an offset\n", subj,
				p->ar.moved, p->ar.moved == 1 ? "" : "s");
			free(subj);
		}
		for (size_t k = 0; k < p->nnotes; k++, notes++)
			tell(c.quiet, "gfpaudit review: %s%s\n", p->notes[k], "");
	}
	int prc;
	if (b4check)
		prc = review_print_b4_check(r, out);
	else if (b4)
		prc = review_print_b4(r, out);
	else if (!strcmp(c.format, "json"))
		prc = review_print_json(r, out);
	else
		prc = review_print_email(r, &(struct review_print_opts){ .from = from }, out);
	complete = prc == 0;
	if (prc) {
		tell(0, "gfpaudit review: %s%s\n", err_last(), "");
		exit_code = EXIT_TOOL;
	} else if (b4check) {
		exit_code = findings || unapplied ? EXIT_FINDINGS : EXIT_CLEAN;
	} else if (b4) {
		exit_code = EXIT_CLEAN; /* the verdict is in the JSON */
	} else if (findings) {
		exit_code = EXIT_FINDINGS;
	} else if (unapplied) {
		exit_code = EXIT_USAGE;
	} else if (notes) {
		exit_code = EXIT_TOOL;
	}
	if (!c.quiet) {
		size_t open, transient, fixed;
		review_counts(r, &open, &transient, &fixed);
		fprintf(stderr, "gfpaudit review: %zu/%zu patches applied; %zu introduced (%zu fixed again later in the series), %zu fixed\n",
			r->npatches - unapplied, r->npatches, open + transient, transient, fixed);
		/* not on the list: a costly order gfpaudit could not prove is
		 * wrong too often to be mailed (README "Severity of a review") */
		size_t below = review_below(r);
		if (below)
			fprintf(stderr, "gfpaudit review: %zu introduced finding%s below --severity %s not mailed%s;"
				" --severity %s shows %s\n", below, below == 1 ? "" : "s", c.severity,
				sev == SEV_WARNING ? " (notes: a costly order not proven, a missing __GFP_NOWARN)" : "",
				sev == SEV_ERROR ? "warning or note" : "note", below == 1 ? "it" : "them");
	}
done:
	review_free(r);
	free(ident);
	if (out != stdout) {
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
	}
	return exit_code;
}
