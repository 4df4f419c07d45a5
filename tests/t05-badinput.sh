#!/usr/bin/env bash
# Bad input never crashes the audit: one clear line each, the run goes on,
# the summary counts it, the exit code says what happened.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$here/../gfpaudit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/good.c" <<'C'
struct page;
struct page *alloc_pages_noprof(unsigned int gfp, unsigned int order);
struct page *grab(unsigned int gfp)
{
	return alloc_pages_noprof(gfp, 5);
}
C
printf 'this is { not C (((\n@@@ garbage\n' > "$tmp/garbage.c"
printf 'int x;\0\1\2\3binary' > "$tmp/binary.c"
mkdir "$tmp/empty"
echo "no c here" > "$tmp/empty/README"

out=$("$G" audit -q "$tmp/good.c" "$tmp/missing.c" "$tmp/garbage.c" "$tmp/binary.c" "$tmp/empty" 2>"$tmp/err"); rc=$?
err=$(cat "$tmp/err")
expect_rc "mixed bad inputs: findings still give exit 1" 1 "$rc" "$err"
expect_grep "good file still reported" "good.c:5:.*costly-no-fallback" "$out"
expect_grep "missing file: one line" "missing.c: No such file" "$err"
expect_grep "garbage: does not parse" "garbage.c: failed: does not parse" "$err"
expect_grep "binary: skipped" "binary.c: skipped: binary file" "$err"
expect_grep "dir without C files" "empty: no C files" "$err"

"$G" audit -q --format json "$tmp/good.c" "$tmp/garbage.c" "$tmp/binary.c" > "$tmp/out.json" 2>/dev/null
counts=$(python3 -c "import json,sys; d=json.load(open('$tmp/out.json')); print(d['files']['analyzed'], d['files']['skipped'], d['files']['failed'])")
expect_grep "summary counts analyzed/skipped/failed" "^1 1 1$" "$counts"

"$G" audit -q "$tmp/missing.c" 2>/dev/null; rc=$?
expect_rc "only bad input: exit 3" 3 "$rc"

mkdir -p "$tmp/tree/include/linux"
touch "$tmp/tree/include/linux/gfp.h"
err=$("$G" audit --tree "$tmp/tree" "$tmp/good.c" 2>&1); rc=$?
expect_rc "unprepared tree: exit 2" 2 "$rc" "$err"
expect_grep "unprepared tree says how to prepare" "olddefconfig prepare" "$err"

err=$("$G" audit --tree "$tmp/nowhere" "$tmp/good.c" 2>&1); rc=$?
expect_rc "not a kernel tree: exit 2" 2 "$rc" "$err"

err=$(GFPAUDIT_TEST_CRASH=good.c "$G" audit -q "$tmp/good.c" "$tmp/garbage.c" 2>&1); rc=$?
expect_grep "a crashing worker costs one file" "good.c: failed: analyzer crashed" "$err"
expect_rc "crash: tool failure exit" 3 "$rc" "$err"

err=$(GFPAUDIT_TEST_HANG=good.c "$G" audit -q --timeout 2 "$tmp/good.c" 2>&1); rc=$?
expect_grep "a hanging worker is killed after the timeout" "good.c: failed: timed out" "$err"

"$G" audit --enable no-such-rule "$tmp/good.c" 2>"$tmp/err"; rc=$?
expect_rc "unknown rule: usage error" 2 "$rc"
expect_grep "unknown rule named" "unknown rule 'no-such-rule'" "$(cat "$tmp/err")"

out=$("$G" audit -q --disable costly-no-fallback "$tmp/good.c" 2>/dev/null); rc=$?
expect_rc "disabled rule: clean" 0 "$rc" "$out"

"$G" bogus 2>/dev/null; expect_rc "unknown command: usage" 2 "$?"
"$G" audit 2>/dev/null; expect_rc "no path: usage" 2 "$?"
"$G" audit --help | grep -q "costly-no-noretry"; expect_rc "--help lists the rules" 0 "$?"
finish
