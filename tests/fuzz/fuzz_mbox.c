/* libFuzzer target for what `gfpaudit review` does with untrusted mail
 * before anything is applied: mbox/MIME parsing into a series, subject
 * prefixes, base-commit trailers, diff extraction and file headers, the
 * path checks, plain-diff normalization, libgit2's patch parser on what we
 * hand it, and building a reply to a hostile message.
 *
 * Build and run: `make fuzz` (60 s; FUZZ_TIME=N to change).  Not part of
 * `make test`.  Crashes land in build/fuzz/ as crash-* files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include "gfpaudit/mail.h"
#include "gfpaudit/apply.h"

static void check_paths(const struct mail_diff_info *d)
{
	for (size_t i = 0; i < d->nfiles; i++) {
		const char *p[4] = { d->files[i].old_path, d->files[i].new_path,
				     d->files[i].rename_from, d->files[i].rename_to };
		for (int k = 0; k < 4; k++)
			if (p[k])
				(void)apply_check_path(p[k]);
	}
}

/* What apply_patch does before it touches a repository. */
static void parse_diff(const char *text, size_t len)
{
	git_diff *diff = NULL;
	if (git_diff_from_buffer(&diff, text, len) == 0) {
		for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
			const git_diff_delta *d = git_diff_get_delta(diff, i);
			if (d->old_file.path)
				(void)apply_check_path(d->old_file.path);
			if (d->new_file.path)
				(void)apply_check_path(d->new_file.path);
		}
	}
	git_diff_free(diff);
	size_t n;
	char *g = mail_diff_to_git(text, len, &n);
	if (n && git_diff_from_buffer(&diff, g, n) == 0)
		git_diff_free(diff);
	free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	if (!init) {
		git_libgit2_init();
		init = 1;
	}
	const char *text = (const char *)data;

	/* the raw bytes as a mail body */
	struct mail_diff_info d;
	if (mail_diff_scan(text, size, &d) == 0) {
		check_paths(&d);
		parse_diff(text + d.begin, d.end - d.begin);
	}
	mail_diff_info_release(&d);
	free(mail_base_commit(text, size));

	/* the raw bytes as an mbox, with small caps so the caps are exercised */
	struct mail_limits lim = { .max_total = 1 << 20, .max_message = 64 << 10,
				   .max_patch = 32 << 10, .max_messages = 32 };
	struct mail_series s;
	if (mail_series_parse(text, size, &lim, &s) == 0) {
		for (size_t i = 0; i < s.nmessages; i++) {
			const struct mail_message *m = &s.messages[i];
			check_paths(&m->files);
			if (m->diff)
				parse_diff(m->diff, m->diff_len);
		}
		const struct mail_message *first = s.nmessages ? &s.messages[0] : NULL;
		if (first) {
			char *buf = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&buf, &len);
			if (f) {
				struct mail_out *o = mail_out_new(f);
				(void)mail_out_reply(o, first, NULL, "review text\n> quoted\nFrom here\n");
				mail_out_free(o);
				fclose(f);
			}
			free(buf);
		}
	}
	mail_series_release(&s);
	return 0;
}
