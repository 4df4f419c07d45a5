#!/usr/bin/env bash
# `gfpaudit review` of a 10-patch series against a 6.12 git repository (issue
# 20: <= 10 s).  The repository is a hard-linked copy of a prepared tree
# (KDIR, default build/linux-6.12) committed once into git (REPO, default
# build/review-612; about a minute the first time, then reused).  The
# series: one patch a file for FILES (ten files with costly allocations),
# each converting the first kmalloc/kzalloc/kcalloc call of the file to its
# kvmalloc twin (the shape upstream's conversions take; the kfree side is
# not converted, which the review does not judge).  Timed: a cold review
# (no cache: every touched file parsed before and after) and a repeat,
# beside one `clang -fsyntax-only` of each touched file with the tree's
# include paths (the same-run baseline, summed).
# Usage: bench/review-612.sh   Env: GFPAUDIT, KDIR, REPO, RUNS (3)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$here/..
G=${GFPAUDIT:-$top/gfpaudit}
KDIR=${KDIR:-$top/build/linux-6.12}
REPO=${REPO:-$top/build/review-612}
RUNS=${RUNS:-3}
FILES="drivers/net/ethernet/intel/ixgbe/ixgbe_ipsec.c fs/xfs/xfs_buf.c
drivers/net/hyperv/netvsc_drv.c drivers/infiniband/hw/bnxt_re/qplib_res.c fs/nfs/nfs4namespace.c
drivers/net/wireless/ath/ath12k/dp.c drivers/hid/hid-wiimote-core.c drivers/net/ethernet/qlogic/qed/qed_sriov.c
drivers/media/usb/pwc/pwc-if.c mm/page_alloc.c"
[ -f "$KDIR/include/generated/autoconf.h" ] || { echo "bench: $KDIR is not a prepared tree" >&2; exit 2; }
export GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=bench@example.org GIT_COMMITTER_NAME=Bench GIT_COMMITTER_EMAIL=bench@example.org
if [ ! -d "$REPO/.git" ]; then
	echo "bench: making $REPO (a git repository of $KDIR)" >&2
	rm -rf "$REPO"
	cp -al "$KDIR" "$REPO"
	git -C "$REPO" init -q
	# Debian's top-level .gitignore ignores everything but debian/
	git -C "$REPO" add -f -A >/dev/null
	git -C "$REPO" commit -qm "linux 6.12 (Debian source)"
fi
git -C "$REPO" reset -q --hard
git -C "$REPO" clean -qfd -- $FILES >/dev/null 2>&1 || true
base=$(git -C "$REPO" rev-parse HEAD)
W=$(mktemp -d /tmp/gfpaudit-review612.XXXXXX)
trap 'git -C "$REPO" reset -q --hard "$base"; rm -rf "$W"' EXIT
n=0
for f in $FILES; do
	# a new file, not an edit in place: the tree's files are hard links
	python3 - "$REPO/$f" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
m = re.search(r"\b(kmalloc|kzalloc|kcalloc)\(", s)
if not m:
    sys.exit("no kmalloc-family call in " + p)
tw = {"kmalloc": "kvmalloc", "kzalloc": "kvzalloc", "kcalloc": "kvcalloc"}[m.group(1)]
s = s[:m.start()] + tw + "(" + s[m.end():]
import os
os.unlink(p)
open(p, "w").write(s)
PY
	git -C "$REPO" commit -qam "$(dirname "$f" | xargs basename): use ${f##*/}'s kvmalloc twin" -m "Signed-off-by: Bench <bench@example.org>"
	n=$((n + 1))
done
git -C "$REPO" format-patch -q --base="$base" --stdout "$base..HEAD" > "$W/series.mbox"
git -C "$REPO" reset -q --hard "$base"
echo "series: $n patches, $(stat -c %s "$W/series.mbox") bytes"
for r in $(seq 1 "$RUNS"); do
	/usr/bin/time -f "review cold run $r: %e s wall, %U s user, %S s sys, max RSS %M KB" \
		env GFPAUDIT_NO_CACHE=1 "$G" review --tree "$REPO" --format json -q "$W/series.mbox" > "$W/out.json" 2> "$W/err" || true
	tail -1 "$W/err"
done
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d.get("patches",[]); print("review JSON: %d patches, %d findings fixed, %d introduced" % (len(p), sum(len(x.get("fixed",[])) for x in p), sum(len(x.get("introduced",[])) for x in p)))' "$W/out.json" 2>/dev/null || head -c 300 "$W/out.json"
# baseline: clang -fsyntax-only of each touched file, twice (before and after), with kbuild-like flags
inc="-nostdinc -I$KDIR/arch/x86/include -I$KDIR/arch/x86/include/generated -I$KDIR/include -I$KDIR/include/generated -I$KDIR/arch/x86/include/uapi -I$KDIR/arch/x86/include/generated/uapi -I$KDIR/include/uapi -I$KDIR/include/generated/uapi -include $KDIR/include/linux/compiler-version.h -include $KDIR/include/linux/kconfig.h -include $KDIR/include/linux/compiler_types.h -D__KERNEL__ -std=gnu11 -fms-extensions -Wno-everything"
start=$(date +%s.%N)
for f in $FILES; do
	clang -fsyntax-only $inc -DKBUILD_MODNAME='"x"' -DKBUILD_BASENAME='"x"' -I"$KDIR/$(dirname "$f")" "$KDIR/$f" 2>/dev/null || true
done
end=$(date +%s.%N)
echo "clang -fsyntax-only of the $n files, once each: $(echo "$end - $start" | bc) s wall (a review parses each twice)"
