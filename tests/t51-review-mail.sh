#!/usr/bin/env bash
# t51-review-mail: what `gfpaudit review` says, read as a maintainer reads it.
# A series of our own fixtures, one patch per rule (the v5 shape of a slow
# path that folds a condition into can_direct_reclaim among them), reviewed
# into reply mails that are compared exactly with the goldens in
# tests/data/review-mail/ (only Message-Id, Closes: and the version vary and
# are normalized); then the mails' form (<= 72 columns, one statement per
# finding, threaded, tags), the sender rules, b4 JSON for patch 3 of 3 piped
# alone with B4_TRACKING_FILE, and --format b4-check run the way b4 runs a
# check command (b4 review with its tracking file, b4 prep on the branch that
# holds the series).  Also: every rule of the tool has a golden, a costly
# order that is only "possible" is not mailed at the default severity, a
# patch that trades one finding for another at a call is no fix, a
# header-only patch is analyzed through a .c file that includes it, --fix
# mails keep the tool's notes below ---.  The base tree and the mm/ files
# are ours (data/review-mail/src), not the corpus.
# GOLDEN_UPDATE=1 rewrites the goldens.
# Ends with "N passed, N failed, N skipped".
set -u
here=$(cd "$(dirname "$0")" && pwd)
GFPAUDIT=${GFPAUDIT:-$here/../gfpaudit}
GOLD=$here/data/review-mail
SRC=$GOLD/src
T=$(mktemp -d /tmp/gfpaudit-t51.XXXXXX)
[ -n "${KEEP:-}" ] && echo "keeping $T" || trap 'rm -rf "$T"' EXIT
. "$here/lib/assert.sh"

export GIT_AUTHOR_NAME="Ann Author" GIT_AUTHOR_EMAIL=ann@example.org
export GIT_COMMITTER_NAME="Ann Author" GIT_COMMITTER_EMAIL=ann@example.org
export GIT_AUTHOR_DATE="2024-01-01T00:00:00Z" GIT_COMMITTER_DATE="2024-01-01T00:00:00Z"
export SOURCE_DATE_EPOCH=1704067200
# no identity from the user's own configuration
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T
git_() { git -C "$T/repo" -c core.hooksPath=/dev/null -c commit.gpgsign=false "$@"; }
commit() { git_ add -A && git_ commit -qm "$1" -m "Signed-off-by: Ann Author <ann@example.org>"; }

mkdir -p "$T/repo/drivers/fx" "$T/repo/mm"
git init -q "$T/repo"
cat >"$T/repo/drivers/fx/README" <<'X'
fixtures written for gfpaudit's tests
X
# the base tree's mm/: a slow path in 6.12's shape for the allocator model
# (the mails cite its lines) and the v4 shape of the seed thread's change,
# all our own text (tests/data/review-mail/src/README)
cp "$SRC/mm/page_alloc.c" "$SRC/mm/internal.h" "$SRC/mm/toy_alloc.c" "$T/repo/mm/"
# a header whose value decides an order in a .c file that includes it
printf '#define FX_ORDER 1\n' >"$T/repo/drivers/fx/fx.h"
cat >"$T/repo/drivers/fx/user.c" <<'X'
/* a test fixture written for gfpaudit */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>
#include "fx.h"

static struct page *fx_user;

int fx_user_init(void)
{
	fx_user = alloc_pages(GFP_KERNEL, FX_ORDER);
	if (!fx_user)
		return -ENOMEM;
	return 0;
}
X
git_ add -A && git_ commit -qm "base"
BASE=$(git_ rev-parse HEAD)
git_ checkout -q -b series

fn() { # fn NAME BODY: a new file drivers/fx/NAME.c with one function
	{ printf '/* a test fixture written for gfpaudit */\n#include <linux/gfp.h>\n#include <linux/mm.h>\n#include <linux/slab.h>\n#include <linux/errno.h>\n\nstatic struct page *fx_page;\nstatic void *fx_buf;\n\nint fx_%s(void)\n{\n' "$1"
	  printf '%b' "$2"; printf '}\n'; } >"$T/repo/drivers/fx/$1.c"
}
fn no_fallback '\tfx_page = alloc_pages(GFP_KERNEL, 4);\n\tif (!fx_page)\n\t\treturn -ENOMEM;\n\treturn 0;\n'
commit "fx: allocate the buffer at once"
fn no_noretry '\tint order;\n\n\tfor (order = 5; order >= 0; order--) {\n\t\tfx_page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);\n\t\tif (fx_page)\n\t\t\treturn 0;\n\t}\n\treturn -ENOMEM;\n'
commit "fx: try large buffers first"
fn nofail '\tfx_page = alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 2);\n\treturn 0;\n'
commit "fx: never fail the ring allocation"
fn contradiction '\tfx_page = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOFAIL, 0);\n\treturn fx_page ? 0 : -ENOMEM;\n'
commit "fx: a quick page that must not fail"
fn nowarn '\tint order;\n\n\tfor (order = 2; order >= 0; order--) {\n\t\tfx_page = alloc_pages(GFP_KERNEL | __GFP_NORETRY, order);\n\t\tif (fx_page)\n\t\t\treturn 0;\n\t}\n\treturn -ENOMEM;\n'
commit "fx: opportunistic order-2 pages"
fn mayfail '\tfx_buf = kvmalloc(1 << 20, GFP_KERNEL | __GFP_RETRY_MAYFAIL);\n\treturn fx_buf ? 0 : -ENOMEM;\n'
commit "fx: a table that tries hard"
# the v5 shape: costly NORETRY folded into the local flag, the mask kept
cp "$SRC/mm/toy_alloc.v5.c" "$T/repo/mm/toy_alloc.c"
commit "mm/toy: skip reclaim for costly NORETRY requests"
# alloc_flags kept across a mask change
cp "$SRC/mm/toy_stale.c" "$T/repo/mm/toy_stale.c"
commit "mm/toy: retry with a higher priority"
# the two bit spaces mixed
cp "$SRC/mm/toy_mix.c" "$T/repo/mm/toy_mix.c"
commit "mm/toy: quiet high-atomic requests"
# costly NORETRY attempts that may still reclaim: they compact on this tree
fn compacts '\tint order;\n\n\tfor (order = 5; order >= 0; order--) {\n\t\tfx_page = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, order);\n\t\tif (fx_page)\n\t\t\treturn 0;\n\t}\n\treturn -ENOMEM;\n'
commit "fx: large buffers, opportunistically"
# a suppression with a misspelt rule: it suppresses nothing
fn suppress '\t/* gfpaudit: ignore costly-no-fallbak: the caller retries */\n\tfx_page = alloc_pages(GFP_KERNEL, 2);\n\treturn fx_page ? 0 : -ENOMEM;\n'
commit "fx: a small buffer"
# a costly order gfpaudit cannot prove: three bits of a descriptor (0..7),
# whatever the device writes there ("possible": a note)
cat >"$T/repo/drivers/fx/desc.c" <<'C'
/* a test fixture written for gfpaudit */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

struct fx_desc {
	u32 flags;
	struct page *buf;
};

int fx_desc_map(struct fx_desc *d)
{
	unsigned int order = (d->flags >> 8) & 0x7;

	d->buf = alloc_pages(GFP_KERNEL, order);
	if (!d->buf)
		return -ENOMEM;
	return 0;
}
C
commit "fx: buffers of the size the descriptor asks for"
TIP=$(git_ rev-parse HEAD)
git_ checkout -q master 2>/dev/null || git_ checkout -q main
git_ format-patch -q --thread=shallow --cover-letter --base="$BASE" --to=linux-mm@kvack.org -o "$T/s" "$BASE..$TIP"
cat "$T"/s/*.patch >"$T/series.mbox"

cd "$T" || exit 1
FROM="Rev Bot <bot@example.net>"
"$GFPAUDIT" review series.mbox --tree repo --severity note --from "$FROM" >mails.mbox 2>mails.err
expect_rc "review: exit 1 (findings introduced)" 1 $? "$(cat mails.err)"

# every reply body, normalized, one file per patch: 01-costly-no-fallback.txt ...
python3 - mails.mbox "$T/got" <<'X'
import mailbox, os, re, sys
out = sys.argv[2]; os.makedirs(out, exist_ok=True)
for m in mailbox.mbox(sys.argv[1]):
    n = re.search(r"(\d+)/\d+\]", m["Subject"]).group(1)
    if int(n) == 0:
        continue
    b = m.get_payload()
    rule = re.search(r"^\(gfpaudit ([a-z-]+) at ", b, re.M)
    b = re.sub(r"^Closes: .*$", "Closes: <normalized>", b, flags=re.M)
    b = re.sub(r"^gfpaudit \S+$", "gfpaudit <version>", b, flags=re.M)
    b = re.sub(r"cover\.[0-9]+\.git", "cover.<time>.git", b)
    open(os.path.join(out, "%02d-%s.txt" % (int(n), rule.group(1) if rule else "none")), "w").write(b)
X
if [ -n "${GOLDEN_UPDATE:-}" ]; then
	rm -f "$GOLD"/*.txt && cp "$T"/got/*.txt "$GOLD"/
	echo "goldens rewritten in $GOLD"
fi
for g in "$GOLD"/*.txt; do
	name=$(basename "$g")
	if [ ! -f "got/$name" ]; then fail "golden $name: no such reply" "$(ls got)"
	elif diff -u "$g" "got/$name" >"diff.$name"; then ok "golden $name"
	else fail "golden $name differs" "$(cat "diff.$name")"; fi
done
check "as many goldens as replies" test "$(ls got | wc -l)" = "$(ls "$GOLD"/*.txt | wc -l)"
# every rule the tool has (its SARIF rule table), not a list kept here
printf 'int x;\n' >empty.c
"$GFPAUDIT" audit -q --no-cache --format sarif empty.c >rules.sarif 2>/dev/null
rules=$(python3 -c 'import json,sys; print(" ".join(r["id"] for r in json.load(open(sys.argv[1]))["runs"][0]["tool"]["driver"]["rules"]))' rules.sarif)
check "the tool lists its rules (11)" test "$(echo $rules | wc -w)" = 11
for r in $rules; do
	check "a golden reply of its own for $r" sh -c "ls '$GOLD'/[0-9][0-9]-$r.txt >/dev/null && grep -q '^(gfpaudit $r at ' '$GOLD'/[0-9][0-9]-$r.txt" 
done

py() { local d=$1 f=$2 s=$3 o; if o=$(python3 -c "$s" "$f" 2>&1); then ok "$d"; else fail "$d" "$o"; fi; }
"$GFPAUDIT" review series.mbox --tree repo --severity note --format json >series.json 2>/dev/null
py "replies: prose <= 72 columns, one statement per finding, no raw rule repeat, threaded, tags" mails.mbox '
import json, mailbox, re, sys
msgs = list(mailbox.mbox(sys.argv[1]))
nfind = {p["index"]: len(p["introduced"]) for p in json.load(open(sys.argv[1].replace("mails.mbox", "series.json")))["patches"]}
orig = {m["Message-Id"]: m for m in mailbox.mbox(sys.argv[1].replace("mails.mbox", "series.mbox"))}
N = len(list(mailbox.mbox(sys.argv[1].replace("mails.mbox", "series.mbox")))) - 1
assert len(msgs) == N + 1, (len(msgs), N)
for m in msgs:
    assert m["In-Reply-To"] in orig, m["In-Reply-To"]
    assert "localhost" not in str(m), "localhost"
    b = m.get_payload()
    if re.search(r" 0+/%d\]" % N, m["Subject"]):
        # the cover letter: one wrapped summary, each patch named once
        assert all(len(l) <= 72 for l in b.splitlines()), b
        assert re.match(r"gfpaudit: 13 new allocation findings \(1/12, 2/12, 3/12, 4/12, 5/12,\s+6/12, 7/12, 8/12, 9/12 \(2\), 10/12, 11/12, 12/12\);", b), b
        continue
    indiff = False
    for line in b.splitlines():
        if line.startswith("diff --git"):
            indiff = True
        elif indiff and not line[:1] in (" ", "+", "-", "@") and not line.startswith("index "):
            indiff = False
        if indiff or line.startswith(">") or line.startswith("        ") or re.match(r"^(Closes|Reported-by): ", line):
            continue
        assert len(line) <= 72, (m["Subject"], line)
    n = int(re.search(r"(\d+)/%d\]" % N, m["Subject"]).group(1))
    assert b.count("\n(gfpaudit ") == nfind[n], (nfind[n], b)  # each finding said once
    assert not re.search(r"\bgfp must\b|may any|\[[a-z-]+\] ", b), b  # no raw message repeat
    assert re.search(r"^Reported-by: Rev Bot <bot@example.net>$", b, re.M), b
    own = m["Message-Id"].strip("<>")
    assert "Closes: https://lore.kernel.org/r/%s/" % own in b, (own, b)
    assert re.search(r"^base:      [0-9a-f]{12} \(the series. base-commit\)$", b, re.M), b
    assert "reproduce:" in b and "gfpaudit review series.mbox" in b, b
'
py "v5 shape: the divergence reply speaks of the flag and the mask, not of an allocation" got/07-gfp-derived-divergence.txt '
import sys
b = open(sys.argv[1]).read()
assert "can_direct_reclaim" in b and "cheap_fallback" in b and "gfp_to_alloc_flags" in b, b
assert "disagree" in b and "v5" in b, b
assert "asks the page allocator" not in b and "order-" not in b, b
assert "> +\tbool can_direct_reclaim = !cheap_fallback &&" in b, b
'
py "no-fallback: the slow-path paragraph comes from the allocator model (costly order gives up without RETRY_MAYFAIL)" got/01-costly-no-fallback.txt '
import sys
b = " ".join(open(sys.argv[1]).read().split())
assert "then fails: costly order without __GFP_RETRY_MAYFAIL" in b, b
assert "can retry both" not in b, b
assert "Something like this would avoid it" in b and "+\tfx_page = alloc_pages(" in open(sys.argv[1]).read(), b
'

# ---- a costly order that is not proven, at the default severity ----
# (README "Severity of a review": such a finding is a note, and a note is
# not mailed: the list gets nothing, the one running the review a count)
"$GFPAUDIT" review s/0012-*.patch --tree repo --from "$FROM" >possible.mbox 2>possible.err
expect_rc "possible order, default severity: exit 0" 0 $? "$(cat possible.err)"
check "possible order, default severity: no mail at all" sh -c "! test -s possible.mbox"
check "possible order, default severity: stderr counts it as not mailed" \
	grep -q "^gfpaudit review: 1 introduced finding below --severity warning not mailed (notes: a costly order not proven" possible.err
"$GFPAUDIT" review s/0012-*.patch --tree repo --format json >possible.json 2>/dev/null
py "possible order, default severity: JSON has no finding, below_severity 1" possible.json '
import json, sys
p = json.load(open(sys.argv[1]))["patches"][0]
assert p["introduced"] == [] and p["below_severity"] == 1, p
'
"$GFPAUDIT" review --format b4-check --tree repo <s/0012-*.patch >possible.b4c 2>&1
check "possible order, default severity: b4-check prints nothing" sh -c "! test -s possible.b4c"
py "possible order at --severity note: the reply says the order is not proven and where it comes from" got/12-costly-no-fallback.txt '
import sys
b = " ".join(open(sys.argv[1]).read().split())
assert "How sure: possible: the order comes from field" in b, b
'

# ---- a patch that trades one finding for another at the same call ----
# (dropping __GFP_NORETRY from patch 10's loop: costly-noretry-compacts
# goes, costly-no-noretry comes; that is no fix, and the reply says no "Good")
git_ checkout -q -b trade "$TIP"
sed -i 's/GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN/GFP_KERNEL | __GFP_NOWARN/' "$T/repo/drivers/fx/compacts.c"
commit "fx: let the large buffers reclaim"
git_ format-patch -q --base="$TIP" -o "$T/trade" "$TIP..HEAD"
git_ checkout -q master 2>/dev/null || git_ checkout -q main
"$GFPAUDIT" review trade/*.patch --tree repo --format json >trade.json 2>/dev/null
py "a traded finding: costly-no-noretry introduced, nothing fixed" trade.json '
import json, sys
p = json.load(open(sys.argv[1]))["patches"][0]
assert [f["rule"] for f in p["introduced"]] == ["costly-no-noretry"], p["introduced"]
assert p["fixed"] == [], p["fixed"]
'
"$GFPAUDIT" review trade/*.patch --tree repo --from "$FROM" >trade.mbox 2>/dev/null
check "a traded finding: the reply does not call the patch good" sh -c "grep -q '^(gfpaudit costly-no-noretry at ' trade.mbox && ! grep -qi 'good' trade.mbox"

# ---- the sender ----
"$GFPAUDIT" review series.mbox --tree repo >nofrom.out 2>nofrom.err
rc=$?
check "no --from and no git identity: exit 2, clear error, no mail" sh -c "test $rc = 2 && grep -q 'needs a sender' nofrom.err && ! test -s nofrom.out"
git_ config user.name "Git Ident" && git_ config user.email ident@example.com
"$GFPAUDIT" review series.mbox --tree repo -q >ident.mbox 2>/dev/null
check "the git identity is the sender when --from is not given" grep -q '^From: Git Ident <ident@example.com>' ident.mbox
git_ config --unset user.name && git_ config --unset user.email

# ---- a patch without Message-Id: a warning, and the reply says it cannot thread ----
grep -v -i '^Message-Id:' s/0001-*.patch >noid.eml
"$GFPAUDIT" review noid.eml --tree repo --base "$BASE" --from "$FROM" >noid.mbox 2>noid.err
check "no Message-Id: warned on stderr" grep -q 'has no Message-Id: its reply cannot be threaded' noid.err
check "no Message-Id: the reply says it cannot be threaded" grep -q 'no Message-Id, so this reply cannot be threaded' noid.mbox
check "no Message-Id: no In-Reply-To" sh -c "! grep -q '^In-Reply-To:' noid.mbox"

# ---- b4: patch 3 of 3 piped alone, with b4's tracking branch and file ----
# b4 review keeps a series on b4/review/<change-id>: its patches as commits
# on the base, a tracking commit on top.  Patches 2 and 3 change the file
# patch 1 adds, so patch 3 applies only after 1 and 2.
git_ checkout -q -b b4/review/chain "$BASE"
fn chain '\tfx_page = alloc_pages(GFP_KERNEL, 4);\n\tif (!fx_page)\n\t\treturn -ENOMEM;\n\treturn 0;\n'
commit "fx: chain buffer"
printf '\nint fx_chain_slots(void)\n{\n\treturn 64;\n}\n' >>"$T/repo/drivers/fx/chain.c"
commit "fx: report the chain size"
sed -i 's/alloc_pages(GFP_KERNEL, 4)/alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 4)/' "$T/repo/drivers/fx/chain.c"
commit "fx: the chain buffer must not fail"
git_ format-patch -q --base="$BASE" -o "$T/s3" "$BASE..HEAD"
C2=$(git_ rev-parse HEAD~1)
FIRST=$(git_ rev-parse HEAD~2)
git_ commit -q --allow-empty -m "b4 tracking commit"
git_ checkout -q master 2>/dev/null || git_ checkout -q main
cat >track.json <<X
{"series": {"change-id": "chain", "expected": 3, "base-commit": "$BASE",
            "first-patch-commit": "$FIRST"}, "patches": []}
X
B4_TRACKING_FILE=$T/track.json "$GFPAUDIT" review --format b4 --tree repo <s3/0003-*.patch >b4-3.json 2>b4-3.err
expect_rc "b4 with a tracking file: exit 0" 0 $? "$(cat b4-3.err)"
py "b4: patch 3/3 alone is judged on top of 1..2 (nofail introduced by 3)" b4-3.json '
import json, sys
a = json.load(open(sys.argv[1]))
assert len(a) == 1, a
x = a[0]
assert x["status"] == "fail", x           # nofail-high-order is an error
assert len(x["summary"]) <= 80, x["summary"]
# the most severe of the two (the mask change renews costly-no-fallback too)
assert x["summary"] == "2 new allocation findings: chain.c:12 nofail-high-order", x["summary"]
assert "does not apply" not in x["details"], x["details"]
'
check "b4 with a tracking file: stderr says where patch 3 went" grep -q "patch 3 applied on patch 2 of the series (b4/review/chain~2)" b4-3.err
"$GFPAUDIT" review --format b4 --tree repo <s3/0003-*.patch >b4-3nt.json 2>/dev/null
py "b4 without the tracking file: patch 3 alone does not apply to the base" b4-3nt.json '
import json, sys
a = json.load(open(sys.argv[1]))
assert a[0]["status"] == "warn" and a[0]["summary"].startswith("does not apply"), a
assert len(a[0]["summary"]) <= 80, a
'
sed 's/"first-patch-commit": "[0-9a-f]*"/"first-patch-commit": "'"$C2"'"/' track.json >track-bad.json
B4_TRACKING_FILE=$T/track-bad.json "$GFPAUDIT" review --format b4 --tree repo <s3/0003-*.patch >b4-bad.json 2>/dev/null
check "b4: a branch that does not match the tracking file is said, not guessed" grep -q "is not series.first-patch-commit" b4-bad.json
"$GFPAUDIT" review --format b4 --tree repo <s/0000-*.patch >b4-cover.json 2>b4-cover.err
check "b4: a cover letter returns []" sh -c "test \"\$(tr -d ' \n' <b4-cover.json)\" = '[]'"

# ---- a patch that changes only a header ----
git_ checkout -q -b hdr "$BASE"
printf '#define FX_ORDER 4\n' >"$T/repo/drivers/fx/fx.h"
commit "fx: bigger user buffers"
git_ format-patch -q --base="$BASE" -o "$T/hdr" "$BASE..HEAD"
git_ checkout -q master 2>/dev/null || git_ checkout -q main
"$GFPAUDIT" review hdr/*.patch --tree repo --format json >hdr.json 2>hdr.err
expect_rc "header-only patch: exit 1 (a finding through the .c file that includes it)" 1 $? "$(cat hdr.err)"
check "header-only patch: stderr names the .c file it was analyzed through" grep -q "fx.h analyzed through drivers/fx/user.c" hdr.err
py "header-only patch: the finding is in drivers/fx/user.c at order 4" hdr.json '
import json, sys
p = json.load(open(sys.argv[1]))["patches"][0]
f = p["introduced"]
assert len(f) == 1 and f[0]["file"] == "drivers/fx/user.c" and f[0]["order"] == {"lo": 4, "hi": 4}, f
'

# ---- audit --fix: the commit message above ---, the tool's notes below ----
mkdir -p fixtree/drivers/fx && cp "$here/fixes/nowarn.c" fixtree/drivers/fx/stash.c
(cd fixtree && git init -q && git add -A && git -c user.name=A -c user.email=a@example.org commit -qm demo &&
 git config user.name "Ann Author" && git config user.email ann@example.org &&
 "$GFPAUDIT" audit -j1 -q --fix ../fixmails drivers/fx/stash.c >/dev/null 2>&1)
py "fix mail: nothing of the tool above ---, its notes below" "$(ls fixmails/*.patch | head -1)" '
import sys
t = open(sys.argv[1]).read()
head, sep, rest = t.partition("\n---\n")
assert sep, t
assert "gfpaudit" not in head.lower() and "Evidence" not in head, head
assert "From: Ann Author <ann@example.org>" in head, head
assert "found by gfpaudit (rule noretry-without-nowarn)" in " ".join(rest.split()), rest
assert rest.index("Notes:") < rest.index("diff --git"), rest
'

# ---- b4-check, run as b4 runs a check command ----
# (b4 pipes each patch to the command in the top of the work tree: each
# stdout line is a finding, ERROR: in it fails the patch, any stderr line
# is a failure, no output at all passes)
cat >fake-b4 <<'X'
#!/usr/bin/env python3
import subprocess, sys
cmd, patches = sys.argv[1], sys.argv[2:]
for p in patches:
    r = subprocess.run(cmd, shell=True, stdin=open(p, "rb"), capture_output=True, cwd="repo")
    out = r.stdout.decode().strip().splitlines()
    err = r.stderr.decode().strip().splitlines()
    for l in out:
        print("%s: %s: %s" % (p.split("/")[-1], "fail" if "ERROR:" in l else "warning", l))
    for l in err:
        print("%s: fail: %s" % (p.split("/")[-1], l))
    if not out and not err:
        print("%s: %s" % (p.split("/")[-1], "fail: exit %d" % r.returncode if r.returncode else "success"))
X
chmod +x fake-b4
B4_TRACKING_FILE=$T/track.json ./fake-b4 "'$GFPAUDIT' review --format b4-check" s3/0001-*.patch s3/0002-*.patch s3/0003-*.patch >b4check.out
py "b4-check: a warning line for patch 1, success for 2, a warning and an ERROR line for 3" b4check.out '
import sys
l = open(sys.argv[1]).read().splitlines()
assert len(l) == 4, l
assert l[0].startswith("0001-") and ": warning: drivers/fx/chain.c:12: WARNING: " in l[0] and "ERROR" not in l[0], l
assert l[1].startswith("0002-") and l[1].endswith(": success"), l
assert l[2].startswith("0003-") and ": warning: drivers/fx/chain.c:12: WARNING: " in l[2], l
assert l[3].startswith("0003-") and ": fail: drivers/fx/chain.c:12: ERROR: " in l[3] and "[nofail-high-order]" in l[3], l
'
# b4 prep --check: no tracking file, the work tree is on the branch that
# holds the series (prep-perpatch-check-cmd); patch N is found among HEAD's
# commits by patch-id and judged on its parent
git_ checkout -q b4/review/chain~1
./fake-b4 "'$GFPAUDIT' review --format b4-check" s3/0001-*.patch s3/0002-*.patch s3/0003-*.patch >prep.out
git_ checkout -q master 2>/dev/null || git_ checkout -q main
check "b4 prep --check (series committed on HEAD, no tracking file): the same lines as with it" cmp b4check.out prep.out
"$GFPAUDIT" review --format json --tree repo s3/0003-*.patch >prep3.json 2>prep3.err
check "a lone patch that is not on HEAD is not found there (HEAD is master): not applied" sh -c "grep -q '\"applied\": false' prep3.json && ! grep -q 'of HEAD: judged on its parent' prep3.err"
"$GFPAUDIT" review --format b4-check --tree repo --base "$FIRST" <s3/0002-*.patch >clean.out 2>clean.err
rc=$?
check "b4-check: a clean patch prints nothing on stdout or stderr, exit 0" sh -c "test $rc = 0 && ! test -s clean.out && ! test -s clean.err"
"$GFPAUDIT" review --format b4-check --tree repo --base "$TIP~1" <s/0000-*.patch >cover.out 2>cover.err
check "b4-check: a cover letter prints nothing" sh -c "! test -s cover.out && ! test -s cover.err"

finish
