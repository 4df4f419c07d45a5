#!/usr/bin/env bash
# Integer constants spelled with literals and operators alone (register
# masks from GENMASK()/FIELD_PREP()-style macros, BUILD_BUG_ON_ZERO's
# sizeof(struct {...})) are kept as one leaf in the function model
# (analyzer/model/fn.c, int_literal_tree): rt2800lib.c's models held 1.5 M
# nodes of them.  The leaves must change the size of the model, not the
# answers: corpus/size-literal-macros.c checks the values (a cast that
# truncates, a check that adds 0, a guard against a mask).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$root/gfpaudit}
cd "$root" || exit 1

dbg=$(GFPAUDIT_DEBUG=1 "$G" audit --no-cache -j1 tests/data/literal-leaves/regs.c 2>&1)
line=$(echo "$dbg" | grep 'debug: function ll_setup')
expect_grep "the debug line counts the nodes kept" 'll_setup \([0-9]+ nodes, [0-9]+ kept\)' "$line"
nodes=$(echo "$line" | sed -n 's/.*(\([0-9]*\) nodes, \([0-9]*\) kept).*/\1/p')
kept=$(echo "$line" | sed -n 's/.*(\([0-9]*\) nodes, \([0-9]*\) kept).*/\2/p')
if [ -n "$nodes" ] && [ -n "$kept" ] && [ "$((kept * 10))" -lt "$nodes" ]; then
	ok "four mask writes: $kept of $nodes nodes kept (under a tenth)"
else
	fail "four mask writes: under a tenth of the nodes kept" "$line"
fi

out=$("$G" audit --no-cache -j1 --format json --sites corpus/size-literal-macros.c 2>/dev/null)
sites=$(echo "$out" | python3 -c 'import json,sys; [print(s["line"], s["order"]["lo"], s["order"]["hi"], (s.get("size") or {}).get("hi")) for s in json.load(sys.stdin)["sites"]]')
expect_grep "ring: 16384 u32 entries and a zero check: 64 KiB, order 4" '^31 4 4 65536$' "$sites"
expect_grep "(u16) truncates 0x18000 to 0x8000: order 3" '^37 3 3 32768$' "$sites"
expect_grep "order from a mask of literals: 5" '^46 5 5 ' "$sites"
expect_nogrep "a guard against a mask bounds len to 4096: not costly, no site" '^41 ' "$sites"
finish
