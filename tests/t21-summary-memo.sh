#!/usr/bin/env bash
# The helpers' answers are remembered per arguments and context (eval.c,
# call_summary's memo): the same question asked again (a loop run to its
# fixed point, a repeated call) takes the first answer, its cost and its
# observations.  The memo must change nothing but the time:
# GFPAUDIT_NO_SUMMARY_MEMO=1 turns it off, and both runs must agree on
# every site, finding and fact, here and on real files (t15 has a tree).
# tests/data/summary-memo/: m_scaled(4096, 3) asked in a loop (order 3,
# nothing costly), then m_scaled(4096, 4) (order 4): an answer kept without
# its arguments would give the second the first's order.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$root/gfpaudit}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$root/tests/data/summary-memo" || exit 1
FILES="m_init.c m_alloc.c"

GFPAUDIT_PROFILE=1 "$G" audit --severity note --no-cache -j1 --format json --sites $FILES > "$T/memo.json" 2> "$T/memo.err"
GFPAUDIT_NO_SUMMARY_MEMO=1 GFPAUDIT_PROFILE=1 "$G" audit --severity note --no-cache -j1 --format json --sites $FILES \
	> "$T/plain.json" 2> "$T/plain.err"
expect_grep "the memo answers repeated questions" 'profile: summary memo [1-9][0-9]* hits' "$(cat "$T/memo.err")"
expect_nogrep "GFPAUDIT_NO_SUMMARY_MEMO: no memo" 'profile: summary memo' "$(cat "$T/plain.err")"
expect_grep "order 4 from the second question (its own arguments)" 'costly-no-fallback line 21$' "$(python3 -c 'import json,sys; [print(f["rule"], "line", f["line"]) for f in json.load(open(sys.argv[1]))["findings"]]' "$T/memo.json")"
expect_nogrep "the loop's order-3 question: nothing costly" 'line 17$' "$(python3 -c 'import json,sys; [print(f["rule"], "line", f["line"]) for f in json.load(open(sys.argv[1]))["findings"]]' "$T/memo.json")"
core() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps({k: d.get(k) for k in ("findings","sites","problems")}, sort_keys=True))' "$1"; }
if [ "$(core "$T/memo.json")" = "$(core "$T/plain.json")" ]; then ok "memo on and off: the same sites and findings"
else fail "memo on and off: the same sites and findings" "$(diff <(core "$T/plain.json") <(core "$T/memo.json") | head -20)"; fi

# the fact base: what each file publishes, with and without the memo
C1="$T/c1.sqlite"; C2="$T/c2.sqlite"
"$G" facts --cache "$C1" "$PWD" > /dev/null 2>&1
GFPAUDIT_NO_SUMMARY_MEMO=1 "$G" facts --cache "$C2" "$PWD" > /dev/null 2>&1
k1=$("$G" facts --cache "$C1" --key field:m_cfg.depth 2>&1)
k2=$("$G" facts --cache "$C2" --key field:m_cfg.depth 2>&1)
if [ "$k1" = "$k2" ]; then ok "memo on and off: the same joined facts (field:m_cfg.depth)"
else fail "memo on and off: the same joined facts" "$(diff <(echo "$k2") <(echo "$k1"))"; fi
finish
