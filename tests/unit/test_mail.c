/* mail/: subject prefixes, base-commit trailers, diff extraction, mbox
 * parsing (QP, base64, CRLF, multipart, caps), plain-diff normalization. */
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "gfpaudit/mail.h"
#include "gfpaudit/apply.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/err.h"

static struct mail_subject subj(const char *s)
{
	struct mail_subject m;
	mail_subject_parse(s, &m);
	return m;
}

TEST(mail_subject_prefixes)
{
	struct mail_subject s = subj("[PATCH v3 2/7] mm: fix costly allocation");
	CHECK(s.is_patch && !s.rfc && !s.is_reply && s.numbered);
	CHECK_EQ_INT(s.version, 3);
	CHECK_EQ_INT(s.m, 2);
	CHECK_EQ_INT(s.n, 7);
	CHECK_EQ_STR(s.title, "mm: fix costly allocation");
	CHECK_EQ_STR(s.tags, "");
	mail_subject_release(&s);

	s = subj("[RFC PATCH 0/3] iomap: large folios");
	CHECK(s.is_patch && s.rfc);
	CHECK_EQ_INT(s.m, 0);
	CHECK_EQ_INT(s.n, 3);
	CHECK_EQ_INT(s.version, 1);
	mail_subject_release(&s);

	s = subj("[PATCH RFC net-next v2 01/10] net: page frags");
	CHECK(s.is_patch && s.rfc);
	CHECK_EQ_INT(s.version, 2);
	CHECK_EQ_INT(s.m, 1);
	CHECK_EQ_INT(s.n, 10);
	CHECK_EQ_STR(s.tags, "net-next");
	mail_subject_release(&s);

	s = subj("[RFC][PATCH 1/2] two groups");
	CHECK(s.is_patch && s.rfc && s.m == 1 && s.n == 2);
	CHECK_EQ_STR(s.title, "two groups");
	mail_subject_release(&s);

	s = subj("[PATCHv4 2/2] glued version");
	CHECK(s.is_patch && s.version == 4 && s.m == 2);
	mail_subject_release(&s);

	s = subj("[PATCH] single");
	CHECK(s.is_patch && !s.numbered && s.m == 1 && s.n == 1);
	mail_subject_release(&s);

	s = subj("Re: [PATCH v2 1/3] mm: foo");
	CHECK(s.is_reply && !s.is_patch);
	mail_subject_release(&s);

	s = subj("mm: no prefix at all");
	CHECK(!s.is_patch && !s.is_reply);
	CHECK_EQ_STR(s.title, "mm: no prefix at all");
	mail_subject_release(&s);

	/* m > n, absurd numbers and an unclosed bracket are not counters */
	s = subj("[PATCH 5/3] bad");
	CHECK(!s.numbered);
	mail_subject_release(&s);
	s = subj("[PATCH 1/99999999999] bad");
	CHECK(!s.numbered);
	mail_subject_release(&s);
	s = subj("[PATCH 1/2 unclosed");
	CHECK(!s.is_patch);
	mail_subject_release(&s);
	s = subj(NULL);
	CHECK(!s.is_patch);
	mail_subject_release(&s);
}

TEST(mail_base_commit_trailer)
{
	const char *b = "text\n\nbase-commit: 0123456789ABCDEF0123456789abcdef01234567\n"
			"prerequisite-patch-id: ffff\n";
	char *c = mail_base_commit(b, strlen(b));
	CHECK_EQ_STR(c, "0123456789abcdef0123456789abcdef01234567");
	free(c);
	const char *no[] = {
		"base-commit:\n",
		"base-commit: xyz\n",
		" base-commit: 0123456789\n",        /* a context line */
		"+base-commit: 0123456789\n",        /* an added line */
		"base-commit: 0123456789 trailing\n",
		"base-commit: 012345\n",             /* too short */
	};
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		c = mail_base_commit(no[i], strlen(no[i]));
		CHECK(c == NULL);
		free(c);
	}
}

TEST(mail_path_checks)
{
	CHECK_EQ_INT(apply_check_path("mm/page_alloc.c"), 0);
	CHECK_EQ_INT(apply_check_path("a..b/c...d"), 0);
	CHECK_EQ_INT(apply_check_path(".gitignore"), 0);
	CHECK_EQ_INT(apply_check_path("../../etc/x"), GA_EINVAL);
	CHECK(strstr(err_last(), "leaves the tree") != NULL);
	CHECK_EQ_INT(apply_check_path("mm/../../x"), GA_EINVAL);
	CHECK_EQ_INT(apply_check_path("mm/.."), GA_EINVAL);
	CHECK_EQ_INT(apply_check_path("./mm/x.c"), GA_EINVAL);
	CHECK_EQ_INT(apply_check_path("/etc/passwd"), GA_EINVAL);
	CHECK(strstr(err_last(), "absolute") != NULL);
	CHECK_EQ_INT(apply_check_path(".git/hooks/pre-commit"), GA_EINVAL);
	CHECK_EQ_INT(apply_check_path("sub/.GIT/config"), GA_EINVAL);
	CHECK_EQ_INT(apply_check_path("sub/.git./config"), GA_EINVAL);
	CHECK_EQ_INT(apply_check_path("GIT~1/config"), GA_EINVAL);
	CHECK_EQ_INT(apply_check_path("mm//x.c"), GA_EINVAL);
	CHECK_EQ_INT(apply_check_path("mm/x.c/"), GA_EINVAL);
	CHECK_EQ_INT(apply_check_path(""), GA_EINVAL);
	CHECK_EQ_INT(apply_check_path("mm/x\001.c"), GA_EINVAL);
}

static const char patch_body[] =
	"mm: do a thing\n"
	"\n"
	"Signed-off-by: A <a@example.org>\n"
	"---\n"
	" mm/x.c | 2 +-\n"
	" 1 file changed\n"
	"\n"
	"diff --git a/mm/x.c b/mm/x.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/mm/x.c\n"
	"+++ b/mm/x.c\n"
	"@@ -1,3 +1,3 @@\n"
	" a\n"
	"--- removed line that looks like a header\n"
	"+++ added line that looks like a header\n"
	" c\n"
	"-- \n"
	"2.39.2\n"
	"\n";

TEST(mail_diff_extent)
{
	struct mail_diff_info d;
	CHECK_EQ_INT(mail_diff_scan(patch_body, strlen(patch_body), &d), 0);
	const char *start = strstr(patch_body, "diff --git");
	CHECK_EQ_INT(d.begin, (size_t)(start - patch_body));
	const char *end = strstr(patch_body, "-- \n2.39");
	CHECK_EQ_INT(d.end, (size_t)(end - patch_body));
	REQUIRE_EQ_INT(d.nfiles, 1);
	CHECK_EQ_STR(d.files[0].old_path, "mm/x.c");
	CHECK_EQ_STR(d.files[0].new_path, "mm/x.c");
	CHECK_EQ_INT(d.files[0].hunks, 1);
	CHECK(!d.plain);
	mail_diff_info_release(&d);

	const char *none = "just text\n---\n no diff here\n";
	CHECK_EQ_INT(mail_diff_scan(none, strlen(none), &d), GA_ENOTFOUND);
	mail_diff_info_release(&d);

	/* new file, rename, quoted path, a traversal path */
	const char *multi =
		"diff --git a/new.c b/new.c\nnew file mode 100644\n--- /dev/null\n+++ b/new.c\n@@ -0,0 +1 @@\n+x\n"
		"diff --git a/old.c b/ren.c\nsimilarity index 100%\nrename from old.c\nrename to ren.c\n"
		"diff --git \"a/sp\\303\\251c.c\" \"b/sp\\303\\251c.c\"\n--- \"a/sp\\303\\251c.c\"\n+++ \"b/sp\\303\\251c.c\"\n@@ -1 +1 @@\n-a\n+b\n"
		"diff --git a/../../etc/x b/../../etc/x\n--- a/../../etc/x\n+++ b/../../etc/x\n@@ -1 +1 @@\n-a\n+b\n";
	CHECK_EQ_INT(mail_diff_scan(multi, strlen(multi), &d), 0);
	REQUIRE_EQ_INT(d.nfiles, 4);
	CHECK(d.files[0].old_path == NULL);
	CHECK_EQ_STR(d.files[0].new_path, "new.c");
	CHECK_EQ_STR(d.files[1].rename_from, "old.c");
	CHECK_EQ_STR(d.files[1].rename_to, "ren.c");
	CHECK_EQ_STR(d.files[2].new_path, "sp\xc3\xa9" "c.c");
	CHECK_EQ_STR(d.files[3].new_path, "../../etc/x");
	CHECK_EQ_INT(d.end, strlen(multi));
	mail_diff_info_release(&d);
}

TEST(mail_plain_diff_to_git)
{
	const char *plain =
		"Index: linux/mm/x.c\n"
		"===================================================================\n"
		"--- linux.orig/mm/x.c\t2024-01-01 00:00:00.000000000 +0000\n"
		"+++ linux/mm/x.c\t2024-01-02 00:00:00.000000000 +0000\n"
		"@@ -1,2 +1,2 @@\n"
		" a\n"
		"-b\n"
		"+c\n"
		"\n"
		"--- /dev/null\n"
		"+++ b/new.h\n"
		"@@ -0,0 +1 @@\n"
		"+n\n";
	struct mail_diff_info d;
	CHECK_EQ_INT(mail_diff_scan(plain, strlen(plain), &d), 0);
	CHECK(d.plain);
	REQUIRE_EQ_INT(d.nfiles, 2);
	CHECK_EQ_STR(d.files[0].old_path, "mm/x.c");
	CHECK(d.files[1].old_path == NULL);
	mail_diff_info_release(&d);
	size_t n;
	char *g = mail_diff_to_git(plain, strlen(plain), &n);
	CHECK_EQ_INT(n, strlen(g));
	CHECK(strstr(g, "diff --git a/mm/x.c b/mm/x.c\n--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n") != NULL);
	CHECK(strstr(g, "diff --git a/new.h b/new.h\nnew file mode 100644\n--- /dev/null\n+++ b/new.h\n") != NULL);
	CHECK(strstr(g, "Index:") == NULL && strstr(g, "2024") == NULL);
	free(g);
}

static struct mail_series parse(const char *mbox)
{
	struct mail_series s;
	int rc = mail_series_parse(mbox, strlen(mbox), NULL, &s);
	if (rc)
		fprintf(stderr, "  parse: %s\n", err_last());
	return s;
}

#define HDR(from, subj, id) \
	"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n" \
	"From: " from "\nTo: linux-mm@kvack.org\nCc: Dev <dev@example.org>\n" \
	"Subject: " subj "\nMessage-Id: <" id ">\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n"

TEST(mail_series_order_cover_base)
{
	const char *mbox =
		HDR("A <a@example.org>", "[PATCH 2/2] mm: second", "p2@x")
		"In-Reply-To: <cover@x>\nReferences: <cover@x>\n\n"
		"second\n---\ndiff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-b\n+c\n-- \n2.39\n\n"
		HDR("A <a@example.org>", "[PATCH 0/2] mm: series", "cover@x")
		"\ncover text\n\nbase-commit: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n-- \n2.39\n\n"
		HDR("A <a@example.org>", "[PATCH 1/2] mm: first", "p1@x")
		"In-Reply-To: <cover@x>\nReferences: <cover@x>\n\n"
		"first\n---\ndiff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-a\n+b\n-- \n2.39\n\n"
		HDR("B <b@example.org>", "Re: [PATCH 1/2] mm: first", "r1@x")
		"In-Reply-To: <p1@x>\n\n> quoted\nreply\n\n";
	struct mail_series s = parse(mbox);
	CHECK_EQ_INT(s.nmessages, 4);
	CHECK_EQ_INT(s.npatches, 2);
	const struct mail_message *c = mail_series_cover(&s);
	REQUIRE(c != NULL);
	CHECK_EQ_STR(c->message_id, "cover@x");
	const struct mail_message *p1 = mail_series_patch(&s, 0), *p2 = mail_series_patch(&s, 1);
	REQUIRE(p1 && p2);
	CHECK_EQ_STR(p1->message_id, "p1@x");
	CHECK_EQ_STR(p2->message_id, "p2@x");
	CHECK_EQ_STR(p1->in_reply_to, "cover@x");
	CHECK_EQ_INT(p1->n_references, 1);
	CHECK(p1->diff && !strncmp(p1->diff, "diff --git a/f.c", 16));
	CHECK(p1->diff && !strstr(p1->diff, "2.39"));
	CHECK(strstr(p1->to, "linux-mm@kvack.org") != NULL);
	CHECK(strstr(p1->cc, "dev@example.org") != NULL);
	CHECK(strstr(p1->from, "a@example.org") != NULL);
	CHECK_EQ_STR(s.base_commit, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	REQUIRE_EQ_INT(s.nskipped, 1); /* the reply */
	if (s.nskipped)
		CHECK(strstr(s.skipped[0].reason, "reply") != NULL);
	CHECK_EQ_INT(s.nwarnings, 0);
	mail_series_release(&s);
}

TEST(mail_series_encodings)
{
	/* quoted-printable, CRLF, folded and encoded subject */
	const char *qp =
		"From x Mon Sep 17 00:00:00 2001\r\n"
		"From: =?UTF-8?Q?J=C3=B6rg?= <j@example.org>\r\n"
		"Subject: [PATCH] mm: a long subject\r\n that is folded\r\n"
		"Message-Id: <qp@x>\r\n"
		"MIME-Version: 1.0\r\n"
		"Content-Type: text/plain; charset=utf-8\r\n"
		"Content-Transfer-Encoding: quoted-printable\r\n"
		"\r\n"
		"text\r\n---\r\n"
		"diff --git a/f.c b/f.c\r\n--- a/f.c\r\n+++ b/f.c\r\n@@ -1 +1 @@\r\n"
		"-int a =3D 1;\r\n+int a =3D 2; /* a very long line that the mailer had to wrap with a soft=\r\n break */\r\n"
		"base-commit: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\r\n";
	struct mail_series s = parse(qp);
	CHECK_EQ_INT(s.npatches, 1);
	const struct mail_message *p = mail_series_patch(&s, 0);
	if (p) {
		CHECK_EQ_STR(p->subject, "[PATCH] mm: a long subject that is folded");
		CHECK(strstr(p->from, "J\xc3\xb6rg") != NULL);
		CHECK(p->diff && strstr(p->diff, "-int a = 1;\n+int a = 2; /* a very long line that the mailer had to wrap with a soft break */\n"));
		CHECK(p->diff && !strchr(p->diff, '\r'));
	}
	CHECK_EQ_STR(s.base_commit, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
	mail_series_release(&s);

	/* base64 multipart with the patch as an attachment; one message, no From_ line */
	const char *mp =
		"From: A <a@example.org>\n"
		"Subject: [PATCH 1/1] attached\n"
		"Message-Id: <mp@x>\n"
		"MIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; boundary=\"BB\"\n"
		"\n"
		"--BB\nContent-Type: text/plain\n\nsee the attachment\n"
		"--BB\nContent-Type: text/html\n\n<p>diff --git a/evil b/evil</p>\n"
		"--BB\nContent-Type: text/x-patch; name=\"0001.patch\"\n"
		"Content-Disposition: attachment; filename=\"0001.patch\"\n"
		"Content-Transfer-Encoding: base64\n\n"
		/* "diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-a\n+b\n" */
		"ZGlmZiAtLWdpdCBhL2YuYyBiL2YuYwotLS0gYS9mLmMKKysrIGIvZi5jCkBAIC0xICsxIEBACi1h\nCitiCg==\n"
		"--BB--\n";
	s = parse(mp);
	CHECK_EQ_INT(s.npatches, 1);
	p = mail_series_patch(&s, 0);
	if (p) {
		CHECK(strstr(p->body, "see the attachment") != NULL);
		CHECK(strstr(p->body, "evil") == NULL);
		CHECK(p->diff && !strcmp(p->diff, "diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-a\n+b\n"));
	}
	mail_series_release(&s);
}

TEST(mail_series_caps)
{
	struct mail_limits lim = MAIL_LIMITS_INIT;
	struct mail_series s;
	struct strbuf big = STRBUF_INIT;
	strbuf_adds(&big, HDR("A <a@example.org>", "[PATCH 1/2] big", "big@x") "\n---\n"
			  "diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1 +1,200 @@\n-a\n");
	for (int i = 0; i < 200; i++)
		strbuf_adds(&big, "+xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n");
	strbuf_adds(&big, "\n" HDR("A <a@example.org>", "[PATCH 2/2] small", "small@x") "\n---\n"
			  "diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-a\n+b\n");

	/* the whole input over the cap: one clear error */
	lim.max_total = 1000;
	CHECK_EQ_INT(mail_series_parse(big.buf, big.len, &lim, &s), GA_EINVAL);
	CHECK(strstr(err_last(), "limit for one series") != NULL);
	mail_series_release(&s);

	/* one message over the cap: it keeps its place, marked */
	lim = (struct mail_limits)MAIL_LIMITS_INIT;
	lim.max_message = 4000;
	CHECK_EQ_INT(mail_series_parse(big.buf, big.len, &lim, &s), 0);
	CHECK_EQ_INT(s.npatches, 2);
	const struct mail_message *p = mail_series_patch(&s, 0);
	CHECK(p && p->diff == NULL && p->diff_error && strstr(p->diff_error, "limit for one message"));
	p = mail_series_patch(&s, 1);
	CHECK(p && p->diff && !p->diff_error);
	mail_series_release(&s);

	/* the diff over the patch cap */
	lim = (struct mail_limits)MAIL_LIMITS_INIT;
	lim.max_patch = 2000;
	CHECK_EQ_INT(mail_series_parse(big.buf, big.len, &lim, &s), 0);
	p = mail_series_patch(&s, 0);
	CHECK(p && p->diff == NULL && p->diff_error && strstr(p->diff_error, "limit for one patch"));
	mail_series_release(&s);

	/* too many messages */
	lim = (struct mail_limits)MAIL_LIMITS_INIT;
	lim.max_messages = 1;
	CHECK_EQ_INT(mail_series_parse(big.buf, big.len, &lim, &s), GA_EINVAL);
	CHECK(strstr(err_last(), "more than 1 messages") != NULL);
	mail_series_release(&s);
	strbuf_release(&big);

	/* not mail at all */
	CHECK_EQ_INT(mail_series_parse("", 0, NULL, &s), GA_EINVAL);
	mail_series_release(&s);
}

TEST(mail_series_versions_and_gaps)
{
	const char *mbox =
		HDR("A <a@example.org>", "[PATCH v1 1/2] old", "v1@x") "\n---\n"
		"diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-a\n+b\n\n"
		HDR("A <a@example.org>", "[PATCH v2 2/3] new two", "v2b@x") "\n---\n"
		"diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-a\n+b\n\n"
		HDR("A <a@example.org>", "[PATCH v2 1/3] new one", "v2a@x") "\n---\n"
		"diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-a\n+b\n\n"
		HDR("A <a@example.org>", "[PATCH v2 1/3] new one again", "v2c@x") "\n---\n"
		"diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-a\n+b\n\n"
		HDR("A <a@example.org>", "[PATCH v2 3/3] no diff", "v2d@x") "\n\njust words\n";
	struct mail_series s = parse(mbox);
	CHECK_EQ_INT(s.version, 2);
	CHECK_EQ_INT(s.npatches, 2);
	CHECK_EQ_STR(mail_series_patch(&s, 0)->message_id, "v2a@x");
	CHECK_EQ_STR(mail_series_patch(&s, 1)->message_id, "v2b@x");
	CHECK_EQ_INT(s.nskipped, 3);
	bool missing3 = false;
	for (size_t i = 0; i < s.nwarnings; i++)
		missing3 |= strstr(s.warnings[i], "3/3 is missing") != NULL;
	CHECK(missing3);
	mail_series_release(&s);
}

TEST(mail_reply_threading)
{
	const char *mbox =
		HDR("A <a@example.org>", "[PATCH 1/2] mm: first", "p1@x")
		"References: <cover@x>\nIn-Reply-To: <cover@x>\n\n---\n"
		"diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-a\n+b\n";
	struct mail_series s = parse(mbox);
	const struct mail_message *p = mail_series_patch(&s, 0);
	REQUIRE(p != NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct mail_out *o = mail_out_new(f);
	struct mail_reply_opts ro = { .from = "Bot <bot@example.net>" };
	CHECK_EQ_INT(mail_out_reply(o, p, &ro, "From here on a line that needs escaping\n> quoted\n"), 0);
	mail_out_free(o);
	fclose(f);
	CHECK(!strncmp(buf, "From bot@example.net ", 21));
	CHECK(strstr(buf, "\nSubject: Re: [PATCH 1/2] mm: first\n") != NULL);
	CHECK(strstr(buf, "\nIn-Reply-To: <p1@x>\n") != NULL);
	CHECK(strstr(buf, "\nReferences: <cover@x> <p1@x>\n") != NULL);
	CHECK(strstr(buf, "\nTo: A <a@example.org>\n") != NULL);
	CHECK(strstr(buf, "linux-mm@kvack.org") != NULL && strstr(buf, "dev@example.org") != NULL);
	CHECK(strstr(buf, "\n>From here on") != NULL);

	/* what we wrote parses back as one message of the same thread */
	struct mail_series back;
	CHECK_EQ_INT(mail_series_parse(buf, len, NULL, &back), 0);
	REQUIRE_EQ_INT(back.nmessages, 1);
	CHECK_EQ_STR(back.messages[0].in_reply_to, "p1@x");
	CHECK(back.messages[0].subj.is_reply);
	mail_series_release(&back);
	free(buf);
	mail_series_release(&s);
}
