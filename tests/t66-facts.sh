#!/usr/bin/env bash
# The tree-wide fact base across files (tests/data/facts/): setup.c stores a
# constant into a field, has a static table of sizes, and passes a count it
# read with get_user() to a function of alloc.c; alloc.c allocates from
# them.  Judged alone (--no-facts) the sizes are unknown or only "possible";
# audited together the field is bounded (no site), the table makes a
# "likely" order 4 (constants, but other files' stores: a note), and the parameter is read from the caller's observation
# (a u16 times 256: beyond MAX_PAGE_ORDER, so still the callers' size; the
# kinds of data stored far away never make a finding likely:
# bench/accuracy/judged-issue14-*.tsv).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$root/gfpaudit}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$root/tests/data/facts" || exit 1

"$G" audit --no-cache --no-facts --format json --sites -q alloc.c setup.c core.c > "$T/alone.json" 2> "$T/alone.err"
expect_rc "alone: exit 0 (only notes)" 0 $? "$(cat "$T/alone.err")"
"$G" audit --no-cache --format json --sites -q -v alloc.c setup.c core.c > "$T/facts.json" 2> "$T/facts.err"
expect_rc "with facts: exit 1 (warnings)" 1 $? "$(cat "$T/facts.err")"
expect_grep "with facts: -v says how many files were judged again" 'facts: [0-9]+ keys from 3 files; [1-9][0-9]* passes \(converged\), [1-9][0-9]* files re-judged' "$(cat "$T/facts.err")"

# site FILE.json FUNCTION API -> "order confidence src rules" or "none"
site() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d["sites"] if x["function"] == sys.argv[2] and x["api"] == sys.argv[3]]
if not s:
    print("none")
    sys.exit()
s = s[0]
o = s["order"]
rules = sorted("%s:%s" % (f["rule"], f["severity"]) for f in d["findings"]
               if f["function"] == sys.argv[2] and f["api"] == sys.argv[3])
src = (s.get("size_source") or [{}])[0]
print("%s..%s %s %s %s" % (o["lo"], o["hi"], s.get("confidence", "none"), src.get("kind"),
                          ",".join(rules) or "-"))
PY
}

got=$(site "$T/alone.json" ring_alloc_desc kcalloc)
expect_grep "alone: a u16 field nothing here stores is only possible" '^0\.\.9 possible unknown costly-no-fallback:note$' "$got"
got=$(site "$T/facts.json" ring_alloc_desc kcalloc)
expect_grep "facts: the field is 8 wherever it is stored: no page-allocator site" '^none$' "$got"

got=$(site "$T/alone.json" ring_alloc_blob kmalloc)
expect_grep "alone: a u32 field's size is unknown: listed, not judged" '^None\.\.None none unknown -$' "$got"
got=$(site "$T/facts.json" ring_alloc_blob kmalloc)
expect_grep "facts: the static table's sizes (4 KiB, 64 KiB) make order 0..4, likely (another file's constants: a note)" '^0\.\.4 likely const costly-no-fallback:note$' "$got"

got=$(site "$T/alone.json" ring_stats_resize kcalloc)
expect_grep "alone: a parameter's count is unknown" '^None\.\.None none unknown -$' "$got"
got=$(site "$T/facts.json" ring_stats_resize kcalloc)
expect_grep "facts: the caller's u16 count (x 256 is beyond MAX_PAGE_ORDER) leaves the size to the callers" '^None\.\.None none unknown -$' "$got"
expect_grep "facts: the site names the key it read and where it was stored" "param:ring_stats_resize#1 \(1 store across the tree, e\.g\. setup\.c:[0-9]+\)" \
	"$(python3 -c "import json;d=json.load(open('$T/facts.json'));print([s.get('size_source') for s in d['sites'] if s['function']=='ring_stats_resize'])")"

got=$(site "$T/alone.json" ctl_alloc_ns kzalloc)
expect_grep "alone: the private size is a parameter: unknown" '^None\.\.None none unknown -$' "$got"
got=$(site "$T/facts.json" ctl_alloc_ns kzalloc)
expect_grep "facts: one caller's 160 KiB through the inline wrapper is a costly path: proven" '^6\.\.6 proven const costly-no-fallback:warning$' "$got"
expect_grep "facts: the witness names the caller and says the others are unbounded" \
	"param:ctl_alloc_ns#1 = 163840 at setup\.c:[0-9]+, one of 2 observations, the others unbounded" \
	"$(python3 -c "import json;d=json.load(open('$T/facts.json'));print([s.get('size_source') for s in d['sites'] if s['function']=='ctl_alloc_ns'])")"
got=$(site "$T/facts.json" ctl_scratch kmalloc)
expect_grep "facts: 4096 beside an unknown length is no witness: unknown" '^None\.\.None none unknown -$' "$got"
got=$(site "$T/facts.json" ctl_table_alloc kzalloc)
expect_grep "facts: a guard sends the witnessed 1 MiB to vzalloc: kzalloc not costly by it" '^(none|None\.\.None none unknown -|0\.\.[0-4] none .*)$' "$got"
"$G" audit --no-cache --format json --sites -q core.c setup.c --no-facts > "$T/nf.json" 2>/dev/null
got=$(site "$T/nf.json" ctl_alloc_ns kzalloc)
expect_grep "--no-facts: no witness" '^None\.\.None none unknown -$' "$got"

# facts never come from a file that is not audited: alloc.c alone is as --no-facts
"$G" audit --no-cache --format json --sites -q alloc.c > "$T/one.json" 2>/dev/null
got=$(site "$T/one.json" ring_alloc_blob kmalloc)
expect_grep "alloc.c alone: the table is not seen, the size stays unknown" '^None\.\.None none unknown -$' "$got"

# a mask field stored differently across files (tests/data/facts-gfp/),
# one store with __GFP_RETRY_MAYFAIL, read through a header getter and
# OR'ed with __GFP_NORETRY: no gfp-contradiction.  (The real-tree form of
# this, mm/readahead.c's mapping_gfp_mask() over 20 stores of
# address_space.gfp_mask, made false errors on 13df9dc's parent and again
# through a "witness" constant (fixed in session 12); this miniature does
# not reproduce that path: t15-realtree does, on the real files.)
cd "$root/tests/data/facts-gfp" || exit 1
"$G" audit --no-cache --format json --sites -q users.c fill.c > "$T/gfp.json" 2> "$T/gfp.err"
got=$(python3 -c "import json;d=json.load(open('$T/gfp.json'));print(sorted(f['rule'] for f in d['findings'] if f['function']=='pool_fill'), [s['function'] for s in d['sites']])")
expect_grep "facts: the reader's mask is analyzed (a site in pool_fill)" "'pool_fill'" "$got"
expect_nogrep "facts: stored masks joined across files make no gfp-contradiction" "gfp-contradiction" "$got"
finish
