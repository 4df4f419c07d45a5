#!/usr/bin/env bash
# The pipeline flows one way: no include cycle between the folders of
# analyzer/ (tests/include_cycles.py; it names the includes of a cycle).
# The script must also see a cycle when there is one: it runs on a copy of
# the sources with one back edge added.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$(python3 "$here/include_cycles.py" "$root" 2>&1); rc=$?
expect_rc "no include cycle between analyzer/ folders" 0 "$rc" "$out"

mkdir -p "$tmp/src"
cp -r "$root/analyzer" "$root/include" "$tmp/src/"
# a back edge: the front end reaching up into the fix stage
printf '#include "gfpaudit/fix.h"\n' >> "$tmp/src/analyzer/frontend/tu.c"
out=$(python3 "$here/include_cycles.py" "$tmp/src" 2>&1); rc=$?
expect_rc "a back edge (frontend -> fix) is a cycle" 1 "$rc" "$out"
expect_grep "  and the report names the include" 'frontend -> fix: analyzer/frontend/tu.c: "gfpaudit/fix.h"' "$out"
finish
