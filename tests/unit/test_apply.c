/* vcs/apply.c: patches applied to a scratch repository in memory. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>
#include <git2.h>
#include "harness.h"
#include "gfpaudit/apply.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

struct file { const char *path, *text; };

/* A repository with one commit holding `files`; returns its directory. */
static char *make_repo(const struct file *files, size_t n)
{
	char tmpl[] = "/tmp/gfpaudit-apply-XXXXXX";
	char *dir = mkdtemp(tmpl);
	if (!dir)
		return NULL;
	dir = xstrdup(dir);
	git_libgit2_init();
	git_repository *repo = NULL;
	git_index *idx = NULL;
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_oid tree_id, commit_id;
	if (git_repository_init(&repo, dir, 0) < 0 || git_repository_index(&idx, repo) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		git_index_entry e;
		memset(&e, 0, sizeof(e));
		e.path = files[i].path;
		e.mode = GIT_FILEMODE_BLOB;
		if (git_index_add_from_buffer(idx, &e, files[i].text, strlen(files[i].text)) < 0)
			goto out;
		/* the work tree too, so we can see that it is never touched */
		char *p = xasprintf("%s/%s", dir, files[i].path);
		char *slash = strrchr(p, '/');
		*slash = '\0';
		char *cmd = xasprintf("mkdir -p '%s'", p);
		if (system(cmd)) { /* test scaffolding only */ }
		free(cmd);
		*slash = '/';
		FILE *f = fopen(p, "w");
		if (f) {
			fputs(files[i].text, f);
			fclose(f);
		}
		free(p);
	}
	if (git_index_write(idx) < 0 || git_index_write_tree(&tree_id, idx) < 0 ||
	    git_tree_lookup(&tree, repo, &tree_id) < 0 ||
	    git_signature_new(&sig, "T", "t@example.org", 1700000000, 0) < 0 ||
	    git_commit_create_v(&commit_id, repo, "HEAD", sig, sig, NULL, "base", tree, 0) < 0)
		goto out;
out:
	git_tree_free(tree);
	git_signature_free(sig);
	git_index_free(idx);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return dir;
}

static void rm_rf(char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd)) { /* best effort */ }
	free(cmd);
	free(dir);
}

/* Loose objects under .git/objects: must not grow when we apply. */
static int count_objects(const char *dir)
{
	int n = 0;
	char *objs = xasprintf("%s/.git/objects", dir);
	DIR *d = opendir(objs);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (strlen(de->d_name) != 2)
			continue;
		char *sub = xasprintf("%s/%s", objs, de->d_name);
		DIR *s = opendir(sub);
		struct dirent *x;
		while (s && (x = readdir(s)))
			n += x->d_name[0] != '.';
		if (s)
			closedir(s);
		free(sub);
	}
	if (d)
		closedir(d);
	free(objs);
	return n;
}

/* Set (set=true) or check every file under .git/objects to an old mtime:
 * libgit2 "freshens" objects it would write again by touching them. */
static int old_mtimes(const char *dir, bool set)
{
	int bad = 0;
	char *objs = xasprintf("%s/.git/objects", dir);
	DIR *d = opendir(objs);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (strlen(de->d_name) != 2)
			continue;
		char *sub = xasprintf("%s/%s", objs, de->d_name);
		DIR *sd = opendir(sub);
		struct dirent *x;
		while (sd && (x = readdir(sd))) {
			if (x->d_name[0] == '.')
				continue;
			char *f = xasprintf("%s/%s", sub, x->d_name);
			struct stat st;
			if (set) {
				struct utimbuf ut = { 1000000000, 1000000000 };
				utime(f, &ut);
			} else if (stat(f, &st) || st.st_mtime != 1000000000) {
				bad++;
			}
			free(f);
		}
		if (sd)
			closedir(sd);
		free(sub);
	}
	if (d)
		closedir(d);
	free(objs);
	return bad;
}

static const struct file base_files[] = {
	{ "mm/a.c", "one\ntwo\nthree\n" },
	{ "mm/b.h", "#define X 1\n" },
};

static const char p_modify[] =
	"diff --git a/mm/a.c b/mm/a.c\n"
	"--- a/mm/a.c\n"
	"+++ b/mm/a.c\n"
	"@@ -1,3 +1,3 @@\n"
	" one\n"
	"-two\n"
	"+TWO\n"
	" three\n";

TEST(apply_in_memory_chain)
{
	char *dir = make_repo(base_files, 2);
	REQUIRE(dir != NULL);
	int before = count_objects(dir);
	old_mtimes(dir, true);
	struct stat ist0, ist1;
	char *ipath = xasprintf("%s/.git/index", dir);
	stat(ipath, &ist0);

	struct apply_repo *r = NULL;
	REQUIRE_EQ_INT(apply_repo_open(dir, &r), 0);
	CHECK_EQ_STR(apply_repo_root(r), dir);
	char sha[41];
	struct apply_tree *base = NULL;
	CHECK_EQ_INT(apply_repo_tree(r, "HEAD", sha, &base), 0);
	CHECK_EQ_INT(strlen(sha), 40);

	struct apply_result r1, r2;
	CHECK_EQ_INT(apply_patch(r, base, p_modify, strlen(p_modify), &r1), 0);
	CHECK(r1.applied && !r1.error && !r1.normalized);
	CHECK_EQ_INT(r1.nfiles, 1);
	CHECK(r1.nfiles == 1 && r1.files[0].status == 'M');
	REQUIRE(r1.nfiles == 1 && r1.hunks[0].nhunks == 1 && r1.hunks[0].hunks[0].nlines == 4);
	const struct apply_hunk *h = &r1.hunks[0].hunks[0];
	CHECK_EQ_STR(h->header, "@@ -1,3 +1,3 @@");
	CHECK(h->lines[2].origin == '+' && h->lines[2].new_line == 2 && !strcmp(h->lines[2].text, "TWO"));
	char *buf;
	size_t len;
	CHECK_EQ_INT(apply_tree_read(r, r1.tree, "mm/a.c", 0, &buf, &len), 0);
	CHECK_EQ_STR(buf, "one\nTWO\nthree\n");
	free(buf);
	CHECK_EQ_INT(apply_tree_read(r, base, "mm/a.c", 0, &buf, &len), 0);
	CHECK_EQ_STR(buf, "one\ntwo\nthree\n");
	free(buf);
	CHECK_EQ_INT(apply_tree_read(r, base, "mm/a.c", 4, &buf, &len), GA_EINVAL);
	CHECK_EQ_INT(apply_tree_read(r, base, "mm/none.c", 0, &buf, &len), GA_ENOTFOUND);
	CHECK_EQ_INT(apply_tree_read(r, base, "mm", 0, &buf, &len), GA_EINVAL);

	/* second patch on top of the first: new file, deleted header */
	const char *p2 =
		"diff --git a/mm/new.c b/mm/new.c\nnew file mode 100644\n--- /dev/null\n+++ b/mm/new.c\n@@ -0,0 +1 @@\n+fresh\n"
		"diff --git a/mm/b.h b/mm/b.h\ndeleted file mode 100644\n--- a/mm/b.h\n+++ /dev/null\n@@ -1 +0,0 @@\n-#define X 1\n";
	CHECK_EQ_INT(apply_patch(r, r1.tree, p2, strlen(p2), &r2), 0);
	CHECK(r2.applied);
	CHECK(r2.nfiles == 2 && r2.files[0].status == 'A' && r2.files[1].status == 'D');
	CHECK_EQ_INT(apply_tree_read(r, r2.tree, "mm/new.c", 0, &buf, &len), 0);
	CHECK_EQ_STR(buf, "fresh\n");
	free(buf);
	CHECK_EQ_INT(apply_tree_read(r, r2.tree, "mm/a.c", 0, &buf, &len), 0);
	CHECK_EQ_STR(buf, "one\nTWO\nthree\n");
	free(buf);
	CHECK_EQ_INT(apply_tree_read(r, r2.tree, "mm/b.h", 0, &buf, &len), GA_ENOTFOUND);
	char id[41];
	apply_tree_blob_id(r2.tree, "mm/new.c", id);
	CHECK_EQ_INT(strlen(id), 40);
	apply_tree_blob_id(r2.tree, "mm/b.h", id);
	CHECK_EQ_STR(id, "");
	apply_result_release(&r1);
	apply_result_release(&r2);

	/* a result that is an object the repository already has (mm/b.h's blob) */
	const char *p3 = "diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n@@ -1,3 +1 @@\n-one\n-two\n-three\n+#define X 1\n";
	CHECK_EQ_INT(apply_patch(r, base, p3, strlen(p3), &r1), 0);
	CHECK(r1.applied);
	apply_result_release(&r1);

	struct apply_tree *missing = NULL;
	CHECK_EQ_INT(apply_repo_tree(r, "0123456789abcdef0123456789abcdef01234567", sha, &missing), GA_ENOTFOUND);
	CHECK(missing == NULL);
	apply_tree_free(base);
	apply_repo_free(r);

	/* nothing reached the disk: objects, index and work tree as they were */
	CHECK_EQ_INT(count_objects(dir), before);
	CHECK_EQ_INT(old_mtimes(dir, false), 0);
	stat(ipath, &ist1);
	CHECK(ist0.st_mtime == ist1.st_mtime && ist0.st_size == ist1.st_size);
	char *wt = xasprintf("%s/mm/a.c", dir);
	struct strbuf sb = STRBUF_INIT;
	CHECK_EQ_INT(strbuf_read_file(&sb, wt, 0), 0);
	CHECK_EQ_STR(sb.buf, "one\ntwo\nthree\n");
	strbuf_release(&sb);
	free(wt);
	free(ipath);
	rm_rf(dir);
}

struct fixture {
	char *dir;
	struct apply_repo *r;
	struct apply_tree *base;
};

static bool fixture_open(struct fixture *fx)
{
	memset(fx, 0, sizeof(*fx));
	fx->dir = make_repo(base_files, 2);
	char sha[41];
	return fx->dir && !apply_repo_open(fx->dir, &fx->r) && !apply_repo_tree(fx->r, "HEAD", sha, &fx->base);
}

static void fixture_close(struct fixture *fx)
{
	apply_tree_free(fx->base);
	apply_repo_free(fx->r);
	if (fx->dir)
		rm_rf(fx->dir);
}

static struct apply_result try_apply(struct fixture *fx, const char *patch)
{
	struct apply_result res;
	int rc = apply_patch(fx->r, fx->base, patch, strlen(patch), &res);
	if (rc)
		fprintf(stderr, "  apply_patch: %s\n", err_last());
	return res;
}

TEST(apply_plain_diff_fallback)
{
	struct fixture fx;
	REQUIRE(fixture_open(&fx));
	struct apply_result res = try_apply(&fx,
		"Index: linux/mm/a.c\n"
		"===================================================================\n"
		"--- linux.orig/mm/a.c\t2024-01-01 00:00:00 +0000\n"
		"+++ linux/mm/a.c\t2024-01-02 00:00:00 +0000\n"
		"@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n");
	REQUIRE(res.applied && res.normalized);
	char *buf;
	size_t len;
	CHECK_EQ_INT(apply_tree_read(fx.r, res.tree, "mm/a.c", 0, &buf, &len), 0);
	CHECK_EQ_STR(buf, "one\n2\nthree\n");
	free(buf);
	apply_result_release(&res);
	fixture_close(&fx);
}

TEST(apply_failures_and_refusals)
{
	struct fixture fx;
	REQUIRE(fixture_open(&fx));
	/* a hunk whose context is not there */
	struct apply_result res = try_apply(&fx,
		"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
		"@@ -1,3 +1,3 @@ static int ctx(void)\n one\n-zwei\n+2\n three\n");
	CHECK(!res.applied && res.error);
	CHECK_EQ_STR(res.failed_file, "mm/a.c");
	CHECK_EQ_STR(res.failed_hunk, "@@ -1,3 +1,3 @@ static int ctx(void)");
	CHECK(res.error && strstr(res.error, "does not apply"));
	apply_result_release(&res);

	/* a file that is not there */
	res = try_apply(&fx, "diff --git a/mm/z.c b/mm/z.c\n--- a/mm/z.c\n+++ b/mm/z.c\n@@ -1 +1 @@\n-a\n+b\n");
	CHECK(!res.applied && res.error && strstr(res.error, "not in the tree"));
	apply_result_release(&res);

	/* path traversal, in git and in plain form, and absolute paths */
	const char *bad[] = {
		"diff --git a/../../etc/x b/../../etc/x\nnew file mode 100644\n--- /dev/null\n+++ b/../../etc/x\n@@ -0,0 +1 @@\n+owned\n",
		"--- a/../../etc/x\n+++ b/../../etc/x\n@@ -0,0 +1 @@\n+owned\n",
		"diff --git a//etc/x b//etc/x\nnew file mode 100644\n--- /dev/null\n+++ b//etc/x\n@@ -0,0 +1 @@\n+owned\n",
		"diff --git a/mm/a.c b/.git/hooks/post-checkout\nsimilarity index 100%\nrename from mm/a.c\nrename to .git/hooks/post-checkout\n",
		"diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ \"b/mm/\\001x\"\n@@ -0,0 +1 @@\n+x\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		res = try_apply(&fx, bad[i]);
		CHECK(!res.applied && res.error && !strncmp(res.error, "refused: ", 9));
		if (res.applied || !res.error)
			fprintf(stderr, "  bad[%zu] was not refused\n", i);
		apply_result_release(&res);
	}

	/* a symlink (git mode 120000) */
	res = try_apply(&fx, "diff --git a/mm/l b/mm/l\nnew file mode 120000\n--- /dev/null\n+++ b/mm/l\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n");
	CHECK(!res.applied && res.error && strstr(res.error, "symlink"));
	apply_result_release(&res);

	/* garbage */
	res = try_apply(&fx, "diff --git a/mm/a.c b/mm/a.c\n@@ -1 +1 @@\n");
	CHECK(!res.applied && res.error);
	apply_result_release(&res);
	res = try_apply(&fx, "no diff at all\n");
	CHECK(!res.applied && res.error);
	apply_result_release(&res);
	fixture_close(&fx);
}

TEST(apply_hunks_at_an_offset)
{
	static const struct file files[] = {
		{ "mm/c.c", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\n" },
	};
	char *dir = make_repo(files, 1);
	struct apply_repo *r = NULL;
	struct apply_tree *base = NULL;
	char sha[41];
	REQUIRE(dir && !apply_repo_open(dir, &r) && !apply_repo_tree(r, "HEAD", sha, &base));
	/* both hunks written against a file with two more lines on top */
	const char *p =
		"diff --git a/mm/c.c b/mm/c.c\n--- a/mm/c.c\n+++ b/mm/c.c\n"
		"@@ -4,3 +4,4 @@ ctx\n l2\n l3\n+new after l3\n l4\n"
		"@@ -11,3 +12,2 @@\n l9\n-l10\n l11\n";
	struct apply_result res;
	CHECK_EQ_INT(apply_patch(r, base, p, strlen(p), &res), 0);
	REQUIRE(res.applied);
	CHECK_EQ_INT(res.moved, 2);
	char *buf;
	size_t len;
	CHECK_EQ_INT(apply_tree_read(r, res.tree, "mm/c.c", 0, &buf, &len), 0);
	CHECK_EQ_STR(buf, "l1\nl2\nl3\nnew after l3\nl4\nl5\nl6\nl7\nl8\nl9\nl11\nl12\n");
	free(buf);
	/* the quoted hunks carry the lines where they landed */
	REQUIRE(res.nfiles == 1 && res.hunks[0].nhunks == 2);
	CHECK_EQ_INT(res.hunks[0].hunks[0].new_start, 2);
	CHECK_EQ_STR(res.hunks[0].hunks[0].header, "@@ -2,3 +2,4 @@ ctx");
	CHECK_EQ_INT(res.hunks[0].hunks[0].lines[2].new_line, 4);
	CHECK_EQ_INT(res.hunks[0].hunks[1].old_start, 9);
	CHECK_EQ_INT(res.hunks[0].hunks[1].new_start, 10);
	apply_result_release(&res);

	/* context that is nowhere in the file still fails, naming the hunk */
	const char *q = "diff --git a/mm/c.c b/mm/c.c\n--- a/mm/c.c\n+++ b/mm/c.c\n@@ -4,2 +4,2 @@\n l2\n-lX\n+lY\n";
	CHECK_EQ_INT(apply_patch(r, base, q, strlen(q), &res), 0);
	CHECK(!res.applied && res.moved == 0);
	CHECK_EQ_STR(res.failed_hunk, "@@ -4,2 +4,2 @@");
	apply_result_release(&res);
	apply_tree_free(base);
	apply_repo_free(r);
	rm_rf(dir);
}

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Hunk relocation costs about the size of the file plus the diff, not their
 * product: 5,000 hunks whose context is nowhere in a 400,000-line file once
 * took seconds (every hunk scanned the whole file); and a file built so that
 * every hunk has 200,000 near-matches stops at the work cap, saying so. */
TEST(apply_relocation_is_linear_and_capped)
{
	struct strbuf text = STRBUF_INIT;
	strbuf_adds(&text, "top\n");
	for (int i = 0; i < 400000; i++)
		strbuf_adds(&text, i % 2 ? "y\n" : "x\n");
	static struct file files[1];
	files[0].path = "mm/big.c";
	files[0].text = text.buf;
	char *dir = make_repo(files, 1);
	struct apply_repo *r = NULL;
	struct apply_tree *base = NULL;
	char sha[41];
	REQUIRE(dir && !apply_repo_open(dir, &r) && !apply_repo_tree(r, "HEAD", sha, &base));
	/* context "x y x" around a line that is nowhere: no place fits */
	struct strbuf p = STRBUF_INIT;
	strbuf_adds(&p, "diff --git a/mm/big.c b/mm/big.c\n--- a/mm/big.c\n+++ b/mm/big.c\n");
	for (int h = 0; h < 5000; h++)
		strbuf_addf(&p, "@@ -%d,4 +%d,4 @@\n x\n y\n-nowhere\n+z\n x\n", 10 + h * 60, 10 + h * 60);
	struct apply_result res;
	double t0 = cpu_now();
	CHECK_EQ_INT(apply_patch(r, base, p.buf, p.len, &res), 0);
	double t1 = cpu_now();
	CHECK(!res.applied && res.error && strstr(res.error, "does not apply"));
	CHECK(t1 - t0 < 1.0);
	if (t1 - t0 >= 1.0)
		fprintf(stderr, "  5000 unplaceable hunks took %.2f s of CPU\n", t1 - t0);
	apply_result_release(&res);

	/* every "y" is a candidate for the rarest line, and each fails late */
	strbuf_reset(&p);
	strbuf_adds(&p, "diff --git a/mm/big.c b/mm/big.c\n--- a/mm/big.c\n+++ b/mm/big.c\n");
	for (int h = 0; h < 2000; h++) {
		strbuf_addf(&p, "@@ -%d,9 +%d,9 @@\n", 3 + h * 100, 3 + h * 100);
		strbuf_adds(&p, " y\n x\n y\n x\n y\n x\n y\n-y\n+q\n x\n");
	}
	t0 = cpu_now();
	CHECK_EQ_INT(apply_patch(r, base, p.buf, p.len, &res), 0);
	t1 = cpu_now();
	CHECK(!res.applied && res.error && strstr(res.error, "work cap"));
	CHECK(t1 - t0 < 2.0);
	if (t1 - t0 >= 2.0 || !res.error || !strstr(res.error, "work cap"))
		fprintf(stderr, "  near-matches: %.2f s of CPU, %s\n", t1 - t0, res.error ? res.error : "applied");
	apply_result_release(&res);
	strbuf_release(&p);
	apply_tree_free(base);
	apply_repo_free(r);
	rm_rf(dir);
	strbuf_release(&text);
}

/* Found by fuzz_apply: libgit2 copies a line up to a NUL byte but reports
 * its full length, and collect_hunks read past the copy.  A diff with a NUL
 * byte is refused before libgit2 sees it. */
TEST(apply_refuses_nul_bytes)
{
	struct fixture fx;
	REQUIRE(fixture_open(&fx));
	static const char patch[] = "--- mm/a.c.orig\n+++ mm/a.c\n@@ -1,3 +1,3 @@\n one\n-tw\0o\n+2\n three\n";
	struct apply_result res;
	CHECK_EQ_INT(apply_patch(fx.r, fx.base, patch, sizeof(patch) - 1, &res), 0);
	CHECK(!res.applied && res.error && strstr(res.error, "NUL byte"));
	apply_result_release(&res);
	fixture_close(&fx);
}
