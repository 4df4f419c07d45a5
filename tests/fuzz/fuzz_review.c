/* libFuzzer target: the whole `gfpaudit review` path on untrusted mail:
 * mbox -> series -> base -> apply (in memory) -> analysis of each touched C
 * file (in a child process, as review does) -> classification -> the JSON,
 * email and b4 printers.  The repository is a tiny one made at start-up;
 * the input is written to a file because review reads mbox paths.
 * `make fuzz` builds and runs it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <git2.h>
#include "gfpaudit/review.h"
#include "gfpaudit/cli.h"
#include "fuzz_repo.h"

static void print_all(const struct review *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return;
	struct review_print_opts po = { .from = "gfpaudit <gfpaudit@localhost>", .repo_name = "fuzz" };
	review_print_json(r, f);
	review_print_email(r, &po, f);
	review_print_b4(r, f);
	size_t open_, transient, fixed;
	review_counts(r, &open_, &transient, &fixed);
	fclose(f);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *dir;
	static char mbox[] = "/tmp/gfpaudit-fuzz-mbox.XXXXXX";
	static struct cli_common c;
	static struct engine_opts eo;
	if (!dir) {
		git_libgit2_init();
		dir = fuzz_repo_create();
		int fd = mkstemp(mbox);
		if (!dir || fd < 0 || cli_engine_opts(&c, &eo))
			abort();
		close(fd);
	}
	FILE *f = fopen(mbox, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	const char *boxes[] = { mbox };
	struct review_opts o = {
		.mboxes = boxes, .nmboxes = 1, .repo = dir, .engine = eo,
		.limits = MAIL_LIMITS_INIT, .max_file = REVIEW_MAX_FILE_DEFAULT,
		.isolation = { 20, 0 },
	};
	struct review *r = NULL;
	if (review_run(&o, &r) == 0 && r) {
		print_all(r);
		review_free(r);
	}
	return 0;
}
