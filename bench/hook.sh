#!/usr/bin/env bash
# Pre-commit latency: 'gfpaudit check --staged' on a one-file patch to
# mm/filemap.c against one 'clang -fsyntax-only' of the same file with
# kbuild-like flags, in the same run.
#
# Input: a prepared Linux 6.12 tree (KDIR, default /work/main/build/linux-6.12,
# read only).  A throwaway repository under $TMPDIR holds a copy of
# mm/filemap.c only; the check runs with --tree KDIR so the file is parsed in
# the tree's context (headers, generated files) with the staged content.
# The patch is the fix discussed upstream for the iomap regression: clear
# __GFP_DIRECT_RECLAIM for costly orders in __filemap_get_folio()'s loop.
#
# Usage: bench/hook.sh [RUNS]      (default 5)
# Env:   GFPAUDIT (binary), KDIR, CLANG (default clang)
set -u
here=$(cd "$(dirname "$0")" && pwd)
G=${GFPAUDIT:-$here/../gfpaudit}
KDIR=${KDIR:-/work/main/build/linux-6.12}
CLANG=${CLANG:-clang}
RUNS=${1:-5}
[ -f "$KDIR/include/generated/autoconf.h" ] || { echo "bench/hook.sh: $KDIR is not a prepared tree (make kernel)" >&2; exit 2; }
[ -x "$G" ] || { echo "bench/hook.sh: no binary at $G (make)" >&2; exit 2; }

T=$(mktemp -d "${TMPDIR:-/tmp}/gfpaudit-bench-hook.XXXXXX")
trap 'rm -rf "$T"' EXIT
export HOME=$T/home GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@example.org \
	GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@example.org
mkdir -p "$HOME"

# two throwaway repositories, each holding a copy of mm/filemap.c only
mkrepo() {
	mkdir -p "$1/mm"
	cp "$KDIR/mm/filemap.c" "$1/mm/"
	git -C "$1" init -q && git -C "$1" add -A && git -C "$1" commit -qm base
}
# fix: the caller-side fix discussed upstream (3 lines added in one
# function): nothing new, so only the staged version is parsed
mkrepo "$T/fix"
sed -i '/^\t\t\t\talloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;$/a\
\t\t\t/* costly orders: no direct reclaim or compaction, fall back instead */\
\t\t\tif (order > PAGE_ALLOC_COSTLY_ORDER)\
\t\t\t\talloc_gfp \&= ~__GFP_DIRECT_RECLAIM;' "$T/fix/mm/filemap.c"
git -C "$T/fix" add mm/filemap.c
# regress: drop __GFP_NORETRY from the folio loop (1 line): a new finding,
# so the old version is parsed too, to tell new from old
mkrepo "$T/regress"
sed -i 's/^\t\t\t\talloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;$/\t\t\t\talloc_gfp |= __GFP_NOWARN;/' \
	"$T/regress/mm/filemap.c"
git -C "$T/regress" add mm/filemap.c
for r in fix regress; do
	echo "patch '$r':"
	git -C "$T/$r" diff --cached --stat | sed 's/^/  /'
done
[ "$(git -C "$T/fix" diff --cached --numstat | cut -f1)" = 3 ] &&
[ "$(git -C "$T/regress" diff --cached --numstat | cut -f1)" = 1 ] ||
	{ echo "bench/hook.sh: a patch did not apply" >&2; exit 3; }

res=$("$CLANG" -print-resource-dir)
flags=(-fsyntax-only -nostdinc -isystem "$res/include"
	-I arch/x86/include -I arch/x86/include/generated -I include -I arch/x86/include/uapi
	-I arch/x86/include/generated/uapi -I include/uapi -I include/generated/uapi
	-include include/linux/compiler-version.h -include include/linux/kconfig.h
	-include include/linux/compiler_types.h -D__KERNEL__ -DCC_USING_FENTRY -std=gnu11 -m64
	-mcmodel=kernel -fno-PIE -DKBUILD_MODNAME='"filemap"' -DKBUILD_BASENAME='"filemap"'
	-DKBUILD_MODFILE='"mm/filemap"' -Wno-everything
	-iquote "$KDIR/mm")  # the copy is outside the tree: its "internal.h" is there
C="$G check --staged --tree $KDIR"
names=("cold: fix patch, --no-pch (1 parse)"
	"cold: fix patch, --no-skip-bodies (1 parse)"
	"cold: fix patch (1 parse)"
	"cold: regressing patch, -j1 (2 parses)"
	"cold: regressing patch, -j2 (2 in parallel)"
	"retry: regressing patch edited (1 parse)"
	"warm: regressing patch again (0 parses)"
	"clang -fsyntax-only mm/filemap.c")
# cold runs bypass the results cache; -j2 parses the version before the
# change in a second process while the staged one is parsed; "retry" is a
# blocked commit tried again after an edit in the same function (the HEAD
# side is cached, the staged side is new); "warm" is 'git commit' after
# 'gfpaudit check' on the same staged content
prep=(":" ":" ":" ":" ":" "retry_edit" ":" ":")
# a binary from before issue 20 parses every body anyway (and has no such option)
nsb=--no-skip-bodies
"$G" check --help 2>/dev/null | grep -q -- --no-skip-bodies || nsb=
cmds=("env -C $T/fix $C --no-cache --no-pch"
	"env -C $T/fix $C --no-cache $nsb"
	"env -C $T/fix $C --no-cache"
	"env -C $T/regress $C --no-cache -j1"
	"env -C $T/regress $C --no-cache -j2"
	"env -C $T/regress $C"
	"env -C $T/regress $C"
	"env -C $KDIR $CLANG ${flags[*]@Q} $T/fix/mm/filemap.c")
nc=${#cmds[@]}
edits=0
retry_edit() {
	edits=$((edits + 1))
	sed -i "s|^\t\t\t\talloc_gfp \|= __GFP_NOWARN;.*|\t\t\t\talloc_gfp \|= __GFP_NOWARN; /* try $edits */|" "$T/regress/mm/filemap.c"
	git -C "$T/regress" add mm/filemap.c
}

for r in fix regress; do
	echo "what the hook says on '$r':"
	(cd "$T/$r" && "$G" check --staged --tree "$KDIR" -v) >"$T/out" 2>"$T/err"; echo "  exit $?"
	sed 's/^/  /' "$T/out" "$T/err" | cut -c1-200 | head -10
done
eval "${cmds[nc - 1]}" || { echo "bench/hook.sh: clang could not parse the file with these flags" >&2; exit 3; }

# one sample: wall seconds of a command, output discarded
sample() { local s e; s=$(date +%s.%N); eval "$1" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
stats() { sort -n | awk '{ v[NR] = $1; s += $1 } END { printf "%.3f %.3f %.3f", v[1], v[int((NR + 1) / 2)], s / NR }'; }

# the page cache holds the headers already (the runs above), and so does the
# precompiled-header cache ($HOME/.cache/gfpaudit/pch, built by the first
# check above: its time is printed here once)
s=$(date +%s.%N); rm -rf "$HOME/.cache/gfpaudit"; eval "${cmds[2]}" >/dev/null 2>&1; e=$(date +%s.%N)
printf 'first check on this tree, building the precompiled headers (and the object map): %.1f s\n' "$(echo "$e - $s" | bc -l)"
eval "${cmds[nc - 2]}" >/dev/null 2>&1   # fill the results cache for "warm"
for k in $(seq 0 $((nc - 1))); do : >"$T/t$k"; done
for i in $(seq "$RUNS"); do     # interleaved, so load from other processes hits all alike
	for k in $(seq 0 $((nc - 1))); do
		${prep[$k]}
		sample "${cmds[$k]}" >>"$T/t$k"
	done
done
printf '\n%-44s %8s %8s %8s %8s\n' "runs=$RUNS, seconds" min median mean "x clang"
read -r _ kmed _ < <(stats <"$T/t$((nc - 1))")
for k in $(seq 0 $((nc - 1))); do
	read -r mn md mean < <(stats <"$T/t$k")
	printf '%-44s %8s %8s %8s %8.2f\n' "${names[$k]}" "$mn" "$md" "$mean" "$(echo "$md / $kmed" | bc -l)"
done
