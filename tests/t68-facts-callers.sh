#!/usr/bin/env bash
# Fallbacks in the callers, through the fact base (callers.h), on
# tests/data/facts-callers/: pool.c allocates costly orders and hands every
# failure back; user.c retries one with a smaller chunk, falls back to
# vmalloc for another, goes on without a third (a feature off), returns the
# error of a fourth, both goes on and returns the error for a fifth, and
# puts a sixth into an ops table.  Judged alone pool.c has six
# costly-no-fallback findings; with user.c the first three have a fallback
# in the caller ("fallback"/"fallback_at"), and -- as opportunistic attempts
# that may direct-reclaim without __GFP_NORETRY -- become costly-no-noretry.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$root/gfpaudit}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -r "$root/tests/data/facts-callers" "$T/cf"
cd "$T/cf" || exit 1

. "$here/lib/fallback-site.sh"

"$G" audit --no-cache --format json --sites -q pool.c > "$T/alone.json" 2> "$T/alone.err"
expect_rc "pool.c alone: exit 1 (warnings)" 1 $? "$(cat "$T/alone.err")"
expect_grep "alone: pool_fill_chunks's chunk is its callers': a note" '^none - costly-no-fallback:note$' "$(site "$T/alone.json" pool_fill_chunks)"
for fn in pool_table_alloc pool_trace_enable pool_ring_setup pool_stage_alloc pool_hook_alloc; do
	expect_grep "alone: $fn has no fallback" '^none - costly-no-fallback:warning$' "$(site "$T/alone.json" $fn)"
done

"$G" audit --no-cache --format json --sites -q -v pool.c user.c > "$T/both.json" 2> "$T/both.err"
expect_rc "with the callers: exit 1 (warnings)" 1 $? "$(cat "$T/both.err")"
expect_grep "retry smaller: the caller lowers the chunk and loops" \
	'^caller-smaller user\.c:18 costly-no-noretry:warning$' "$(site "$T/both.json" pool_fill_chunks)"
expect_grep "other path: the caller falls back to vmalloc (a note: issue14-precision-f.md)" \
	'^caller-other-path user\.c:31 costly-no-noretry:note$' "$(site "$T/both.json" pool_table_alloc)"
expect_grep "feature off, a buffer only the CPU uses: no fallback (vmalloc memory would do)" \
	'^none - costly-no-fallback:warning$' "$(site "$T/both.json" pool_trace_enable)"
expect_grep "a caller that returns the error: still no fallback" \
	'^none - costly-no-fallback:warning$' "$(site "$T/both.json" pool_ring_setup)"
expect_grep "one caller copes, another returns the error: still no fallback" \
	'^none - costly-no-fallback:warning$' "$(site "$T/both.json" pool_stage_alloc)"
expect_grep "address in an ops table: callers unseen, still no fallback" \
	'^none - costly-no-fallback:warning$' "$(site "$T/both.json" pool_hook_alloc)"
ev=$(python3 -c "import json;d=json.load(open('$T/both.json'));print([e['note'] for f in d['findings'] if f['function']=='pool_fill_chunks' for e in f.get('evidence',[])])")
expect_grep "the evidence names the caller's retry" 'caller: pool_fill_chunks returns the failure, and its caller retries smaller' "$ev"
out=$("$G" audit --no-cache -q pool.c user.c 2>&1)
expect_grep "text: the fallback is named" 'fallback caller-smaller' "$out"

# frees through the fact base (frees.h): pool_ctx_create returns a
# struct pool_ctx that pool.c frees with kfree(*pc) in pool_ctx_destroy
fixjson() {
	python3 -c "import json,sys
d=json.load(open(sys.argv[1]))
for f in d['findings']:
    if f['function'] == 'pool_ctx_create':
        print(f.get('fix_declined') or '', '|'.join(x['reason'] for x in f.get('fixes', [])))" "$1"
}
"$G" audit --no-cache --fixes --format json -q pool.c > "$T/fx1.json" 2>/dev/null
got=$(fixjson "$T/fx1.json")
expect_grep "returned struct: the kfree of the type in this file becomes kvfree" 	"'pc' is returned to the caller: the frees of 'struct pool_ctx' objects here are its frees \('\*pc'" "$got"
"$G" audit --no-cache --fixes --format json -q pool.c user.c > "$T/fx2.json" 2>/dev/null
got=$(fixjson "$T/fx2.json")
expect_grep "returned struct freed with kfree in user.c too: refused, naming it" 	"'struct pool_ctx' objects are freed with kfree in another file too \(user\.c:[0-9]+\)" "$got"
"$G" audit --no-cache --no-facts --fixes --format json -q pool.c user.c > "$T/fx3.json" 2>/dev/null
got=$(fixjson "$T/fx3.json")
expect_grep "--no-facts: offered, and says other files were not checked" 'other files not checked \(no fact base\)' "$got"

# the cache: warm runs answer the same
C="$T/cache.sqlite"
"$G" audit --cache "$C" --format json --sites -q pool.c user.c > "$T/cold.json" 2>/dev/null
"$G" audit --cache "$C" --format json --sites -q -v pool.c user.c > "$T/warm.json" 2> "$T/warm.err"
expect_grep "warm: both files from the cache" "2 files: 2 from the cache" "$(cat "$T/warm.err")"
expect_grep "warm: the caller's retry still seen" '^caller-smaller user\.c:18 ' "$(site "$T/warm.json" pool_fill_chunks)"
# the caller changes: it returns the error now; the callee is judged again
sed -i 's/unit = 1;/return err;/' user.c
"$G" audit --cache "$C" --format json --sites -q pool.c user.c > "$T/t1.json" 2>/dev/null
expect_grep "the caller stops retrying: pool.c judged again, no fallback" \
	'^none - costly-no-fallback:warning$' "$(site "$T/t1.json" pool_fill_chunks)"

# the tree's facts for a partial audit
P="$T/part.sqlite"
cp "$root/tests/data/facts-callers/user.c" user.c
"$G" facts --cache "$P" "$T/cf" > /dev/null 2>&1
expect_rc "facts: built" 0 $?
"$G" audit --cache "$P" --format json --sites -q pool.c > "$T/part.json" 2>/dev/null
expect_grep "pool.c alone with the tree's facts: the caller in user.c is seen" \
	'^caller-smaller (.*/)?user\.c:18 ' "$(site "$T/part.json" pool_fill_chunks)"
out=$("$G" facts --cache "$P" --key fails:pool_stage_alloc 2>&1)
expect_grep "facts --key fails:F: both callers" '2 observations' "$out"
finish
