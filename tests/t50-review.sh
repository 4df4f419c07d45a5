#!/usr/bin/env bash
# t50-review: `gfpaudit review` end to end.  Builds a small kernel-shaped git
# repository, makes series with `git format-patch --cover-letter --base=`,
# hand-writes edge mails (no base-commit, wrong base, quoted-printable, CRLF,
# a hunk that does not apply, path traversal, plain `diff -u`, oversized
# messages, a 50 MB attachment generated here), runs the real binary and
# checks exit codes, JSON, the reply mbox headers and that the repository is
# never written.  Ends with "N passed, N failed, N skipped".
set -u
here=$(cd "$(dirname "$0")" && pwd)
GFPAUDIT=${GFPAUDIT:-$here/../gfpaudit}
T=$(mktemp -d /tmp/gfpaudit-t50.XXXXXX)
[ -n "${KEEP:-}" ] && echo "keeping $T" || trap 'rm -rf "$T"' EXIT
. "$here/lib/assert.sh"

# py DESC FILE SCRIPT: a python3 assertion script over FILE (JSON or mbox)
py() {
	local d=$1 f=$2 s=$3 out
	if out=$(python3 -c "$s" "$f" 2>&1); then ok "$d"; else fail "$d" "$out"; fi
}

review() { # review OUTFILE ERRFILE ARGS... -> sets rc
	local o=$1 e=$2; shift 2
	"$GFPAUDIT" review "$@" >"$o" 2>"$e"
	rc=$?
}

export GIT_AUTHOR_NAME="Ann Author" GIT_AUTHOR_EMAIL=ann@example.org
export GIT_COMMITTER_NAME="Ann Author" GIT_COMMITTER_EMAIL=ann@example.org
export GIT_AUTHOR_DATE="2024-01-01T00:00:00Z" GIT_COMMITTER_DATE="2024-01-01T00:00:00Z"
export SOURCE_DATE_EPOCH=1704067200
git_() { git -C "$T/repo" -c core.hooksPath=/dev/null -c commit.gpgsign=false "$@"; }

# ---- the repository: two driver files, one with an old costly allocation ----
mkdir -p "$T/repo/drivers/foo"
git init -q "$T/repo"
cat >"$T/repo/drivers/foo/buf.c" <<'EOF'
/* a test fixture written for gfpaudit */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

static struct page *foo_buf;
static unsigned int foo_order;

static int foo_setup(void)
{
	foo_order = 0;
	return 0;
}

static void foo_teardown(void)
{
	foo_buf = NULL;
}
EOF
cat >"$T/repo/drivers/foo/ring.c" <<'EOF'
/* a test fixture written for gfpaudit */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

static struct page *ring_pages;

int ring_init(void)
{
	/* an old problem: the series must not be blamed for it */
	ring_pages = alloc_pages(GFP_KERNEL, 5);
	if (!ring_pages)
		return -ENOMEM;
	return 0;
}
EOF
git_ add -A && git_ commit -qm "foo: base driver"
BASE=$(git_ rev-parse HEAD)
git_ checkout -q -b series

# patch 1: a costly allocation with nothing but an error return
python3 - "$T/repo/drivers/foo/buf.c" <<'EOF'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace("\tfoo_order = 0;\n\treturn 0;\n", "\tfoo_order = 4;\n\tfoo_buf = alloc_pages(GFP_KERNEL, 4);\n\tif (!foo_buf)\n\t\treturn -ENOMEM;\n\treturn 0;\n")
open(p, "w").write(s)
EOF
git_ commit -qam "foo: allocate the buffer at setup" -m "Signed-off-by: Ann Author <ann@example.org>"
# patch 2: unrelated, in the file that has the old problem, plus a new header
cat >"$T/repo/drivers/foo/ring.h" <<'EOF'
#define RING_SLOTS 64
EOF
python3 - "$T/repo/drivers/foo/ring.c" <<'EOF'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace('#include <linux/errno.h>\n', '#include <linux/errno.h>\n#include "ring.h"\n')
s += "\nint ring_slots(void)\n{\n\treturn RING_SLOTS;\n}\n"
open(p, "w").write(s)
EOF
git_ add -A && git_ commit -qm "foo: report the ring size" -m "Signed-off-by: Ann Author <ann@example.org>"
# patch 3: the fix, an order loop that gives up quietly above order 0
python3 - "$T/repo/drivers/foo/buf.c" <<'EOF'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace("\tfoo_order = 4;\n\tfoo_buf = alloc_pages(GFP_KERNEL, 4);\n\tif (!foo_buf)\n\t\treturn -ENOMEM;\n",
  "\tint order;\n\n\tfor (order = 4; order >= 0; order--) {\n\t\tfoo_buf = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, order);\n\t\tif (foo_buf)\n\t\t\tbreak;\n\t}\n\tif (!foo_buf)\n\t\treturn -ENOMEM;\n\tfoo_order = order;\n")
open(p, "w").write(s)
EOF
git_ commit -qam "foo: fall back to smaller buffers" -m "Signed-off-by: Ann Author <ann@example.org>"
TIP=$(git_ rev-parse HEAD)
# the reviewer's repository is at the base: the series is only in the mail
git_ checkout -q master 2>/dev/null || git_ checkout -q main
[ "$(git_ rev-parse HEAD)" = "$BASE" ] || { echo "setup: HEAD is not the base"; exit 1; }

fp() { git_ format-patch -q --thread=shallow --to=linux-mm@kvack.org --cc="Rev Iewer <rev@example.org>" "$@"; }
fp --cover-letter --base="$BASE" -o "$T/s3" "$BASE..$TIP"
cat "$T"/s3/*.patch >"$T/s3.mbox"
fp -o "$T/nb" "$BASE..$TIP"                          # no base-commit at all
cat "$T"/nb/*.patch >"$T/nobase.mbox"

# a base that has drifted: two lines more on top of buf.c (hunks must move)
git_ checkout -q -b drift "$BASE"
sed -i '1a /* drifted: a line added upstream */\n/* and another */' "$T/repo/drivers/foo/buf.c"
git_ commit -qam "foo: comments upstream"
DRIFT=$(git_ rev-parse HEAD)
git_ checkout -q master 2>/dev/null || git_ checkout -q main

snapshot() { # everything review must leave alone
	(cd "$T/repo" && git status --porcelain --ignored && git rev-parse HEAD && git for-each-ref &&
	 find .git -type f -newer "$T/marker" -print)
}
touch -d '2001-01-01' "$T/marker"
find "$T/repo/.git" -type f -exec touch -d '2000-01-01' {} +
snap0=$(snapshot)

# ---- the key case: introduced in 1, unrelated 2, fixed in 3 ----
cd "$T" || exit 1
review "$T/s3.json" "$T/s3.err" s3.mbox --tree repo --format json
check "key series: exit 1 (a finding was introduced)" test "$rc" = 1
py "key series: exactly one introduced finding, on patch 1, fixed_by 3, nothing else" "$T/s3.json" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["base_source"] == "base-commit", d["base_source"]
assert [p["index"] for p in d["patches"]] == [1, 2, 3]
assert all(p["applied"] for p in d["patches"])
assert all(not p["not_analyzed"] for p in d["patches"]), [p["not_analyzed"] for p in d["patches"]]
intro = [(p["index"], f) for p in d["patches"] for f in p["introduced"]]
fixed = [(p["index"], f) for p in d["patches"] for f in p["fixed"]]
assert len(intro) == 1, intro
assert not fixed, fixed
i, f = intro[0]
assert i == 1 and f.get("fixed_by") == 3, (i, f.get("fixed_by"))
assert f["file"] == "drivers/foo/buf.c" and f["api"] == "alloc_pages" and f["order"] == {"lo": 4, "hi": 4}, f
assert f["rule"].startswith("costly-"), f["rule"]
'
check "key series: stderr says where the base came from" grep -q "base ${BASE:0:12} from the series' base-commit trailer" "$T/s3.err"

review "$T/s3.mbox.out" "$T/s3.mbox.err" s3.mbox --tree repo --from "Bot <bot@example.net>"
check "email: exit 1" test "$rc" = 1
py "email: one summary on the cover letter, one reply on patch 1, threaded" "$T/s3.mbox.out" '
import mailbox, sys, email.utils
msgs = list(mailbox.mbox(sys.argv[1]))
orig = list(mailbox.mbox(sys.argv[1].replace(".mbox.out", ".mbox")))
byid = {m["Message-Id"].strip(): m for m in orig}
cover = [m for m in orig if "0/3]" in m["Subject"]][0]
p1 = [m for m in orig if "1/3]" in m["Subject"]][0]
assert len(msgs) == 2, [m["Subject"] for m in msgs]
c, r = msgs
assert c["Subject"] == "Re: " + cover["Subject"], c["Subject"]
assert c["In-Reply-To"] == cover["Message-Id"], (c["In-Reply-To"], cover["Message-Id"])
assert c["References"].split()[-1] == cover["Message-Id"]
body = " ".join(c.get_payload().split())  # wrapped at 72
assert "1 new allocation finding (1/3 fixed by 3/3)" in body and "3/3 patches applied" in body, body
assert r["Subject"] == "Re: " + p1["Subject"], r["Subject"]
assert r["In-Reply-To"] == p1["Message-Id"]
refs = r["References"].split()
assert refs == p1["References"].split() + [p1["Message-Id"]], (refs, p1["References"])
assert refs[0] == cover["Message-Id"]
assert email.utils.parseaddr(r["To"])[1] == "ann@example.org", r["To"]
cc = [a for _, a in email.utils.getaddresses([r["Cc"]])]
assert "linux-mm@kvack.org" in cc and "rev@example.org" in cc, cc
assert email.utils.parseaddr(r["From"])[1] == "bot@example.net"
assert r["Message-Id"] and r["Date"]
b = r.get_payload()
assert "\n> +\tfoo_buf = alloc_pages(GFP_KERNEL, 4);\n" in b, b
assert "> @@ " in b and "> diff --git a/drivers/foo/buf.c b/drivers/foo/buf.c" in b, b
assert "order-4" in b and "Patch 3/3" in b, b
assert "ring" not in b, b
for line in b.splitlines():
    assert len(line) <= 80 or line.startswith(">"), line
'
check "email: the same review with -o FILE" sh -c "'$GFPAUDIT' review s3.mbox --tree repo -q -o '$T/o.mbox' >'$T/o.stdout' 2>/dev/null; test -s '$T/o.mbox' && ! test -s '$T/o.stdout'"
check "files of git format-patch work as they are" sh -c "'$GFPAUDIT' review s3/*.patch --tree repo -q --format json | grep -q '\"fixed_by\": 3'"

# ---- b4 check protocol: one message on stdin ----
"$GFPAUDIT" review --format b4 --tree repo --base "$BASE" <s3/0001-*.patch >"$T/b4.json" 2>"$T/b4.err"
check "b4: exit 0 (the verdict is in the JSON)" test $? = 0
py "b4: a JSON array of {tool, status, summary, details}; patch 1 warns" "$T/b4.json" '
import json, sys
a = json.load(open(sys.argv[1]))
assert isinstance(a, list) and len(a) == 1, a
x = a[0]
assert set(x) == {"tool", "status", "summary", "details"}, x
assert x["tool"] == "gfpaudit" and x["status"] in ("warn", "fail"), x
assert x["summary"] == "1 new allocation finding: buf.c:12 costly-no-fallback", x["summary"]
assert "> +\tfoo_buf = alloc_pages(GFP_KERNEL, 4);" in x["details"]
'
# patch 2 alone, on the tree after patch 1 (the series branch has it)
git -C repo format-patch -q -1 --stdout "$TIP~1" >"$T/p2.eml"
"$GFPAUDIT" review --format b4 --tree repo --base "$TIP~2" <"$T/p2.eml" >"$T/b4p2.json" 2>/dev/null
py "b4: an unrelated patch passes" "$T/b4p2.json" '
import json, sys
a = json.load(open(sys.argv[1]))
assert len(a) == 1 and a[0]["status"] == "pass", a
'
printf 'From: x@example.org\nSubject: hello\n\nnot a patch\n' | "$GFPAUDIT" review --format b4 --tree repo >"$T/b4np.json" 2>/dev/null
py "b4: a message with no patch is a warn item, still valid JSON" "$T/b4np.json" '
import json, sys
a = json.load(open(sys.argv[1]))
assert len(a) == 1 and a[0]["status"] == "warn" and "no patch" in a[0]["summary"], a
'

# ---- no base-commit, wrong base ----
review "$T/nb.json" "$T/nb.err" nobase.mbox --tree repo --format json
check "no base-commit: HEAD is used and said so" sh -c "test $rc = 1 && grep -q 'HEAD of repo' '$T/nb.err' && grep -q '\"base_source\": \"HEAD\"' '$T/nb.json'"
review "$T/nb2.json" "$T/nb2.err" nobase.mbox --tree repo --base "$BASE" --format json
check "no base-commit, --base given: base_source --base" sh -c "test $rc = 1 && grep -q '\"base_source\": \"--base\"' '$T/nb2.json'"
# the drifted base (made before the snapshot, above)
review "$T/dr.json" "$T/dr.err" nobase.mbox --tree repo --base "$DRIFT" --format json
py "drifted base: hunks applied at an offset, same verdict, lines shifted" "$T/dr.json" '
import json, sys
d = json.load(open(sys.argv[1]))
assert all(p["applied"] for p in d["patches"]), d["patches"]
assert d["patches"][0].get("hunks_moved", 0) >= 1, d["patches"][0]
intro = [(p["index"], f.get("fixed_by"), f["line"]) for p in d["patches"] for f in p["introduced"]]
assert intro == [(1, 3, 14)], intro
'
check "drifted base: stderr says hunks moved" grep -q "applied at an offset" "$T/dr.err"

sed "s/^base-commit: .*/base-commit: 0123456789abcdef0123456789abcdef01234567/" s3.mbox >wrongbase.mbox
review "$T/wb.out" "$T/wb.err" wrongbase.mbox --tree repo
check "wrong base: exit 2" test "$rc" = 2
check "wrong base: says fetch it or pass --base" grep -q "base commit 0123456789abcdef0123456789abcdef01234567 from the series is not in repo: fetch it or pass --base" "$T/wb.err"
check "wrong base: no output" test ! -s "$T/wb.out"
review "$T/wb2.json" "$T/wb2.err" wrongbase.mbox --tree repo --base "$BASE" --format json
check "wrong base, --base given: reviewed on --base" sh -c "test $rc = 1 && grep -q 'is not in repo; using --base' '$T/wb2.err' && grep -q '\"base_source\": \"--base\"' '$T/wb2.json'"
review "$T/nr.out" "$T/nr.err" s3.mbox --tree "$T"
check "not a git repository: exit 2 with a clear message" sh -c "test $rc = 2 && grep -q 'is not a git repository' '$T/nr.err'"

# ---- encodings: quoted-printable and CRLF carry the same patch ----
python3 - s3/0001-*.patch >qp.mbox <<'EOF'
import sys, quopri
raw = open(sys.argv[1], "rb").read()
head, body = raw.split(b"\n\n", 1)
head = b"\n".join(l for l in head.split(b"\n") if not l.lower().startswith(b"content-transfer-encoding"))
body = quopri.encodestring(body.replace(b"alloc_pages(GFP_KERNEL, 4);", b"alloc_pages(GFP_KERNEL, 4);" + b" " * 0))
sys.stdout.buffer.write(head + b"\nContent-Transfer-Encoding: quoted-printable\n\n" + body)
EOF
check "quoted-printable: the body really is encoded" grep -q "foo_buf =3D alloc_pages" qp.mbox
review "$T/qp.json" "$T/qp.err" qp.mbox --tree repo --base "$BASE" --format json
py "quoted-printable: decoded, applied, the finding found" "$T/qp.json" '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["patches"][0]
assert p["applied"] and len(p["introduced"]) == 1 and p["introduced"][0]["api"] == "alloc_pages", p
'
sed 's/$/\r/' s3.mbox >crlf.mbox
check "CRLF: the mbox has CRs" grep -q $'\r$' crlf.mbox
review "$T/crlf.json" "$T/crlf.err" crlf.mbox --tree repo --format json
py "CRLF: same result as LF" "$T/crlf.json" '
import json, sys
d = json.load(open(sys.argv[1]))
intro = [(p["index"], f.get("fixed_by")) for p in d["patches"] for f in p["introduced"]]
assert intro == [(1, 3)] and all(p["applied"] for p in d["patches"]), d
'

# ---- a patch that does not apply ----
python3 - s3.mbox >broken.mbox <<'EOF'
import sys
s = open(sys.argv[1]).read()
i = s.index("[PATCH 2/3]")
h = s.index("\n@@ ", i)
j = s.index("\n ", h) + 1          # the hunk's first context line
sys.stdout.write(s[:j] + " /* not in the tree */" + s[s.index("\n", j):])
EOF
review "$T/br.json" "$T/br.err" broken.mbox --tree repo --format json
check "does not apply: exit 1 (patch 1's finding is still reported)" test "$rc" = 1
py "does not apply: patch 1 reviewed, 2 names its failing hunk, 3 not applied" "$T/br.json" '
import json, sys
d = json.load(open(sys.argv[1]))
p1, p2, p3 = d["patches"]
assert p1["applied"] and len(p1["introduced"]) == 1 and "fixed_by" not in p1["introduced"][0], p1
assert not p2["applied"] and p2["failed_file"] == "drivers/foo/ring.c", p2
assert p2["failed_hunk"].startswith("@@ -") and "does not apply" in p2["error"], p2
assert not p3["applied"] and p3["error"] == "not applied: patch 2 did not apply", p3
'
check "does not apply: stderr names the hunk" grep -q "drivers/foo/ring.c: hunk '@@ -" "$T/br.err"
review "$T/br.mbox" "$T/br2.err" broken.mbox --tree repo
py "does not apply: a reply on patch 2 says so, none on 3" "$T/br.mbox" '
import mailbox, sys
msgs = list(mailbox.mbox(sys.argv[1]))
subj = [m["Subject"] for m in msgs]
assert len(msgs) == 3 and "2/3]" in subj[2] and "does not apply" in msgs[2].get_payload(), subj
assert not any("3/3]" in s for s in subj), subj
'

# ---- untrusted input: path traversal, plain diff -u, caps, malformed mails ----
mail() { # mail SUBJECT BODYFILE
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nFrom: Mal Lory <mal@example.org>\nTo: linux-mm@kvack.org\nSubject: %s\nMessage-Id: <%s@example.org>\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n\n' "$1" "$RANDOM$RANDOM"
	cat "$2"
	printf '\n'
}
cat >trav.body <<'EOF'
escape the tree
---
diff --git a/../../gfpaudit-t50-escape b/../../gfpaudit-t50-escape
new file mode 100644
--- /dev/null
+++ b/../../gfpaudit-t50-escape
@@ -0,0 +1 @@
+owned
EOF
mail "[PATCH] evil: traversal" trav.body >trav.mbox
review "$T/tr.json" "$T/tr.err" trav.mbox --tree repo --base "$BASE" --format json
check "traversal: exit 2, refused with the path named" sh -c "test $rc = 2 && grep -q \"refused: path '../../gfpaudit-t50-escape' leaves the tree\" '$T/tr.err'"
check "traversal: nothing written outside" test ! -e "$T/../gfpaudit-t50-escape" -a ! -e "$T/gfpaudit-t50-escape" -a ! -e "/tmp/gfpaudit-t50-escape"
sed 's|a/../../gfpaudit-t50-escape|a/.git/hooks/post-checkout|; s|b/../../gfpaudit-t50-escape|b/.git/hooks/post-checkout|' trav.body >git.body
mail "[PATCH] evil: hook" git.body >git.mbox
review "$T/g.json" "$T/g.err" git.mbox --tree repo --base "$BASE" --format json
check "a path into .git is refused" sh -c "test $rc = 2 && grep -q 'writes into .git' '$T/g.err' && test ! -e repo/.git/hooks/post-checkout"

{ echo "quilt-style patch"; echo; echo "Index: linux/drivers/foo/buf.c"; echo "==================================================================="
  git -C repo show "$BASE:drivers/foo/buf.c" >old.c; git -C repo show "$TIP~2:drivers/foo/buf.c" >new.c
  diff -u --label linux.orig/drivers/foo/buf.c --label linux/drivers/foo/buf.c old.c new.c; } >plain.body
mail "[PATCH] foo: plain diff" plain.body >plain.mbox
check "plain diff: the mail has no git header" sh -c "! grep -q '^diff --git' plain.mbox && grep -q '^--- linux.orig/drivers/foo/buf.c' plain.mbox"
review "$T/pl.json" "$T/pl.err" plain.mbox --tree repo --base "$BASE" --format json
py "plain diff -u: applied through the fallback, finding found" "$T/pl.json" '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["patches"][0]
assert p["applied"] and len(p["introduced"]) == 1 and p["introduced"][0]["file"] == "drivers/foo/buf.c", p
'

# a header added by the series decides the order: it must be read from the
# patched tree (as an unsaved file), not from the disk where it does not exist
cat >hdr.body <<'EOF'
order from a new header
---
diff --git a/drivers/foo/big.h b/drivers/foo/big.h
new file mode 100644
--- /dev/null
+++ b/drivers/foo/big.h
@@ -0,0 +1 @@
+#define FOO_BIG_ORDER 6
diff --git a/drivers/foo/big.c b/drivers/foo/big.c
new file mode 100644
--- /dev/null
+++ b/drivers/foo/big.c
@@ -0,0 +1,13 @@
+#include <linux/gfp.h>
+#include <linux/mm.h>
+#include <linux/errno.h>
+#include "big.h"
+
+static struct page *big;
+
+int big_init(void)
+{
+	big = alloc_pages(GFP_KERNEL, FOO_BIG_ORDER);
+	if (!big)
+		return -ENOMEM;
+	return 0;
+}
EOF
mail "[PATCH] foo: big buffers" hdr.body >hdr.mbox
review "$T/hdr.json" "$T/hdr.err" hdr.mbox --tree repo --base "$BASE" --format json
py "a header from the series reaches the analysis (order 6 from big.h)" "$T/hdr.json" '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["patches"][0]
assert p["applied"] and not p["not_analyzed"], p
o = [f["order"] for f in p["introduced"]]
assert {"lo": 6, "hi": 6} in o, p["introduced"]
'
check "the header is not on disk" test ! -e repo/drivers/foo/big.h

# a message over the 10 MB cap keeps its place: later patches are not applied
python3 - s3.mbox >bigmsg.mbox <<'EOF'
import sys, base64
s = open(sys.argv[1]).read()
i = s.index("[PATCH 2/3]")
start = s.rindex("\nFrom ", 0, i) + 1
end = s.index("\nFrom ", i) + 1
msg = s[start:end]
head, body = msg.split("\n\n", 1)
att = base64.encodebytes(b"\0" * (11 << 20)).decode()
new = (head + "\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=XX\n\n--XX\nContent-Type: text/plain\n\n"
       + body + "\n--XX\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n" + att + "--XX--\n")
new = new.replace("Content-Type: text/plain; charset=UTF-8\n", "", 1)
sys.stdout.write(s[:start] + new + s[end:])
EOF
review "$T/bm.json" "$T/bm.err" bigmsg.mbox --tree repo --format json
py "an 11 MB message: patch 2 over the message cap, 3 not applied, 1 reviewed" "$T/bm.json" '
import json, sys
d = json.load(open(sys.argv[1]))
p1, p2, p3 = d["patches"]
assert p1["applied"] and len(p1["introduced"]) == 1, p1
assert not p2["applied"] and "over the 10.0 MB limit for one message" in p2["error"], p2
assert not p3["applied"], p3
'

# the 50 MB attachment: one clear error, no crash
{ mail "[PATCH] huge attachment" /dev/null | sed '/^$/,$d'
  printf 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=YY\n\n--YY\nContent-Type: text/plain\n\nsee attached\n--YY\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n'
  head -c $((50 << 20)) /dev/zero | base64
  printf -- '--YY--\n'; } >huge.mbox
review "$T/huge.out" "$T/huge.err" huge.mbox --tree repo --base "$BASE"
check "50 MB attachment: exit 2 with the cap named, no crash" sh -c "test $rc = 2 && grep -q 'over the 50.0 MB limit for one series' '$T/huge.err'"

cat >nodiff.body <<'EOF'
this patch mail lost its diff
EOF
{ mail "[PATCH 1/2] foo: fine" plain.body
  mail "[PATCH 2/2] foo: no diff" nodiff.body
  printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n\x01\x02 garbage\xff\xfe\n\n\xff\n'; } >malformed.mbox
review "$T/mf.json" "$T/mf.err" malformed.mbox --tree repo --base "$BASE" --format json
check "malformed messages: skipped with a reason, the rest reviewed" sh -c "test $rc = 1 && grep -q \"skipped '\\[PATCH 2/2\\] foo: no diff': no diff in the message body\" '$T/mf.err' && grep -q '\"index\": 1' '$T/mf.json'"

# ---- a clean series: no reply but the summary ----
fp --cover-letter --base="$TIP~2" -o "$T/clean" "$TIP~2..$TIP~1"
cat clean/*.patch >clean.mbox
review "$T/clean.out" "$T/clean.err" clean.mbox --tree repo
check "clean series: exit 0" test "$rc" = 0
py "clean series: only the one-line summary on the cover letter" "$T/clean.out" '
import mailbox, sys
msgs = list(mailbox.mbox(sys.argv[1]))
assert len(msgs) == 1 and "0/1]" in msgs[0]["Subject"], [m["Subject"] for m in msgs]
assert msgs[0].get_payload().startswith("gfpaudit: no new allocation findings"), msgs[0].get_payload()
'

# ---- usage ----
"$GFPAUDIT" review >/dev/null 2>&1
check "no MBOX: exit 2" test $? = 2
"$GFPAUDIT" review s3.mbox --tree repo --format xml >/dev/null 2>&1
check "unknown format: exit 2" test $? = 2

# ---- a prepared kernel tree: the repository's kbuild flags are used ----
# A git dir outside the (shared, read-only) tree with core.worktree pointing
# at it; its commits hold only the file the test patches, headers come from
# the tree's disk.  Skipped when KDIR is not a prepared tree.
KDIR=${KDIR:-$here/../build/linux-6.12}
if [ -f "$KDIR/include/generated/autoconf.h" ]; then
	K="$T/kgit"
	git init -q --bare "$K" && git --git-dir="$K" config core.bare false &&
		git --git-dir="$K" config core.worktree "$(cd "$KDIR" && pwd)"
	kg() { GIT_DIR="$K" GIT_INDEX_FILE="$T/kindex" git "$@"; }
	cat >kbuf.c <<'EOF2'
/* a test fixture written for gfpaudit */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/module.h>

static struct page *gfpaudit_t50_buf;

static int gfpaudit_t50_setup(void)
{
	return 0;
}
EOF2
	sed 's/^\treturn 0;/\tgfpaudit_t50_buf = alloc_pages(GFP_KERNEL, 4);\n\tif (!gfpaudit_t50_buf)\n\t\treturn -ENOMEM;\n\treturn 0;/' kbuf.c >kbuf2.c
	kg update-index --add --cacheinfo "100644,$(kg hash-object -w kbuf.c),drivers/gfpaudit_t50/buf.c"
	kb=$(kg commit-tree -m base "$(kg write-tree)")
	kg update-index --cacheinfo "100644,$(kg hash-object -w kbuf2.c),drivers/gfpaudit_t50/buf.c"
	kt=$(kg commit-tree -p "$kb" -m "gfpaudit: t50 costly" "$(kg write-tree)")
	kg update-ref refs/heads/master "$kt"
	kg format-patch -q --stdout --base="$kb" "$kb..$kt" >kernel.mbox
	review "$T/k.json" "$T/k.err" kernel.mbox --tree "$K" --format json
	py "prepared kernel tree: kbuild context, the finding found" "$T/k.json" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["context"] == "kbuild", d["context"]
p = d["patches"][0]
assert p["applied"] and not p["not_analyzed"], p
f = p["introduced"]
assert len(f) == 1 and f[0]["file"] == "drivers/gfpaudit_t50/buf.c" and f[0]["order"]["hi"] == 4, f
'
	# the precompiled kernel headers: used when the series touches no header
	GFPAUDIT_DEBUG=1 "$GFPAUDIT" review kernel.mbox --tree "$K" --format json >"$T/kp.json" 2>"$T/kp.err"
	check "prepared kernel tree, no header in the series: parsed through the PCH" grep -q 'include-pch' "$T/kp.err"
	GFPAUDIT_DEBUG=1 "$GFPAUDIT" review kernel.mbox --tree "$K" --format json --no-pch >"$T/kn.json" 2>"$T/kn.err"
	check "prepared kernel tree, --no-pch: no PCH" sh -c "! grep -q include-pch '$T/kn.err'"
	py "prepared kernel tree: the same findings with and without the PCH" "$T/kp.json" '
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[1].replace("kp.json", "kn.json")))
fa = [(f["file"], f["line"], f["rule"], f["order"]["hi"]) for f in a["patches"][0]["introduced"]]
fb = [(f["file"], f["line"], f["rule"], f["order"]["hi"]) for f in b["patches"][0]["introduced"]]
assert fa == fb and len(fa) == 1, (fa, fb)
'
	printf '/* a test fixture header written for gfpaudit */\n#define GFPAUDIT_T50_ORDER 4\n' >kbuf.h
	kg update-index --add --cacheinfo "100644,$(kg hash-object -w kbuf.h),drivers/gfpaudit_t50/buf.h"
	kh=$(kg commit-tree -p "$kt" -m "gfpaudit: t50 header" "$(kg write-tree)")
	kg format-patch -q --stdout --base="$kb" "$kb..$kh" >kernel-h.mbox
	GFPAUDIT_DEBUG=1 "$GFPAUDIT" review kernel-h.mbox --tree "$K" --format json >"$T/kh.json" 2>"$T/kh.err"
	check "prepared kernel tree, a header in the series: no PCH" sh -c "! grep -q include-pch '$T/kh.err'"
	py "prepared kernel tree, a header in the series: both patches reviewed" "$T/kh.json" '
import json, sys
d = json.load(open(sys.argv[1]))
assert [p["applied"] for p in d["patches"]] == [True, True], d["patches"]
'
	check "prepared kernel tree: nothing written into it" test ! -e "$KDIR/drivers/gfpaudit_t50"
else
	skip=$((skip + 1))
	echo "skip prepared kernel tree: $KDIR is not prepared (make kernel)"
fi

# ---- the repository was never written ----
snap1=$(snapshot)
if [ "$snap0" = "$snap1" ]; then ok "repository untouched: work tree, index, refs, objects"; else
	fail "repository untouched: work tree, index, refs, objects" "$(diff <(echo "$snap0") <(echo "$snap1"))"; fi

finish
