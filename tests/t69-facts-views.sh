#!/usr/bin/env bash
# What a judgement takes from the fact base decides whether it is judged
# again (facts.h: the readers' views), on tests/data/facts-views/: cfg.c
# stores 16 into ring.depth, ring.c allocates depth * 4 KiB (order 4) and
# returns the failure, user.c calls ring.c and returns the error.  An edit
# that changes an answer only where its reader does not look (the line of a
# caller that propagates, an unbounded parameter) judges the reader again no
# more; one that changes what the reader takes (the constant, the store's
# place its note names, a caller that now copes) judges exactly the reader.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$root/gfpaudit}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -r "$root/tests/data/facts-views" "$T/v"
cd "$T/v" || exit 1
FILES="cfg.c ring.c user.c"
C="$T/cache.sqlite"
# judged ERRFILE: the files a worker judged in the facts passes (-vv), sorted
judged() { sed -n 's/^gfpaudit: facts pass [0-9]*: judged //p' "$1" | sort -u | tr '\n' ' '; }
# findings JSON: rule, file, line, message of each finding
findings() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(sorted((f["rule"],f["file"],f["line"],f["message"]) for f in d["findings"])))' "$1"
}
run() { "$G" audit --severity note --cache "$C" -vv --format json $FILES > "$T/$1.json" 2> "$T/$1.err"; }

run cold
expect_grep "cold: the field's constant gives order 4" 'kmalloc_array.* can request order 4' "$(cat "$T/cold.json")"
expect_grep "cold: ring.c judged with the facts" 'facts pass 1: judged ring.c' "$(cat "$T/cold.err")"

# the caller's line moves: fails:ring_setup still answers "propagates",
# param:ring_setup#0 is still unbounded
sed -i 's|^int user_start|/* moved */\n/* down */\nint user_start|' user.c
run moved
expect_grep "caller moved: only user.c parsed again" '3 files: 2 from the cache' "$(cat "$T/moved.err")"
got=$(judged "$T/moved.err")
case " $got" in
*" ring.c "*) fail "caller moved: ring.c not judged again (its answers read the same)" "judged: $got" ;;
*) ok "caller moved: ring.c not judged again (its answers read the same)" ;;
esac
if [ "$(findings "$T/cold.json")" = "$(findings "$T/moved.json")" ]; then ok "caller moved: the same findings"
else fail "caller moved: the same findings" "$(diff <(findings "$T/cold.json") <(findings "$T/moved.json"))"; fi

# the store moves: the note names its place, so ring.c is judged again
sed -i 's|^void cfg_init|/* moved */\nvoid cfg_init|' cfg.c
run store-moved
got=$(judged "$T/store-moved.err")
case " $got" in
*" ring.c "*) ok "store moved: ring.c judged again (its note names the store)" ;;
*) fail "store moved: ring.c judged again (its note names the store)" "judged: $got" ;;
esac
case " $got" in
*" user.c "*) fail "store moved: user.c not judged (it reads no such key)" "judged: $got" ;;
*) ok "store moved: user.c not judged (it reads no such key)" ;;
esac
expect_grep "store moved: the note names the new line" 'field:ring.depth \(1 store across the tree, e.g. cfg.c:7\)' "$(cat "$T/store-moved.json")"

# the constant changes: 2 slots, order 1, no finding
sed -i 's/r->depth = 16;/r->depth = 2;/' cfg.c
run small
got=$(judged "$T/small.err")
case " $got" in
*" ring.c "*) ok "constant 2: ring.c judged again" ;;
*) fail "constant 2: ring.c judged again" "judged: $got" ;;
esac
expect_nogrep "constant 2: no costly order" 'can request order 4' "$(cat "$T/small.json")"
sed -i 's/r->depth = 2;/r->depth = 16;/' cfg.c

# the caller now goes on without the ring: every caller copes
sed -i 's|^\t\treturn err;|\t\tr->slots = NULL;|' user.c
run copes
got=$(judged "$T/copes.err")
case " $got" in
*" ring.c "*) ok "caller copes: ring.c judged again" ;;
*) fail "caller copes: ring.c judged again" "judged: $got" "$(cat user.c)" ;;
esac
expect_grep "caller copes: ring.c's site has the caller's fallback" 'caller: ring_setup returns the failure' "$(cat "$T/copes.json")"
sed -i 's|^\t\tr->slots = NULL;|\t\treturn err;|' user.c

# a re-judgement that fails keeps the first pass's answer, and says so:
# the first pass from the cache, the facts pass's worker crashes
run again
sqlite3 "$C" 'delete from judged' 2> /dev/null || python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("delete from judged"); c.commit()' "$C"
GFPAUDIT_TEST_CRASH_JUDGED=ring.c "$G" audit --severity note --cache "$C" -v --format json $FILES > "$T/crash.json" 2> "$T/crash.err"
expect_grep "failed re-judgement: the summary says so" 'facts: 1 re-judgement failed: that file keeps the answer judged with older facts' "$(cat "$T/crash.err")"
expect_grep "failed re-judgement: -v names the file" 'facts: re-judgement failed: ring.c: ' "$(cat "$T/crash.err")"
expect_grep "failed re-judgement: counted in the JSON" '"facts_failed": 1' "$(cat "$T/crash.json")"
expect_nogrep "failed re-judgement: the first pass's answer (no field value) stays" 'can request order 4' "$(cat "$T/crash.json")"
expect_nogrep "a run without failures: no facts_failed" 'facts_failed' "$(cat "$T/again.json")"
finish
