#!/usr/bin/env bash
# What a summarized helper stores through its pointer parameter reaches the
# caller (tests/data/helper-stores/: the helper is a static function in a
# header, as fq_init() in include/net/fq_impl.h): flow_tab_init(t, 8192)
# then kcalloc(t->cnt, 8) is order 4 on every path, proven; with 64 entries
# nothing is costly; a helper that stores only on some paths, or that
# moves its parameter to another object first, proves nothing.  No fact base (--no-facts): the value is this call path's.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$root/gfpaudit}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$root/tests/data/helper-stores" || exit 1

"$G" audit --no-cache --no-facts --format json --sites -q flow.c > "$T/out.json" 2> "$T/err"
expect_rc "exit 1 (a warning)" 1 $? "$(cat "$T/err")"

# site FUNCTION -> "order confidence kind what rules" or "none"
site() {
	python3 - "$T/out.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d["sites"] if x["function"] == sys.argv[2]]
if not s:
    print("none")
    sys.exit()
s = s[0]
o = s["order"]
rules = sorted("%s:%s" % (f["rule"], f["severity"]) for f in d["findings"] if f["function"] == sys.argv[2])
src = (s.get("size_source") or [{}])[0]
print("%s..%s %s %s [%s] %s" % (o["lo"], o["hi"], s.get("confidence", "none"), src.get("kind"),
                                src.get("what", ""), " ".join(rules) or "-"))
PY
}
got=$(site flow_dev_big)
expect_grep "the header helper's store of 8192: order 4, proven, a warning" \
	'^4\.\.4 proven const \[t->cnt as flow_tab_init\(\) leaves it\] costly-no-fallback:warning$' "$got"
got=$(site flow_dev_small)
expect_grep "the same helper with 64 entries: nothing costly (no site)" '^none$' "$got"
got=$(site flow_dev_maybe)
expect_grep "a store on some paths only: the size stays unknown" '^None\.\.None none unknown .* -$' "$got"
got=$(site flow_chain_alloc)
expect_grep "a helper that moves its parameter (c = c->next): its stores are not the argument's" '^None\.\.None none unknown .* -$' "$got"
finish
