#!/usr/bin/env bash
# Attempt classes on real trees (issue: the mask each attempt really gets):
#  - 6.12's __filemap_get_folio(): the costly attempts above min_order are a
#    class of their own (NORETRY|NOWARN, "order > min_order");
#  - the seed's v2 fix (costly attempts lose direct reclaim, non-costly get
#    NORETRY, nested under `order > min_order`) applied to 6.12's
#    mm/filemap.c: `check --staged` exits 0 and reports the finding fixed;
#    `review` of it as a mailed patch says it fixes costly-noretry-compacts
#    at __filemap_get_folio and introduces nothing;
#  - a three-patch series (a costly alloc_pages with no fallback, an
#    unrelated patch, the conversion to kvmalloc): patch 1 introduces one
#    finding fixed by patch 3, patch 3 introduces nothing;
#  - the kvmalloc helper's own attempt is judged at its definition in
#    mm/util.c (6.12: __kvmalloc_node_noprof, 6.1: kvmalloc_node).
# The git repositories are made here, outside the tree: a git dir whose
# work tree is the prepared tree and whose commits hold only the files the
# test patches.  Nothing is written into the tree.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$root/gfpaudit}
KDIR=${KDIR:-$root/build/linux-6.12}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
skip=0
skipped() { echo "skip $1: $2"; skip=$((skip + 1)); }
pyjson() { # NAME FILE PYTHON-BODY (d is the JSON)
	local out
	if out=$(python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
$3" "$2" 2>&1); then ok "$1"; else fail "$1" "$out"; fi
}

if [ ! -f "$KDIR/include/generated/autoconf.h" ]; then
	skipped "6.12 tree" "$KDIR is not prepared (make kernel)"
	echo "$pass passed, $failn failed, $skip skipped"
	exit 0
fi
KDIR=$(cd "$KDIR" && pwd)

# ---- 1. the classes of 6.12's folio loop ----
"$G" audit -q --tree "$KDIR" --sites --format json "$KDIR/mm/filemap.c" >"$T/fm.json" 2>"$T/fm.err"
pyjson "6.12 __filemap_get_folio: costly attempts above min_order are a class with NORETRY|NOWARN" "$T/fm.json" '
s = [s for s in d["sites"] if s["function"] == "__filemap_get_folio" and s["api"] == "filemap_alloc_folio"]
assert len(s) == 1, s
att = s[0]["attempts"]
c = [a for a in att if a["role"] == "fallback" and a["orders"]["lo"] >= 4]
assert c and all({"__GFP_NORETRY", "__GFP_NOWARN"} <= set(a["gfp"]["must"]) for a in c), att
assert all(a.get("when") == "order > min_order" for a in c), att
assert [a for a in att if a["role"] == "last" and a.get("when") == "order == min_order"], att
f = [f for f in d["findings"] if f["function"] == "__filemap_get_folio"]
assert [f["rule"] for f in f] == ["costly-noretry-compacts"], [f["rule"] for f in f]
'

# the seed v2 change, applied by text to 6.12's loop (written here, not copied)
seed_fix() { # IN OUT
	python3 - "$1" "$2" <<'EOF'
import sys
s = open(sys.argv[1]).read()
old = ("\t\t\tif (order > min_order)\n"
       "\t\t\t\talloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;\n")
new = ("\t\t\tif (order > min_order) {\n"
       "\t\t\t\talloc_gfp |= __GFP_NOWARN;\n"
       "\t\t\t\tif (order > PAGE_ALLOC_COSTLY_ORDER)\n"
       "\t\t\t\t\talloc_gfp &= ~__GFP_DIRECT_RECLAIM;\n"
       "\t\t\t\telse\n"
       "\t\t\t\t\talloc_gfp |= __GFP_NORETRY;\n"
       "\t\t\t}\n")
assert s.count(old) == 1, "the 6.12 folio loop is not where it was"
open(sys.argv[2], "w").write(s.replace(old, new))
EOF
}
seed_fix "$KDIR/mm/filemap.c" "$T/filemap-fixed.c"
expect_rc "seed v2 change applies to 6.12 mm/filemap.c" 0 $?

# ---- 2. check --staged ----
R="$T/repo"
mkdir -p "$R/mm" && git -C "$R" init -q && cp "$KDIR/mm/filemap.c" "$R/mm/" &&
	git -C "$R" add mm/filemap.c && git -C "$R" commit -qm base &&
	cp "$T/filemap-fixed.c" "$R/mm/filemap.c" && git -C "$R" add mm/filemap.c
(cd "$R" && "$G" check --staged --tree "$KDIR") >"$T/chk.out" 2>"$T/chk.err"
expect_rc "check --staged on the seed fix: exit 0" 0 $? "$(cat "$T/chk.out" "$T/chk.err")"
(cd "$R" && "$G" check --staged --tree "$KDIR" --format json) >"$T/chk.json" 2>/dev/null
pyjson "check --staged: costly-noretry-compacts at __filemap_get_folio fixed, nothing new" "$T/chk.json" '
assert d["new"] == [], d["new"]
assert [(f["rule"], f["function"]) for f in d["fixed"]] == [("costly-noretry-compacts", "__filemap_get_folio")], d["fixed"]
'

# ---- 3. review of the mailed fix, and a three-patch series ----
K="$T/kgit"
git init -q --bare "$K" && git --git-dir="$K" config core.bare false &&
	git --git-dir="$K" config core.worktree "$KDIR"
kg() { GIT_DIR="$K" GIT_INDEX_FILE="$T/kindex" git "$@"; }
put() { kg update-index --add --cacheinfo "100644,$(kg hash-object -w "$1"),$2"; }
commit() { # PARENT MESSAGE -> sha
	kg commit-tree ${1:+-p "$1"} -m "$2" "$(kg write-tree)"
}
cat >"$T/drv0.c" <<'EOF'
/* a test fixture written for gfpaudit */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>

struct gfpaudit_t65_ring {
	void *buf;
};

static int gfpaudit_t65_ring_init(struct gfpaudit_t65_ring *r)
{
	return 0;
}
EOF
cat >"$T/other0.c" <<'EOF'
/* a test fixture written for gfpaudit */
static int gfpaudit_t65_other(void)
{
	return 0;
}
EOF
sed 's/^\treturn 0;/\tr->buf = (void *)__get_free_pages(GFP_KERNEL, 4);\n\tif (!r->buf)\n\t\treturn -ENOMEM;\n\treturn 0;/' \
	"$T/drv0.c" >"$T/drv1.c"
sed 's/^\treturn 0;/\treturn 1;/' "$T/other0.c" >"$T/other1.c"
sed 's/__get_free_pages(GFP_KERNEL, 4)/kvmalloc(PAGE_SIZE << 4, GFP_KERNEL)/' "$T/drv1.c" >"$T/drv3.c"
put "$KDIR/mm/filemap.c" mm/filemap.c
put "$T/drv0.c" drivers/gfpaudit_t65/ring.c
put "$T/other0.c" drivers/gfpaudit_t65/other.c
base=$(commit "" base)
put "$T/filemap-fixed.c" mm/filemap.c
fix=$(commit "$base" "mm/filemap: avoid costly reclaim for high-order folio allocations")
kg format-patch -q --stdout --base="$base" "$base..$fix" >"$T/seed.mbox"
"$G" review "$T/seed.mbox" --tree "$K" --severity note --format json >"$T/rv.json" 2>"$T/rv.err"
pyjson "review of the mailed seed fix: fixes costly-noretry-compacts at __filemap_get_folio, introduces nothing" "$T/rv.json" '
p = d["patches"]
assert len(p) == 1 and p[0]["applied"], p
assert p[0]["introduced"] == [], p[0]["introduced"]
assert [(f["rule"], f["function"]) for f in p[0]["fixed"]] == [("costly-noretry-compacts", "__filemap_get_folio")], p[0]["fixed"]
'
kg read-tree "$base"
put "$T/drv1.c" drivers/gfpaudit_t65/ring.c
c1=$(commit "$base" "gfpaudit_t65: a ring buffer")
put "$T/other1.c" drivers/gfpaudit_t65/other.c
c2=$(commit "$c1" "gfpaudit_t65: an unrelated change")
put "$T/drv3.c" drivers/gfpaudit_t65/ring.c
c3=$(commit "$c2" "gfpaudit_t65: the ring buffer through kvmalloc")
kg format-patch -q --stdout --base="$base" "$base..$c3" >"$T/s3.mbox"
"$G" review "$T/s3.mbox" --tree "$K" --format json >"$T/s3.json" 2>"$T/s3.err"
pyjson "three-patch series: patch 1 introduces one finding fixed by patch 3, patch 3 introduces nothing" "$T/s3.json" '
p = d["patches"]
assert len(p) == 3 and all(x["applied"] for x in p), p
i1 = p[0]["introduced"]
assert len(i1) == 1 and i1[0]["rule"] == "costly-no-fallback" and i1[0].get("fixed_by") == 3, i1
assert p[1]["introduced"] == [] and p[2]["introduced"] == [], (p[1]["introduced"], p[2]["introduced"])
'
expect_rc "nothing written into the tree" 0 "$([ ! -e "$KDIR/drivers/gfpaudit_t65" ]; echo $?)"

# ---- 4. the kvmalloc helper's own attempt, at its definition ----
helper_check() { # VERSION TREE FUNCTION
	"$G" audit -q --tree "$2" --format json "$2/mm/util.c" >"$T/u$1.json" 2>"$T/u$1.err"
	pyjson "$1 mm/util.c: costly-noretry-compacts at $3 (the helper's own attempt), fallback vmalloc" "$T/u$1.json" "
f = [f for f in d['findings'] if f['function'] == '$3']
assert [x['rule'] for x in f] == ['costly-noretry-compacts'], [(x['rule'], x['line']) for x in f]
assert f[0]['fallback'] == 'vmalloc' and f[0]['order']['lo'] == 4, f[0]
"
}
helper_check 6.12 "$KDIR" __kvmalloc_node_noprof
K61=$root/build/linux-6.1
if [ -f /usr/src/linux-source-6.1.tar.xz ] || [ -f "$K61/.gfpaudit-prepared" ]; then
	if "$here/prepare-kernel.sh" 6.1 >/dev/null 2>"$T/prep61.err"; then
		helper_check 6.1 "$K61" kvmalloc_node
	else
		fail "prepare 6.1 tree" "$(tail -5 "$T/prep61.err")"
	fi
else
	skipped "6.1 mm/util.c" "linux-source-6.1 is not installed"
fi

echo "$pass passed, $failn failed, $skip skipped"
[ "$failn" = 0 ]
