#!/usr/bin/env bash
# The pipeline flows one way: no include cycle between the folders of
# analyzer/ (tests/include_cycles.py; it names the includes of a cycle), and
# no call cycle between them in the built objects (tests/call_cycles.py,
# OBJDIR, default build/obj: engine/ calls fix/, fix/ gets the re-analysis
# as a callback).  Each script must also see a cycle when there is one: it
# runs on a copy with one back edge added.  And no function over 120 lines
# but the ones tests/function_length.py lists (issue 17).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$(python3 "$here/function_length.py" "$root" 2>&1); rc=$?
expect_rc "no function over 120 lines but the listed ones (tests/function_length.py)" 0 "$rc" "$out"

out=$(python3 "$here/include_cycles.py" "$root" 2>&1); rc=$?
expect_rc "no include cycle between analyzer/ folders" 0 "$rc" "$out"

mkdir -p "$tmp/src"
cp -r "$root/analyzer" "$root/include" "$tmp/src/"
# a back edge: the front end reaching up into the fix stage
printf '#include "gfpaudit/fix.h"\n' >> "$tmp/src/analyzer/frontend/tu.c"
out=$(python3 "$here/include_cycles.py" "$tmp/src" 2>&1); rc=$?
expect_rc "a back edge (frontend -> fix) is a cycle" 1 "$rc" "$out"
expect_grep "  and the report names the include" 'frontend -> fix: analyzer/frontend/tu.c: "gfpaudit/fix.h"' "$out"

objdir=${OBJDIR:-$root/build/obj}
out=$(python3 "$here/call_cycles.py" "$objdir" 2>&1); rc=$?
expect_rc "no call cycle between analyzer/ folders (objects in ${objdir#$root/})" 0 "$rc" "$out"
mkdir -p "$tmp/obj"
cp -r "$objdir/analyzer" "$tmp/obj/"
# a back edge: the fix stage calling the engine again
printf 'int engine_analyze_file();
int back_edge(void) { return engine_analyze_file(); }
' > "$tmp/back.c"
cc -c -o "$tmp/obj/analyzer/fix/back.o" "$tmp/back.c"
out=$(python3 "$here/call_cycles.py" "$tmp/obj" 2>&1); rc=$?
expect_rc "a back edge (fix -> engine) is a call cycle" 1 "$rc" "$out"
expect_grep "  and the report names the symbol" 'fix -> engine: engine_analyze_file' "$out"
# The version is compiled into one object (analyzer/util/version.c): when
# every object carried it, an incremental build mixed two versions and the
# cache trusted none of its own rows.  The built binary's version string is
# in analyzer/util/version.o and in no other object.
if [ -n "${GFPAUDIT:-}" ] && [ -x "$GFPAUDIT" ]; then
	ver=$("$GFPAUDIT" --version | sed -n 's/^gfpaudit //p')
	holders=$(cd "$objdir" && grep -rlaF --include='*.o' -- "$ver" analyzer | sort | tr '\n' ' ')
	if [ "$holders" = "analyzer/util/version.o " ]; then ok "the version string ($ver) is in one object only"
	else fail "the version string ($ver) is in one object only" "objects holding it: $holders"; fi
fi
finish
