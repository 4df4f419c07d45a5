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
# Usage: bench/hook.sh [RUNS]      (default 5; hyperfine is used when installed)
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
mkdir -p "$HOME" "$T/repo/mm"
cp "$KDIR/mm/filemap.c" "$T/repo/mm/"
git -C "$T/repo" init -q && git -C "$T/repo" add -A && git -C "$T/repo" commit -qm base

# the one-file patch (3 lines added in one function)
sed -i '/^\t\t\t\talloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;$/a\
\t\t\t/* costly orders: no direct reclaim or compaction, fall back instead */\
\t\t\tif (order > PAGE_ALLOC_COSTLY_ORDER)\
\t\t\t\talloc_gfp \&= ~__GFP_DIRECT_RECLAIM;' "$T/repo/mm/filemap.c"
git -C "$T/repo" add mm/filemap.c
echo "patch:"
git -C "$T/repo" diff --cached --stat | sed 's/^/  /'
[ "$(git -C "$T/repo" diff --cached --numstat | cut -f1)" = 3 ] || { echo "bench/hook.sh: the patch did not apply" >&2; exit 3; }

res=$("$CLANG" -print-resource-dir)
flags=(-fsyntax-only -nostdinc -isystem "$res/include"
	-I arch/x86/include -I arch/x86/include/generated -I include -I arch/x86/include/uapi
	-I arch/x86/include/generated/uapi -I include/uapi -I include/generated/uapi
	-include include/linux/compiler-version.h -include include/linux/kconfig.h
	-include include/linux/compiler_types.h -D__KERNEL__ -DCC_USING_FENTRY -std=gnu11 -m64
	-mcmodel=kernel -fno-PIE -DKBUILD_MODNAME='"filemap"' -DKBUILD_BASENAME='"filemap"'
	-DKBUILD_MODFILE='"mm/filemap"' -Wno-everything
	-iquote "$KDIR/mm")  # the copy is outside the tree: its "internal.h" is there
check_cmd=(env -C "$T/repo" "$G" check --staged --tree "$KDIR")
clang_cmd=(env -C "$KDIR" "$CLANG" "${flags[@]}" "$T/repo/mm/filemap.c")
checkv_cmd=(env -C "$T/repo" "$G" check --staged --tree "$KDIR" -v)

echo "what the hook says on this patch:"
"${check_cmd[@]}" >"$T/out" 2>"$T/err"; echo "  exit $?"
sed 's/^/  /' "$T/out" "$T/err" | head -20
"${clang_cmd[@]}" || { echo "bench/hook.sh: clang could not parse the file with these flags" >&2; exit 3; }

if command -v hyperfine >/dev/null; then
	hyperfine -w 1 -r "$RUNS" -N "${check_cmd[*]}" "${checkv_cmd[*]}" "${clang_cmd[*]}"
	exit 0
fi

# one sample: wall seconds of a command, output discarded
sample() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
stats() { sort -n | awk '{ v[NR] = $1; s += $1 } END { printf "%.3f %.3f %.3f", v[1], v[int((NR + 1) / 2)], s / NR }'; }

# cold-ish: the first run of each after the copy (page cache already holds the
# headers from the sanity runs above, so this is "first process", not "cold disk")
: >"$T/check" ; : >"$T/checkv"; : >"$T/clang"
for i in $(seq "$RUNS"); do     # interleaved, so drift hits both alike
	sample "${check_cmd[@]}" >>"$T/check"
	sample "${checkv_cmd[@]}" >>"$T/checkv"
	sample "${clang_cmd[@]}" >>"$T/clang"
done
read -r cmin cmed cmean < <(stats <"$T/check")
read -r vmin vmed vmean < <(stats <"$T/checkv")
read -r kmin kmed kmean < <(stats <"$T/clang")
printf '\n%-44s %8s %8s %8s\n' "runs=$RUNS (seconds)" min median mean
printf '%-44s %8s %8s %8s\n' "gfpaudit check --staged" "$cmin" "$cmed" "$cmean"
printf '%-44s %8s %8s %8s\n' "gfpaudit check --staged -v (both sides)" "$vmin" "$vmed" "$vmean"
printf '%-44s %8s %8s %8s\n' "clang -fsyntax-only mm/filemap.c" "$kmin" "$kmed" "$kmean"
printf 'ratio check/clang (median): %.2f   with -v: %.2f\n' \
	"$(echo "$cmed / $kmed" | bc -l)" "$(echo "$vmed / $kmed" | bc -l)"
