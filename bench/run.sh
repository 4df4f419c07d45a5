#!/usr/bin/env bash
# gfpaudit benchmark: whole-tree audit cost, side by side with spatch and
# plain clang.  `make bench` runs it; it is not part of `make test`.
#
# Input: a prepared Linux tree (KDIR; Debian's linux-source-6.12 with
# Debian's amd64 config after `make olddefconfig prepare`, see
# tests/prepare-kernel.sh).  The tree is never written: the bench works on a
# hard-linked copy under $OUT and edits files there by replacing them.
#
# Phases (each timed; -v lines of gfpaudit give the split):
#   candidates  the lexical prefilter alone (gfpaudit audit --candidates)
#   cold        audit with an empty cache
#   warm        the same audit again (answered from the cache)
#   touched     after appending a comment to $TOUCH candidate files
#   missed      (with MISSED=1, default when SCOPE is set) --no-prefilter --sites
#               over the same files: sites in files the prefilter skipped;
#               MISSED_SHARD=K/N runs it on that shard of the files only
#   spatch      SPATCH_RULES (default rules/*.cocci, or bench/alloc-call.cocci
#               when rules/ has none), each rule over the same tree (-D report,
#               or context for a rule without report mode);
#               SPATCH_EVERY=N runs them on every Nth .c file and scales by N
#   clang       clang -fsyntax-only with gfpaudit's kbuild flags (no PCH) on the
#               candidates; CLANG_EVERY=N runs every Nth candidate only and
#               scales the times by N (the row says so)
#
# The cold run sets GFPAUDIT_PROFILE=1: each worker prints its parse and
# analysis seconds and its peak RSS, kept in $OUT/cold.profile and summed
# into the "where the cold time goes" lines (with the slowest files).
#
#   check       bench/hook.sh (a one-file mm patch under `check --staged`)
#   review      bench/review-612.sh (a 10-patch series against a git copy of KDIR)
#
# Env: KDIR, J (jobs, default nproc), CHECK_RUNS (5), SCOPE (space-separated subdirectories of
# the tree; default: the whole tree), TOUCH (20), OUT (build/bench),
# MISSED (0/1), MISSED_SHARD, SPATCH_RULES, SPATCH_EVERY (1), CLANG_EVERY (1), SKIP (phases to
# skip, e.g. "spatch clang").
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$here/..
G=${GFPAUDIT:-$top/gfpaudit}
KDIR=${KDIR:-$top/build/linux-6.12}
J=${J:-$(nproc)}
SCOPE=${SCOPE:-}
TOUCH=${TOUCH:-20}
OUT=${OUT:-$top/build/bench}
if [ -z "${MISSED:-}" ]; then [ -n "$SCOPE" ] && MISSED=1 || MISSED=0; fi
SKIP=${SKIP:-}
MISSED_SHARD=${MISSED_SHARD:-}
CLANG_EVERY=${CLANG_EVERY:-1}
SPATCH_EVERY=${SPATCH_EVERY:-1}
TIME=/usr/bin/time

die() { echo "bench: $*" >&2; exit 2; }
[ -x "$G" ] || die "no gfpaudit binary at $G (run make)"
[ -f "$KDIR/include/generated/autoconf.h" ] || die "$KDIR is not a prepared tree (make kernel)"
[ -x "$TIME" ] || die "/usr/bin/time is needed (Debian package 'time')"
skip() { case " $SKIP " in *" $1 "*) return 0;; esac; return 1; }

mkdir -p "$OUT"
tree=$OUT/tree
rm -rf "$tree"
echo "bench: linking a private copy of $KDIR" >&2
cp -al "$KDIR" "$tree" 2>/dev/null || cp -a "$KDIR" "$tree" || die "cannot copy the tree"
targets=()
if [ -n "$SCOPE" ]; then for d in $SCOPE; do targets+=("$tree/$d"); done; else targets=("$tree"); fi
cache=$OUT/cache.sqlite
rm -f "$cache" "$cache"-wal "$cache"-shm
nfiles=$(find "${targets[@]}" -name '*.c' -type f | wc -l)
results=$OUT/results.md
: > "$results"
row() { printf '| %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5" | tee -a "$results"; }

# wall seconds and peak RSS (MiB) of one command, from /usr/bin/time -v
timed() { # name cmd...  (stdout to $OUT/name.out, stderr to $OUT/name.err)
	local name=$1; shift
	"$TIME" -v -o "$OUT/$name.time" "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
	echo $? > "$OUT/$name.rc"
}
wall() { awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; printf "%.1f", s }' "$OUT/$1.time"; }
cpu() { awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.1f", s }' "$OUT/$1.time"; }
maxrss() { awk -F': ' '/Maximum resident/ { printf "%d", $2 / 1024 }' "$OUT/$1.time"; }
vline() { grep -m1 ' parsed by workers' "$OUT/$1.err" || true; }
vfield() { vline "$1" | sed -n "s/.*$2.*/\\1/p"; }

audit() { # name extra-args...
	local name=$1; shift
	timed "$name" "$G" audit -v -q --tree "$tree" -j "$J" --cache "$cache" --format json "$@" "${targets[@]}"
}

echo "# gfpaudit bench: $(basename "$KDIR") ${SCOPE:-whole tree}, $nfiles .c files, -j $J, $(nproc) CPUs" | tee "$results"
echo | tee -a "$results"
echo "| phase | wall s | CPU s | files | notes |" | tee -a "$results"
echo "| --- | --- | --- | --- | --- |" | tee -a "$results"

timed candidates "$G" audit --tree "$tree" --candidates "${targets[@]}"
ncand=$(wc -l < "$OUT/candidates.out")
row candidates "$(wall candidates)" "$(cpu candidates)" "$ncand of $nfiles" "lexical prefilter alone (read, learn wrappers, tokenize); peak RSS $(maxrss candidates) MiB"

summary() { # name
	local v; v=$(vline "$1")
	local parsed cpu wrss fails
	parsed=$(echo "$v" | sed -n 's/.* \([0-9]*\) parsed by workers.*/\1/p')
	cpu=$(echo "$v" | sed -n 's/.*worker CPU \([0-9.]*\) s.*/\1/p')
	wrss=$(echo "$v" | sed -n 's/.*peak worker RSS \([0-9]*\) MiB.*/\1/p')
	tri=$(echo "$v" | sed -n 's/.*triage \([0-9.]*\) s.*/\1/p')
	fails=$(echo "$v" | sed -n 's/.*(\([0-9]*\) crashed, \([0-9]*\) timed out).*/\1 crashed, \2 timed out/p')
	nf=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["findings"]), d["files"]["cached"], d["files"]["prefiltered"], d["files"]["failed"])' "$OUT/$1.out" 2>/dev/null)
	set -- $nf
	row "$name" "$(wall "$name")" "$(cpu "$name")" "$parsed parsed, ${2:-?} cached, ${3:-?} prefiltered, ${4:-?} failed" \
		"${1:-?} findings; worker CPU ${cpu:-?} s; triage ${tri:-?} s; peak worker RSS ${wrss:-?} MiB; parent RSS $(maxrss "$name") MiB; $fails"
}

name=cold; GFPAUDIT_PROFILE=1 audit cold; summary cold
# where the cold time goes: worker-side parse and analysis, parent-side triage
# per-file lines only ("profile: FILE parse S ..."; the interpreter's "summary" lines are not)
grep '^profile: ' "$OUT/cold.err" | awk '$3 == "parse"' > "$OUT/cold.profile"
grep -v '^profile: ' "$OUT/cold.err" > "$OUT/cold.err.tmp" && mv "$OUT/cold.err.tmp" "$OUT/cold.err"
awk '{ p += $4; a += $6 + $8 + $10 + $12; n++ }
     END { printf "cold time split: %d parses (first pass and facts passes); parse %.1f CPU s, analysis %.1f CPU s (sites, checks, release)\n", n, p, a }' \
	"$OUT/cold.profile" | tee -a "$results"
{ echo "slowest parses:"; sort -k4 -rn "$OUT/cold.profile" | head -5 | awk '{ printf "  %s %.2f s\n", $2, $4 }'
  echo "slowest analyses:"; awk '{ print $6 + $8 + $10 + $12, $2 }' "$OUT/cold.profile" | sort -rn | head -5 |
	awk '{ printf "  %s %.2f s\n", $2, $1 }'
  echo "largest per-file worker peaks (the worker's RSS on the file less the parent's pages the fork shared, MiB):"
  awk '$13 == "rss" { print $14 - ($15 == "base" ? $16 : 0), $2 }' "$OUT/cold.profile" |
	sort -rn | head -3 | awk '{ printf "  %s %d\n", $2, $1 / 1024 }'; } | tee -a "$results"

# the facts passes of the cold run (its -v line): the rest of its split
fl=$(grep -m1 '^gfpaudit: facts: ' "$OUT/cold.err" || true)
if [ -n "$fl" ]; then
	row "cold: facts passes" "$(echo "$fl" | sed -n 's/.*wall \([0-9.]*\) s.*/\1/p')" \
		"$(echo "$fl" | sed -n 's/.*worker CPU \([0-9.]*\) s.*/\1/p')" \
		"$(echo "$fl" | sed -n 's/.* \([0-9]*\) files re-judged (\([0-9]*\) parsed.*/\1 re-judged, \2 parsed/p')" \
		"$(echo "$fl" | sed -n 's/.*; \([0-9]* passes[^,]*\),.*/\1/p') (within the cold row's wall)"
fi
{ echo "cold phases (GFPAUDIT_PROFILE):"; grep '^phase: ' "$OUT/cold.err" | sed 's/^phase: /  /'; } | tee -a "$results"

name=warm; audit warm; summary warm

# touch: append a comment to evenly spaced candidates (replacing the hard link)
step=$(( ncand / TOUCH )); [ "$step" -ge 1 ] || step=1
awk -v s="$step" -v n="$TOUCH" 'NR % s == 0 && c < n { print; c++ }' "$OUT/candidates.out" > "$OUT/touched.list"
while read -r f; do
	cp "$f" "$f.bench" && printf '/* bench: touched */\n' >> "$f.bench" && mv "$f.bench" "$f"
done < "$OUT/touched.list"
name=touched; audit touched; summary touched
sed -i "\$s/|\$/ ($(wc -l < "$OUT/touched.list") files touched) |/" "$results"

if [ "$MISSED" = 1 ]; then
	shard=(); [ -n "$MISSED_SHARD" ] && shard=(--shard "$MISSED_SHARD")
	timed missed_full "$G" audit -q --tree "$tree" -j "$J" --no-cache --no-prefilter --sites --format json "${shard[@]}" "${targets[@]}"
	timed missed_pref "$G" audit -q --tree "$tree" -j "$J" --no-cache --sites --format json "${shard[@]}" "${targets[@]}"
	miss=$(python3 - "$OUT/missed_full.out" "$OUT/missed_pref.out" <<'PY'
import json, sys
full, pref = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda s: (s["file"], s["line"], s["column"], s["api"])
a, b = {key(s) for s in full.get("sites", [])}, {key(s) for s in pref.get("sites", [])}
missed = sorted(a - b)
fa = {(f["file"], f["line"], f["rule"]) for f in full["findings"]}
fb = {(f["file"], f["line"], f["rule"]) for f in pref["findings"]}
print(len(a), len(missed), len(fa - fb), "; ".join("%s:%d %s" % (m[0], m[1], m[3]) for m in missed[:10]))
PY
)
	set -- $miss
	row "missed sites${MISSED_SHARD:+ (shard $MISSED_SHARD)}" "$(wall missed_full)" "$(cpu missed_full)" "$1 sites with --no-prefilter" "$2 sites and $3 findings in files the prefilter skipped ${*:4}"
fi

if ! skip spatch && command -v spatch >/dev/null; then
	rules=${SPATCH_RULES:-$(ls "$top"/rules/*.cocci 2>/dev/null)}
	[ -n "$rules" ] || rules=$here/alloc-call.cocci
	# SPATCH_EVERY=N: every Nth .c file of the targets, hard-linked into a
	# directory of its own (same relative paths), times scaled by N
	sp_targets=("${targets[@]}")
	if [ "$SPATCH_EVERY" != 1 ]; then
		sp=$OUT/spatch-sample
		rm -rf "$sp"
		find "${targets[@]}" -name '*.c' -type f | sort | awk -v e="$SPATCH_EVERY" '(NR - 1) % e == 0' |
			while read -r f; do rel=${f#"$tree"/}; mkdir -p "$sp/$(dirname "$rel")"; ln "$f" "$sp/$rel"; done
		sp_targets=("$sp")
	fi
	nsp=$(find "${sp_targets[@]}" -name '*.c' -type f | wc -l)
	timed spatch bash -c 'J=$1; shift; rules=$1; shift
		for r in $rules; do for t in "$@"; do
			mode=context; grep -q "^virtual report" "$r" && mode=report
			spatch --very-quiet -D "$mode" --sp-file "$r" --dir "$t" -j "$J"
		done; done' spatch "$J" "$rules" "${sp_targets[@]}"
	names="$(echo "$rules" | wc -w) rule(s): $(echo "$rules" | xargs -n1 basename | tr '\n' ' ')"
	if [ "$SPATCH_EVERY" = 1 ]; then
		row spatch "$(wall spatch)" "$(cpu spatch)" "$nsp" "$names"
	else
		row "spatch (1 in ${SPATCH_EVERY} .c files, times x${SPATCH_EVERY})" \
			"$(awk -v w="$(wall spatch)" -v e="$SPATCH_EVERY" 'BEGIN { printf "%.0f", w * e }')" \
			"$(awk -v w="$(cpu spatch)" -v e="$SPATCH_EVERY" 'BEGIN { printf "%.0f", w * e }')" \
			"$nsp of $nfiles" "measured $(wall spatch) s wall; $names"
	fi
fi

if ! skip clang && command -v clang >/dev/null; then
	flags=(-fsyntax-only -w -ferror-limit=0 -nostdinc -isystem "$(clang -print-resource-dir)/include"
	       -I"$tree/arch/x86/include" -I"$tree/arch/x86/include/generated" -I"$tree/include"
	       -I"$tree/arch/x86/include/uapi" -I"$tree/arch/x86/include/generated/uapi"
	       -I"$tree/include/uapi" -I"$tree/include/generated/uapi"
	       -include "$tree/include/linux/compiler-version.h" -include "$tree/include/linux/kconfig.h"
	       -include "$tree/include/linux/compiler_types.h" -D__KERNEL__ -DCC_USING_FENTRY -std=gnu11
	       -m64 -mcmodel=kernel -fno-strict-aliasing -fshort-wchar -funsigned-char -mno-sse -mno-mmx
	       -mno-sse2 -mno-red-zone -fno-PIE -DKBUILD_MODNAME='"bench"' -DKBUILD_BASENAME='"bench"')
	printf '%s\n' "${flags[@]}" > "$OUT/clang.flags"
	# one clang per file, J at a time; prints the files clang rejects
	awk -v e="$CLANG_EVERY" '(NR - 1) % e == 0' "$OUT/candidates.out" > "$OUT/clang.list"
	nclang=$(wc -l < "$OUT/clang.list")
	timed clang xargs -a "$OUT/clang.list" -P "$J" -n 1 bash -c \
		'mapfile -t f < "$0"; clang "${f[@]}" -I"$(dirname "$1")" "$1" >/dev/null 2>&1 || echo "$1"' \
		"$OUT/clang.flags"
	if [ "$CLANG_EVERY" = 1 ]; then
		row "clang -fsyntax-only" "$(wall clang)" "$(cpu clang)" "$ncand candidates" \
			"$(wc -l < "$OUT/clang.out") with errors (config-dependent code)"
	else
		row "clang -fsyntax-only (1 in ${CLANG_EVERY} candidates, times x${CLANG_EVERY})" \
			"$(awk -v w="$(wall clang)" -v e="$CLANG_EVERY" 'BEGIN { printf "%.0f", w * e }')" \
			"$(awk -v w="$(cpu clang)" -v e="$CLANG_EVERY" 'BEGIN { printf "%.0f", w * e }')" \
			"$nclang of $ncand candidates" \
			"measured $(wall clang) s wall; $(wc -l < "$OUT/clang.out") of $nclang with errors (config-dependent code)"
	fi
fi
# check: a one-file mm patch in a pre-commit hook, against clang on that file (bench/hook.sh)
if ! skip check; then
	GFPAUDIT=$G KDIR=$KDIR bash "$here/hook.sh" "${CHECK_RUNS:-5}" > "$OUT/check.out" 2> "$OUT/check.err" || true
	echo "check (bench/hook.sh, medians of ${CHECK_RUNS:-5}; last column x clang -fsyntax-only of the file):" | tee -a "$results"
	sed -n '/^runs=/,$p' "$OUT/check.out" | sed 's/^/  /' | tee -a "$results"
fi
# review: a 10-patch series against a git repository of the tree (bench/review-612.sh)
if ! skip review; then
	GFPAUDIT=$G KDIR=$KDIR bash "$here/review-612.sh" > "$OUT/review.out" 2> "$OUT/review.err" || true
	echo "review (bench/review-612.sh):" | tee -a "$results"
	sed 's/^/  /' "$OUT/review.out" | tee -a "$results"
fi
echo | tee -a "$results"
echo "bench: results in $results, logs in $OUT" >&2
