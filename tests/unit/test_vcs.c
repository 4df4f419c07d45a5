/* vcs (libgit2 diffs, hook files) and change (function extents, classifying
 * findings).  Repositories are built with the git CLI in a temporary
 * directory; classification runs on hand-made file_results, no engine. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "harness.h"
#include "gfpaudit/vcs.h"
#include "gfpaudit/change.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

/* ---- helpers ---- */

static char *tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *t = xasprintf("%s/gfpaudit-vcs-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(t)) {
		free(t);
		return NULL;
	}
	return t;
}

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	va_list ap;
	struct strbuf sb = STRBUF_INIT;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* a fixed identity and no user config: the test must not depend on ~ */
	char *cmd = xasprintf("export GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent GIT_AUTHOR_NAME=t "
			      "GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t "
			      "GIT_COMMITTER_EMAIL=t@example.org; (%s) >/dev/null 2>&1", sb.buf);
	int rc = system(cmd);
	free(cmd);
	strbuf_release(&sb);
	return rc;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

static void rmrf(char *dir)
{
	if (dir && strlen(dir) > 10)
		sh("rm -rf '%s'", dir);
	free(dir);
}

static const struct vcs_change *find_change(const struct vcs_diff *d, const char *path)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct vcs_change *c = &d->changes[i];
		if ((c->new_path && !strcmp(c->new_path, path)) || (!c->new_path && !strcmp(c->old_path, path)))
			return c;
	}
	return NULL;
}

static const char base_c[] =
	"#include <linux/gfp.h>\n"            /* 1 */
	"\n"                                    /* 2 */
	"static int one(void)\n"                /* 3 */
	"{\n"                                   /* 4 */
	"\treturn 1;\n"                         /* 5 */
	"}\n"                                   /* 6 */
	"\n"                                    /* 7 */
	"static int two(void)\n"                /* 8 */
	"{\n"                                   /* 9 */
	"\treturn 2;\n"                         /* 10 */
	"}\n";                                  /* 11 */

/* ---- function extents ---- */

TEST(scan_functions_kernel_shapes)
{
	static const char src[] =
		"/* a { comment */\n"                                  /* 1 */
		"#define BRACE {\n"                                    /* 2 */
		"struct foo { int a; };\n"                             /* 3 */
		"static const char *s = \"}{\";\n"                     /* 4 */
		"static int tbl[] = { 1, 2 };\n"                       /* 5 */
		"int proto(int x);\n"                                  /* 6 */
		"static struct page *\n"                               /* 7 */
		"grab(gfp_t gfp,\n"                                    /* 8 */
		"     unsigned int order)\n"                           /* 9 */
		"{\n"                                                  /* 10 */
		"\tif (order) { char c = '}'; (void)c; }\n"            /* 11 */
		"\t// } in a comment\n"                                /* 12 */
		"\treturn 0;\n"                                        /* 13 */
		"}\n"                                                  /* 14 */
		"__printf(1, 2) void logit(const char *f, ...)\n"      /* 15 */
		"{\n"                                                  /* 16 */
		"}\n"                                                  /* 17 */
		"void locked(void) __must_hold(&l) { }\n"              /* 18 */
		"#define MULTI(x) \\\n"                                /* 19 */
		"\tdo { } while (0)\n"                                 /* 20 */
		"SYSCALL_DEFINE2(thing, int, a, int, b)\n"             /* 21 */
		"{\n"                                                  /* 22 */
		"\treturn a + b;\n"                                    /* 23 */
		"}\n";                                                 /* 24 */
	struct fn_extents fx;
	fn_extents_init(&fx);
	change_scan_functions(src, strlen(src), &fx);
	REQUIRE_EQ_INT(fx.n, 4);
	CHECK_EQ_INT(fx.v[0].start, 7);
	CHECK_EQ_INT(fx.v[0].end, 14);
	CHECK_EQ_STR(fx.v[0].name, "grab");
	CHECK_EQ_INT(fx.v[1].start, 15);
	CHECK_EQ_INT(fx.v[1].end, 17);
	CHECK_EQ_STR(fx.v[1].name, "logit");
	CHECK_EQ_INT(fx.v[2].start, 18);
	CHECK_EQ_INT(fx.v[2].end, 18);
	CHECK_EQ_STR(fx.v[2].name, "locked");
	CHECK_EQ_INT(fx.v[3].start, 21);
	CHECK_EQ_INT(fx.v[3].end, 24);
	fn_extents_release(&fx);
}

/* fs/ubifs/misc.c ends function bodies with "}\t\\": a line splice, so
 * the next definition starts at its own first token, not at the '\\'. */
TEST(scan_functions_line_splice_after_body)
{
	const char *src =
		"void a(void)\n"                                       /* 1 */
		"{\n"                                                  /* 2 */
		"}\t\\\n"                                             /* 3 */
		"\n"                                                   /* 4 */
		"/* b */\n"                                            /* 5 */
		"void b(void)\n"                                       /* 6 */
		"{\n"                                                  /* 7 */
		"}\n";                                                 /* 8 */
	struct fn_extents fx;
	fn_extents_init(&fx);
	change_scan_functions(src, strlen(src), &fx);
	REQUIRE_EQ_INT(fx.n, 2);
	CHECK_EQ_INT(fx.v[0].start, 1);
	CHECK_EQ_INT(fx.v[0].end, 3);
	CHECK_EQ_INT(fx.v[1].start, 6);
	CHECK_EQ_INT(fx.v[1].end, 8);
	CHECK_EQ_STR(fx.v[1].name, "b");
	fn_extents_release(&fx);
}

TEST(change_touches_counts_deletions)
{
	struct vcs_lines h[] = { { 5, 2 }, { 20, 0 } };
	struct vcs_change c = { .hunks = h, .nhunks = 2 };
	CHECK(vcs_change_touches(&c, 6, 6));
	CHECK(vcs_change_touches(&c, 1, 5));
	CHECK(!vcs_change_touches(&c, 7, 19));
	/* lines removed between 20 and 21: a function 15..25 lost lines */
	CHECK(vcs_change_touches(&c, 15, 25));
	/* ...but not one that ends on line 20 or starts on 21 */
	CHECK(!vcs_change_touches(&c, 15, 20));
	CHECK(!vcs_change_touches(&c, 21, 30));
}

/* ---- classification ---- */

static struct finding *mkfinding(struct file_result *r, const char *rule, const char *file, int line,
				 const char *fn, const char *gfp_expr, enum severity sev)
{
	struct finding *f = file_result_add_finding(r);
	f->rule = xstrdup(rule);
	f->severity = sev;
	f->message = xasprintf("msg %s", fn);
	f->site.file = xstrdup(file);
	f->site.line = line;
	f->site.col = 9;
	f->site.function = xstrdup(fn);
	f->site.api = xstrdup("alloc_pages");
	f->site.gfp_expr = xstrdup(gfp_expr);
	f->site.order_expr = xstrdup("order");
	site_add_evidence(&f->site, file, line - 1, "order: here");
	f->fingerprint = finding_fingerprint(f->rule, &f->site);
	return f;
}

/* Two functions: one() 3..8 is changed (hunk at 5..6), two() 10..16 is not. */
static const char new_c[] =
	"#include <linux/gfp.h>\n"            /* 1 */
	"\n"                                    /* 2 */
	"static int one(void)\n"                /* 3 */
	"{\n"                                   /* 4 */
	"\tp = alloc_pages(GFP_KERNEL, order);\n" /* 5 */
	"\tq = alloc_pages(GFP_KERNEL, order);\n" /* 6 */
	"\treturn 1;\n"                         /* 7 */
	"}\n"                                   /* 8 */
	"\n"                                    /* 9 */
	"static int two(void)\n"                /* 10 */
	"{\n"                                   /* 11 */
	"\tr = alloc_pages(GFP_USER, order);\n" /* 12 */
	"\ts = alloc_pages(GFP_NOIO, order);\n" /* 13 */
	"\treturn 2;\n"                         /* 14 */
	"}\n"                                   /* 15 */
	"\n";

TEST(classify_new_old_fixed_indirect)
{
	struct vcs_lines h[] = { { 6, 1 } };
	struct vcs_change c = { .status = VCS_MODIFIED, .old_path = "mm/x.c", .new_path = "mm/x.c",
				.new_data = (char *)new_c, .new_len = sizeof(new_c) - 1, .hunks = h, .nhunks = 1 };
	struct file_result before, after;
	file_result_init(&before, "/abs/mm/x.c");
	file_result_init(&after, "/abs/mm/x.c");
	/* before: one GFP_KERNEL call in one() (line 5), GFP_USER in two(),
	 * and an __GFP_NOFAIL one in two() that the change removed */
	mkfinding(&before, "costly-no-fallback", "/abs/mm/x.c", 5, "one", "GFP_KERNEL", SEV_WARNING);
	mkfinding(&before, "costly-no-fallback", "/abs/mm/x.c", 11, "two", "GFP_USER", SEV_WARNING);
	mkfinding(&before, "nofail-high-order", "/abs/mm/x.c", 12, "two", "GFP_KERNEL|__GFP_NOFAIL", SEV_ERROR);
	/* after: the GFP_KERNEL call twice (the second, line 6, is the change);
	 * GFP_USER moved one line down; a GFP_NOIO finding appeared in two()
	 * without two() changing (a helper changed under it) */
	mkfinding(&after, "costly-no-fallback", "/abs/mm/x.c", 5, "one", "GFP_KERNEL", SEV_WARNING);
	mkfinding(&after, "costly-no-fallback", "/abs/mm/x.c", 6, "one", "GFP_KERNEL", SEV_WARNING);
	mkfinding(&after, "costly-no-fallback", "/abs/mm/x.c", 12, "two", "GFP_USER", SEV_WARNING);
	mkfinding(&after, "costly-no-fallback", "/abs/mm/x.c", 13, "two", "GFP_NOIO", SEV_WARNING);
	struct change_file cf = { .change = &c, .before = &before, .after = &after,
				  .after_file = "/abs/mm/x.c", .before_file = "/abs/mm/x.c" };
	struct change_set cs;
	change_set_init(&cs);
	change_classify(&cf, &cs);
	REQUIRE_EQ_INT(cs.nnew, 1);
	CHECK_EQ_INT(cs.nold, 2);
	REQUIRE_EQ_INT(cs.nfixed, 1);
	REQUIRE_EQ_INT(cs.nindirect, 1);
	/* of the two identical calls, the one on the changed line is new */
	CHECK_EQ_INT(cs.new_[0].site.line, 6);
	/* reported under the repository path, evidence too */
	CHECK_EQ_STR(cs.new_[0].site.file, "mm/x.c");
	CHECK_EQ_STR(cs.new_[0].site.ev[0].file, "mm/x.c");
	CHECK_EQ_STR(cs.fixed[0].rule, "nofail-high-order");
	CHECK_EQ_STR(cs.indirect[0].site.gfp_expr, "GFP_NOIO");
	change_set_release(&cs);
	file_result_release(&before);
	file_result_release(&after);
}

TEST(classify_whole_function_counts_as_touched)
{
	/* the change is on line 4 (the brace line); the site on line 12 is in
	 * two(), untouched; a site on line 7 in one() is in a touched function */
	struct vcs_lines h[] = { { 4, 1 } };
	struct vcs_change c = { .status = VCS_MODIFIED, .old_path = "a.c", .new_path = "a.c",
				.new_data = (char *)new_c, .new_len = sizeof(new_c) - 1, .hunks = h, .nhunks = 1 };
	struct file_result after;
	file_result_init(&after, "a.c");
	mkfinding(&after, "costly-no-noretry", "a.c", 7, "one", "GFP_A", SEV_WARNING);
	mkfinding(&after, "costly-no-noretry", "a.c", 12, "two", "GFP_B", SEV_WARNING);
	struct change_file cf = { .change = &c, .before = NULL, .after = &after,
				  .after_file = "a.c", .before_file = NULL };
	struct change_set cs;
	change_set_init(&cs);
	change_classify(&cf, &cs);
	REQUIRE_EQ_INT(cs.nnew, 1);
	CHECK_EQ_INT(cs.nindirect, 1);
	CHECK_EQ_STR(cs.new_[0].site.function, "one");
	change_set_release(&cs);
	file_result_release(&after);
}

TEST(classify_follows_renames)
{
	struct vcs_lines h[] = { { 5, 1 } };
	struct vcs_change c = { .status = VCS_RENAMED, .old_path = "mm/old.c", .new_path = "mm/new.c",
				.new_data = (char *)new_c, .new_len = sizeof(new_c) - 1, .hunks = h, .nhunks = 1 };
	struct file_result before, after;
	file_result_init(&before, "/r/mm/old.c");
	file_result_init(&after, "/r/mm/new.c");
	mkfinding(&before, "costly-no-fallback", "/r/mm/old.c", 5, "one", "GFP_KERNEL", SEV_WARNING);
	mkfinding(&before, "costly-no-fallback", "/r/mm/old.c", 9, "gone", "GFP_KERNEL", SEV_WARNING);
	mkfinding(&after, "costly-no-fallback", "/r/mm/new.c", 5, "one", "GFP_KERNEL", SEV_WARNING);
	struct change_file cf = { .change = &c, .before = &before, .after = &after,
				  .after_file = "/r/mm/new.c", .before_file = "/r/mm/old.c" };
	struct change_set cs;
	change_set_init(&cs);
	change_classify(&cf, &cs);
	/* same call under the new name: old, even on a changed line */
	CHECK_EQ_INT(cs.nnew, 0);
	CHECK_EQ_INT(cs.nold, 1);
	REQUIRE_EQ_INT(cs.nfixed, 1);
	CHECK_EQ_STR(cs.fixed[0].site.file, "mm/old.c");
	change_set_release(&cs);
	file_result_release(&before);
	file_result_release(&after);
}

TEST(classify_call_moved_to_another_function_is_old)
{
	/* one() split: its costly call now sits in a new helper on a changed
	 * line; same rule, API and arguments: the same call, not a new one */
	struct vcs_lines h[] = { { 3, 6 } };
	struct vcs_change c = { .status = VCS_MODIFIED, .old_path = "a.c", .new_path = "a.c",
				.new_data = (char *)new_c, .new_len = sizeof(new_c) - 1, .hunks = h, .nhunks = 1 };
	struct file_result before, after;
	file_result_init(&before, "a.c");
	file_result_init(&after, "a.c");
	mkfinding(&before, "costly-no-fallback", "a.c", 5, "one", "GFP_KERNEL", SEV_WARNING);
	mkfinding(&after, "costly-no-fallback", "a.c", 5, "one_helper", "GFP_KERNEL", SEV_WARNING);
	/* ...but a different mask in the helper is new */
	mkfinding(&after, "costly-no-fallback", "a.c", 6, "one_helper", "GFP_NOFS", SEV_WARNING);
	struct change_file cf = { .change = &c, .before = &before, .after = &after,
				  .after_file = "a.c", .before_file = "a.c" };
	struct change_set cs;
	change_set_init(&cs);
	change_classify(&cf, &cs);
	CHECK_EQ_INT(cs.nold, 1);
	REQUIRE_EQ_INT(cs.nnew, 1);
	CHECK_EQ_INT(cs.nfixed, 0);
	CHECK_EQ_STR(cs.new_[0].site.gfp_expr, "GFP_NOFS");
	change_set_release(&cs);
	file_result_release(&before);
	file_result_release(&after);
}

/* ---- repositories ---- */

TEST(vcs_staged_reads_index_not_worktree)
{
	char *d = tmpdir();
	REQUIRE(d != NULL);
	write_file(d, "a.c", base_c);
	write_file(d, "b.c", "int b(void)\n{\n\treturn 0;\n}\n/* padding so that a rename is similar */\n"
			     "/* one */\n/* two */\n/* three */\n");
	write_file(d, "gone.c", "int gone;\n");
	CHECK(sh("cd '%s' && git init -q && git add . && git commit -qm base", d) == 0);
	/* staged: a.c line 10 changed; then the work tree changes line 5 */
	CHECK(sh("cd '%s' && sed -i 's/return 2;/return 22;/' a.c && git add a.c && "
		 "sed -i 's/return 1;/return 11;/' a.c && git mv b.c c.c && "
		 "printf '/* four */\\n' >> c.c && git add c.c && git rm -q gone.c && "
		 "printf 'x\\0y\\0' > blob.c && git add blob.c", d) == 0);
	struct vcs *v = NULL;
	REQUIRE_EQ_INT(vcs_open(d, 0, &v), 0);
	struct vcs_diff diff;
	static const char *const sfx[] = { ".c", NULL };
	struct vcs_diff_opts o = { .suffixes = sfx };
	CHECK_EQ_INT(vcs_diff(v, NULL, &o, &diff), 0);
	CHECK_EQ_STR(diff.old_desc, "HEAD");
	const struct vcs_change *a = find_change(&diff, "a.c");
	REQUIRE(a != NULL);
	CHECK_EQ_INT(a->status, VCS_MODIFIED);
	CHECK(a->new_data && strstr(a->new_data, "return 22;"));
	CHECK(a->new_data && strstr(a->new_data, "return 1;"));   /* not the work tree's 11 */
	CHECK(a->old_data && strstr(a->old_data, "return 2;"));
	REQUIRE_EQ_INT(a->nhunks, 1);
	CHECK_EQ_INT(a->hunks[0].start, 10);
	CHECK_EQ_INT(a->hunks[0].count, 1);
	const struct vcs_change *c = find_change(&diff, "c.c");
	REQUIRE(c != NULL);
	CHECK_EQ_INT(c->status, VCS_RENAMED);
	CHECK_EQ_STR(c->old_path, "b.c");
	CHECK(c->old_data && !strstr(c->old_data, "four"));
	CHECK(c->new_data && strstr(c->new_data, "four"));
	const struct vcs_change *g = find_change(&diff, "gone.c");
	CHECK(g && g->status == VCS_DELETED && !g->new_data && !g->new_path);
	const struct vcs_change *b = find_change(&diff, "blob.c");
	CHECK(b && b->binary && !b->new_data);
	vcs_diff_release(&diff);

	/* the unstaged side: a.c differs from the index, old side = index blob */
	CHECK_EQ_INT(vcs_diff_unstaged(v, &o, &diff), 0);
	a = find_change(&diff, "a.c");
	CHECK(a && a->old_data && strstr(a->old_data, "return 22;") && strstr(a->old_data, "return 1;"));
	CHECK_EQ_INT(diff.n, 1); /* c.c and blob.c are as staged */
	vcs_diff_release(&diff);
	/* a tracked file removed from the work tree: its index blob */
	char *p = xasprintf("%s/c.c", d);
	unlink(p);
	free(p);
	CHECK_EQ_INT(vcs_diff_unstaged(v, &o, &diff), 0);
	const struct vcs_change *gc = find_change(&diff, "c.c");
	CHECK(gc && gc->status == VCS_DELETED && gc->old_data && strstr(gc->old_data, "four"));
	vcs_diff_release(&diff);
	vcs_free(v);
	rmrf(d);
}

TEST(vcs_unborn_head_and_revisions)
{
	char *d = tmpdir();
	REQUIRE(d != NULL);
	write_file(d, "a.c", base_c);
	CHECK(sh("cd '%s' && git init -q && git add a.c", d) == 0);
	struct vcs *v = NULL;
	REQUIRE_EQ_INT(vcs_open(d, 0, &v), 0);
	struct vcs_diff diff;
	CHECK_EQ_INT(vcs_diff(v, "--staged", NULL, &diff), 0);
	CHECK_EQ_STR(diff.old_desc, "(empty)");
	REQUIRE_EQ_INT(diff.n, 1);
	CHECK_EQ_INT(diff.changes[0].status, VCS_ADDED);
	CHECK(diff.changes[0].old_data == NULL);
	CHECK(diff.changes[0].nhunks == 1 && diff.changes[0].hunks[0].count == 11);
	vcs_diff_release(&diff);
	CHECK(sh("cd '%s' && git commit -qm one && sed -i 's/return 2;/return 3;/' a.c && "
		 "git commit -qam two && sed -i 's/return 1;/return 0;/' a.c && git commit -qam three", d) == 0);
	/* a root commit against nothing */
	CHECK_EQ_INT(vcs_diff(v, "HEAD~2", NULL, &diff), 0);
	CHECK(diff.n == 1 && diff.changes[0].status == VCS_ADDED);
	vcs_diff_release(&diff);
	/* one commit against its parent */
	CHECK_EQ_INT(vcs_diff(v, "HEAD~1", NULL, &diff), 0);
	CHECK(diff.n == 1 && diff.changes[0].nhunks == 1 && diff.changes[0].hunks[0].start == 10);
	vcs_diff_release(&diff);
	/* a range: both changes */
	CHECK_EQ_INT(vcs_diff(v, "HEAD~2..HEAD", NULL, &diff), 0);
	CHECK(diff.n == 1 && diff.changes[0].nhunks == 2);
	vcs_diff_release(&diff);
	CHECK_EQ_INT(vcs_diff(v, "no-such-rev", NULL, &diff), GA_EINVAL);
	vcs_free(v);
	rmrf(d);
}

TEST(vcs_linked_worktree_and_hooks_dir)
{
	char *d = tmpdir();
	REQUIRE(d != NULL);
	write_file(d, "a.c", base_c);
	CHECK(sh("cd '%s' && mkdir main && mv a.c main/ && cd main && git init -q && git add a.c && "
		 "git commit -qm one && git worktree add -q ../wt", d) == 0);
	char *wt = xasprintf("%s/wt", d), *sub = xasprintf("%s/main", d);
	CHECK(sh("cd '%s' && sed -i 's/return 2;/return 5;/' a.c && git add a.c", wt) == 0);
	struct vcs *v = NULL;
	REQUIRE_EQ_INT(vcs_open(wt, 0, &v), 0);
	struct vcs_diff diff;
	CHECK_EQ_INT(vcs_diff(v, NULL, NULL, &diff), 0);
	CHECK(diff.n == 1 && diff.changes[0].new_data && strstr(diff.changes[0].new_data, "return 5;"));
	vcs_diff_release(&diff);
	/* hooks live in the common dir, shared with the main worktree */
	char *hd = NULL;
	CHECK_EQ_INT(vcs_hooks_dir(v, &hd), 0);
	char *want = xasprintf("%s/main/.git/hooks", d);
	CHECK_EQ_STR(hd, want);
	free(want);
	free(hd);
	/* core.hooksPath, relative: from the top of the work tree */
	CHECK(sh("cd '%s' && git config core.hooksPath .githooks", sub) == 0);
	vcs_free(v);
	v = NULL;
	REQUIRE_EQ_INT(vcs_open(wt, 0, &v), 0);
	hd = NULL;
	CHECK_EQ_INT(vcs_hooks_dir(v, &hd), 0);
	want = xasprintf("%s/wt/.githooks", d);
	CHECK_EQ_STR(hd, want);
	free(want);
	free(hd);
	vcs_free(v);
	free(wt);
	free(sub);
	rmrf(d);
}

TEST(vcs_env_index_file)
{
	/* `git commit -a` runs the hook with GIT_INDEX_FILE pointing at a
	 * temporary index: that is what gets committed */
	char *d = tmpdir();
	REQUIRE(d != NULL);
	write_file(d, "a.c", base_c);
	CHECK(sh("cd '%s' && git init -q && git add a.c && git commit -qm one && "
		 "sed -i 's/return 2;/return 7;/' a.c && cp .git/index other-index && "
		 "GIT_INDEX_FILE=other-index git add a.c", d) == 0);
	char *cwd = getcwd(NULL, 0);
	char *idx = xasprintf("%s/other-index", d);
	setenv("GIT_INDEX_FILE", idx, 1);
	struct vcs *v = NULL;
	CHECK(chdir(d) == 0);
	CHECK_EQ_INT(vcs_open(NULL, VCS_OPEN_ENV, &v), 0);
	unsetenv("GIT_INDEX_FILE");
	if (v) {
		struct vcs_diff diff;
		CHECK_EQ_INT(vcs_diff(v, NULL, NULL, &diff), 0);
		CHECK(diff.n == 1 && diff.changes[0].new_data && strstr(diff.changes[0].new_data, "return 7;"));
		vcs_diff_release(&diff);
		vcs_free(v);
	}
	/* without the env flag: the repository's own index (nothing staged) */
	setenv("GIT_INDEX_FILE", idx, 1);
	v = NULL;
	CHECK_EQ_INT(vcs_open(NULL, 0, &v), 0);
	unsetenv("GIT_INDEX_FILE");
	if (v) {
		struct vcs_diff diff;
		CHECK_EQ_INT(vcs_diff(v, NULL, NULL, &diff), 0);
		CHECK_EQ_INT(diff.n, 0);
		vcs_diff_release(&diff);
		vcs_free(v);
	}
	if (cwd)
		CHECK(chdir(cwd) == 0);
	free(cwd);
	free(idx);
	rmrf(d);
}

TEST(vcs_not_a_repository)
{
	char *d = tmpdir();
	REQUIRE(d != NULL);
	/* GIT_DIR (as git sets it for hooks) naming a directory that is not a
	 * repository: no search upwards, a clean "not found" */
	char *cwd = getcwd(NULL, 0);
	struct vcs *v = NULL;
	setenv("GIT_DIR", d, 1);
	CHECK_EQ_INT(vcs_open(NULL, VCS_OPEN_ENV, &v), GA_ENOTFOUND);
	unsetenv("GIT_DIR");
	CHECK(v == NULL);
	CHECK(strlen(err_last()) > 0);
	char *missing = xasprintf("%s/no/such/dir", d);
	CHECK_EQ_INT(vcs_open(missing, 0, &v), GA_ENOTFOUND);
	free(missing);
	free(cwd);
	rmrf(d);
}

static char *read_all(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	if (strbuf_read_file(&sb, path, 1 << 20)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

TEST(hook_install_refuses_chains_and_uninstalls)
{
	char *d = tmpdir();
	REQUIRE(d != NULL);
	CHECK(sh("cd '%s' && git init -q", d) == 0);
	char *hook = xasprintf("%s/.git/hooks/pre-commit", d);
	char *chained = xasprintf("%s/.git/hooks/pre-commit.gfpaudit-chained", d);
	char *saved = xasprintf("%s/.git/hooks/pre-commit.gfpaudit-saved", d);
	write_file(d, ".git/hooks/pre-commit", "#!/bin/sh\necho theirs\n");
	struct vcs *v = NULL;
	REQUIRE_EQ_INT(vcs_open(d, 0, &v), 0);
	enum vcs_hook_outcome oc;
	char *text;
	/* a foreign hook is not clobbered */
	CHECK_EQ_INT(vcs_hook_install(v, "/opt/it's/gfpaudit", 0, &oc, NULL, NULL), GA_EINVAL);
	text = read_all(hook);
	CHECK(text && strstr(text, "theirs"));
	free(text);
	/* --chain keeps it and runs it first */
	CHECK_EQ_INT(vcs_hook_install(v, "/opt/it's/gfpaudit", VCS_HOOK_CHAIN, &oc, NULL, NULL), 0);
	CHECK_EQ_INT(oc, VCS_HOOK_CHAINED);
	text = read_all(hook);
	CHECK(text && strstr(text, VCS_HOOK_MARKER) && strstr(text, "'/opt/it'\\''s/gfpaudit'"));
	CHECK(text && strstr(text, "check --staged"));
	free(text);
	text = read_all(chained);
	CHECK(text && strstr(text, "theirs"));
	free(text);
	struct stat st;
	CHECK(stat(hook, &st) == 0 && (st.st_mode & 0111));
	/* installing again updates ours in place */
	CHECK_EQ_INT(vcs_hook_install(v, "/usr/bin/gfpaudit", 0, &oc, NULL, NULL), 0);
	CHECK_EQ_INT(oc, VCS_HOOK_UPDATED);
	/* uninstall puts the chained hook back */
	CHECK_EQ_INT(vcs_hook_uninstall(v, &oc, NULL), 0);
	CHECK_EQ_INT(oc, VCS_HOOK_RESTORED);
	text = read_all(hook);
	CHECK(text && strstr(text, "theirs"));
	free(text);
	CHECK(access(chained, F_OK) != 0);
	/* uninstall leaves a foreign hook alone */
	CHECK_EQ_INT(vcs_hook_uninstall(v, &oc, NULL), GA_EINVAL);
	CHECK(access(hook, F_OK) == 0);
	/* --force moves it aside */
	CHECK_EQ_INT(vcs_hook_install(v, "/usr/bin/gfpaudit", VCS_HOOK_FORCE, &oc, NULL, NULL), 0);
	CHECK_EQ_INT(oc, VCS_HOOK_REPLACED);
	text = read_all(saved);
	CHECK(text && strstr(text, "theirs"));
	free(text);
	CHECK_EQ_INT(vcs_hook_uninstall(v, &oc, NULL), 0);
	CHECK_EQ_INT(oc, VCS_HOOK_REMOVED);
	CHECK(access(hook, F_OK) != 0);
	CHECK_EQ_INT(vcs_hook_uninstall(v, &oc, NULL), 0);
	CHECK_EQ_INT(oc, VCS_HOOK_ABSENT);
	vcs_free(v);
	free(hook);
	free(chained);
	free(saved);
	rmrf(d);
}
