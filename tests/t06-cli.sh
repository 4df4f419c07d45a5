#!/usr/bin/env bash
# compile_commands.json flags, user allocator tables, the JSON contract.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$here/../gfpaudit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/a.c" <<'C'
struct page;
struct page *alloc_pages_noprof(unsigned int gfp, unsigned int order);
struct page *grab(unsigned int gfp)
{
	return alloc_pages_noprof(gfp, BUF_ORDER);
}
C
cat > "$tmp/compile_commands.json" <<J
[ { "directory": "$tmp", "file": "a.c",
    "arguments": ["gcc", "-DBUF_ORDER=6", "-fconserve-stack", "-mrecord-mcount", "-c", "-o", "a.o", "a.c"] } ]
J
out=$("$G" audit -q --sites -p "$tmp/compile_commands.json" "$tmp/a.c" 2>&1)
expect_grep "compdb -D reaches the parse" "site: 'alloc_pages_noprof' in 'grab' order 6\.\.6" "$out"
expect_grep "compdb: gcc-only flags dropped, finding reported" "costly-no-fallback" "$out"
cp "$tmp/a.c" "$tmp/b.c"
out=$("$G" audit -q -p "$tmp/compile_commands.json" "$tmp/b.c" 2>&1); rc=$?
expect_grep "file missing from compdb: clear reason" "b.c: failed: no entry for" "$out"
expect_rc "file missing from compdb: tool failure" 3 "$rc"
echo '{not json' > "$tmp/bad.json"
out=$("$G" audit -p "$tmp/bad.json" "$tmp/a.c" 2>&1); rc=$?
expect_rc "bad compdb: usage" 2 "$rc" "$out"

cat > "$tmp/w.c" <<'C'
struct page;
struct page *drv_get_pages(unsigned int gfp, unsigned int ord, int node);
#define DRV_GFP 0x400u
int use(void)
{
	struct page *p = drv_get_pages(DRV_GFP, 5, 0);
	if (!p)
		return -12;
	return 0;
}
C
out=$("$G" audit -q "$tmp/w.c" 2>&1)
expect_nogrep "unknown allocator: no finding without a table entry" "costly" "$out"
printf '# my driver allocator\ndrv_get_pages  pages  order=ord\n' > "$tmp/alloc.tbl"
out=$("$G" audit -q --sites --allocators "$tmp/alloc.tbl" "$tmp/w.c" 2>&1)
expect_grep "--allocators adds a wrapper" "w.c:6:.*site: 'drv_get_pages'.*order 5\.\.5" "$out"
out=$(GFPAUDIT_ALLOCATORS="$tmp/alloc.tbl" "$G" audit -q "$tmp/w.c" 2>&1)
expect_grep "GFPAUDIT_ALLOCATORS works too" "costly-no-fallback" "$out"
printf 'drv_get_pages  nonsense\n' > "$tmp/bad.tbl"
out=$("$G" audit --allocators "$tmp/bad.tbl" "$tmp/w.c" 2>&1); rc=$?
expect_rc "bad allocator table: usage" 2 "$rc"
expect_grep "bad table line named" "bad.tbl:1:" "$out"

"$G" audit -q --format json --sites "$tmp/a.c" -p "$tmp/compile_commands.json" > "$tmp/o.json" 2>/dev/null
check=$(python3 - "$tmp/o.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["tool"] == "gfpaudit" and "version" in d
f = d["findings"][0]
for k in ("rule", "severity", "file", "line", "column", "function", "api", "order", "gfp",
          "fallback", "message", "evidence", "fingerprint", "fixes"):
    assert k in f, k
assert f["order"] == {"lo": 6, "hi": 6}, f["order"]
assert set(f["gfp"]) >= {"must", "may"}
assert f["fallback"] == "none"
assert f["evidence"] and f["evidence"][0]["line"] == 5
assert d["sites"] and d["sites"][0]["api"] == "alloc_pages_noprof"
assert {k: d["files"][k] for k in ("analyzed", "skipped", "failed")} == {"analyzed": 1, "skipped": 0, "failed": 0}, d["files"]
print("json-ok")
PY
)
expect_grep "JSON has the DESIGN fields" "json-ok" "$check"
# the cache follows the headers a file includes (the engine's dependency list)
mkdir "$tmp/inc"
printf '#define ORD 2\n' > "$tmp/inc/x.h"
printf '#include "x.h"\nstruct page *alloc_pages_noprof(unsigned int gfp, unsigned int order);\nstruct page *g(void) { return alloc_pages_noprof(0x400u, ORD); }\n' > "$tmp/inc/a.c"
out=$("$G" audit -q --cache "$tmp/c.sqlite" --sites "$tmp/inc/a.c" 2>&1)
expect_grep "cold run sees the header's order" "order 2\.\.2" "$out"
printf '#define ORD 5\n' > "$tmp/inc/x.h"
out=$("$G" audit -q --cache "$tmp/c.sqlite" --sites "$tmp/inc/a.c" 2>&1)
expect_grep "a header edit invalidates the cached result" "order 5\.\.5" "$out"
finish
