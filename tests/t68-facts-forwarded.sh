#!/usr/bin/env bash
# Fallbacks in the callers of an exported function that hands a static
# function's failure back (callers.h callers_cope), on
# tests/data/facts-fwd/: zero.c's static zero_alloc_big() allocates
# order 9 and returns false, the exported zero_get() returns NULL on that,
# and zero_get()'s callers in user.c fall back (one page; small pages after
# a goto to a `return ZF_FALLBACK;`).  zero.c's own zero_ref() discards
# zero_get()'s result: no observation.  Judged alone zero.c has four
# costly-no-fallback findings (no caller of the exported functions is
# seen); with user.c two have a fallback in the callers, through one or two
# levels (a static function between), and become costly-no-noretry; the
# one whose caller returns -ENOMEM and the one nobody calls stay.
# The mm/huge_memory.c shape (get_huge_zero_page() through
# mm_get_huge_zero_folio() to huge_memory.c and fs/dax.c; t15 has the real file).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$root/gfpaudit}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -r "$root/tests/data/facts-fwd" "$T/fw"
cd "$T/fw" || exit 1

. "$here/lib/fallback-site.sh"

"$G" audit --no-cache --format json --sites -q zero.c > "$T/alone.json" 2> "$T/alone.err"
expect_rc "zero.c alone: exit 1 (warnings)" 1 $? "$(cat "$T/alone.err")"
for fn in zero_alloc_big zero_alloc_deep zero_alloc_ring zero_alloc_spare; do
	expect_grep "alone: $fn has no fallback (the exported function's callers are not seen; zero_ref discards)" \
		'^none - costly-no-fallback:warning$' "$(site "$T/alone.json" $fn)"
done

"$G" audit --no-cache --format json --sites -q zero.c user.c > "$T/both.json" 2> "$T/both.err"
expect_rc "with the callers: exit 1 (warnings)" 1 $? "$(cat "$T/both.err")"
expect_grep "through zero_get: one caller takes one page, one returns ZF_FALLBACK after a goto (the best: smaller)" \
	'^caller-smaller user\.c:31 costly-no-noretry:warning$' "$(site "$T/both.json" zero_alloc_big)"
expect_grep "through the static zero_deep_fill and the exported zero_deep_get: the caller goes on" \
	'^caller-feature-off user\.c:37 costly-no-noretry:note$' "$(site "$T/both.json" zero_alloc_deep)"
expect_grep "through zero_ring_get to a caller that returns -ENOMEM: still no fallback" \
	'^none - costly-no-fallback:warning$' "$(site "$T/both.json" zero_alloc_ring)"
expect_grep "an exported function nobody calls: still no fallback" \
	'^none - costly-no-fallback:warning$' "$(site "$T/both.json" zero_alloc_spare)"
ev=$(python3 -c "import json;d=json.load(open('$T/both.json'));print([e['note'] for f in d['findings'] if f['function']=='zero_alloc_big' for e in f.get('evidence',[])])")
expect_grep "the evidence names the exported function" \
	"caller: zero_alloc_big returns the failure \(handed on by 'zero_get'\), and every caller retries smaller \(retry-smaller, 2 calls" "$ev"

# the cache: warm runs answer the same; a caller that stops coping
# re-judges zero.c (it consulted fails:zero_get)
C="$T/cache.sqlite"
"$G" audit --cache "$C" --format json --sites -q zero.c user.c > "$T/cold.json" 2>/dev/null
"$G" audit --cache "$C" --format json --sites -q -v zero.c user.c > "$T/warm.json" 2> "$T/warm.err"
expect_grep "warm: both files from the cache" "2 files: 2 from the cache" "$(cat "$T/warm.err")"
expect_grep "warm: the fallback through zero_get still seen" '^caller-smaller user\.c:31 ' "$(site "$T/warm.json" zero_alloc_big)"
sed -i 's/p = alloc_page(GFP_KERNEL);/return NULL;/' user.c
"$G" audit --cache "$C" --format json --sites -q zero.c user.c > "$T/t1.json" 2>/dev/null
expect_grep "user_map hands the failure on now: zero.c judged again, no fallback" \
	'^none - costly-no-fallback:warning$' "$(site "$T/t1.json" zero_alloc_big)"

# the tree's facts for a partial audit
P="$T/part.sqlite"
cp "$root/tests/data/facts-fwd/user.c" user.c
"$G" facts --cache "$P" "$T/fw" > /dev/null 2>&1
expect_rc "facts: built" 0 $?
"$G" audit --cache "$P" --format json --sites -q zero.c > "$T/part.json" 2>/dev/null
expect_grep "zero.c alone with the tree's facts: the callers in user.c are seen" \
	'^caller-smaller (.*/)?user\.c:31 ' "$(site "$T/part.json" zero_alloc_big)"
out=$("$G" facts --cache "$P" --key fails:zero_get 2>&1)
expect_grep "facts --key fails:zero_get: the two callers in user.c, not zero_ref's discarded call" '2 observations' "$out"
finish
