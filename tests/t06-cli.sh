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
expect_grep "compdb -D reaches the parse" "site: 'alloc_pages_noprof' in 'grab': order 6," "$out"
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
expect_grep "--allocators adds a wrapper" "w.c:6:.*site: 'drv_get_pages'.*order 5," "$out"
out=$(GFPAUDIT_ALLOCATORS="$tmp/alloc.tbl" "$G" audit -q "$tmp/w.c" 2>&1)
expect_grep "GFPAUDIT_ALLOCATORS works too" "costly-no-fallback" "$out"
printf 'drv_get_pages  nonsense\n' > "$tmp/bad.tbl"
out=$("$G" audit --allocators "$tmp/bad.tbl" "$tmp/w.c" 2>&1); rc=$?
expect_rc "bad allocator table: usage" 2 "$rc"
expect_grep "bad table line named" "bad.tbl:1:" "$out"
# pad=, align=, extra=: the bytes the API asks the slab for decide the order
cat > "$tmp/buf.c" <<'C'
void *drv_buf_alloc(unsigned long len, unsigned int gfp);
int use_buf(void)
{
	void *p = drv_buf_alloc(32768 - 320, 0x400u | 0x40u | 0x80u);
	void *q = drv_buf_alloc(32768, 0x400u | 0x40u | 0x80u);
	return p && q ? 0 : -12;
}
C
printf 'drv_buf_alloc slab size=len\n' > "$tmp/buf0.tbl"
printf 'drv_buf_alloc slab size=len pad=16 align=64 extra=320 mem=physical\n' > "$tmp/buf1.tbl"
out=$("$G" audit -q --sites --allocators "$tmp/buf0.tbl" "$tmp/buf.c" 2>&1)
expect_grep "no overhead: 32 KiB is order 3" "buf.c:5:.*site: 'drv_buf_alloc'.*order 3," "$out"
out=$("$G" audit -q --sites --allocators "$tmp/buf1.tbl" "$tmp/buf.c" 2>&1)
expect_grep "pad, align, extra: 32 KiB - 320 + 16 is order 4" "buf.c:4:.*site: 'drv_buf_alloc'.*order 4," "$out"
expect_grep "... and 32 KiB too" "buf.c:5:.*site: 'drv_buf_alloc'.*order 4," "$out"
out=$("$G" audit -q --format json --sites --allocators "$tmp/buf1.tbl" "$tmp/buf.c" 2>/dev/null)
expect_grep "mem=physical: the site's memory is physical" '"contiguity": "physical"' "$out"
for bad in 'align=48' 'extra=-1' 'pad=x' 'mem=virtual'; do
	printf 'drv_buf_alloc slab size=len %s\n' "$bad" > "$tmp/bad2.tbl"
	out=$("$G" audit --allocators "$tmp/bad2.tbl" "$tmp/buf.c" 2>&1); rc=$?
	expect_rc "bad $bad: usage" 2 "$rc" "$out"
	expect_grep "bad $bad: the line is named" "bad2.tbl:1: ${bad%%=*}=" "$out"
done
# 15 tables are taken, the 16th is refused (not dropped without a word)
many=() && for i in $(seq 14); do many+=(--allocators "$tmp/alloc.tbl"); done
out=$(GFPAUDIT_ALLOCATORS="$tmp/alloc.tbl" "$G" audit -q "${many[@]}" "$tmp/w.c" 2>&1); rc=$?
expect_rc "15 allocator tables: analyzed" 1 "$rc" "$out"
out=$(GFPAUDIT_ALLOCATORS="$tmp/alloc.tbl:$tmp/alloc.tbl" "$G" audit -q "${many[@]}" "$tmp/w.c" 2>&1); rc=$?
expect_rc "16 allocator tables: usage" 2 "$rc" "$out"
expect_grep "16 allocator tables: said why" "too many allocator tables" "$out"

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
expect_grep "JSON has the finding, site and file-count fields" "json-ok" "$check"
# the cache follows the headers a file includes (the engine's dependency list)
mkdir "$tmp/inc"
printf '#define ORD 2\n' > "$tmp/inc/x.h"
printf '#include "x.h"\nstruct page *alloc_pages_noprof(unsigned int gfp, unsigned int order);\nstruct page *g(void) { return alloc_pages_noprof(0x400u, ORD); }\n' > "$tmp/inc/a.c"
out=$("$G" audit -q --cache "$tmp/c.sqlite" --sites "$tmp/inc/a.c" 2>&1)
expect_grep "cold run sees the header's order" "order 2," "$out"
printf '#define ORD 5\n' > "$tmp/inc/x.h"
out=$("$G" audit -q --cache "$tmp/c.sqlite" --sites "$tmp/inc/a.c" 2>&1)
expect_grep "a header edit invalidates the cached result" "order 5," "$out"
# a file that fails because of its own text is cached (warm runs skip it)
printf 'this is not C at all;\nnor is this one\n' > "$tmp/inc/notc.c"
"$G" audit -q --cache "$tmp/c.sqlite" "$tmp/inc/notc.c" > /dev/null 2>&1
out=$("$G" audit -v -q --cache "$tmp/c.sqlite" "$tmp/inc/notc.c" 2>&1); rc=$?
expect_grep "not-C file: answered from the cache the second time" "1 from the cache" "$out"
expect_grep "not-C file: still reported as failed" "1 failed" "$out"
expect_rc "not-C file: still exit 3" 3 "$rc" "$out"
# another build of the analyzer shares no row; GFPAUDIT_CACHE_AS (benchmarks)
# keys the rows as that build's
cp "$G" "$tmp/g2" && printf 'x' >> "$tmp/g2"
export GFPAUDIT_DATADIR=$(cd "$here/.." && pwd) # the same kernel models for both builds
"$tmp/g2" audit -q --cache "$tmp/c2.sqlite" "$tmp/inc/a.c" > /dev/null 2>&1
out=$("$G" audit -v -q --cache "$tmp/c2.sqlite" "$tmp/inc/a.c" 2>&1)
expect_grep "another build's rows are not used" "0 from the cache" "$out"
out=$(GFPAUDIT_CACHE_AS="$tmp/g2" "$G" audit -v -q --cache "$tmp/c2.sqlite" "$tmp/inc/a.c" 2>&1)
expect_grep "GFPAUDIT_CACHE_AS: the named build's rows are used" "1 from the cache" "$out"
unset GFPAUDIT_DATADIR

# the precompiled header (default with --tree) on a miniature prepared tree
mk_tree() { # dir: a tree whose linux/gfp.h declares the page allocator
	mkdir -p "$1/include/linux" "$1/include/generated" "$1/arch/x86/include/generated/asm" "$1/drv"
	printf '#define CONFIG_X86_64 1\n' > "$1/include/generated/autoconf.h"
	cat > "$1/include/linux/gfp.h" <<'C'
#ifndef _MINI_GFP_H
#define _MINI_GFP_H
typedef unsigned int gfp_t;
#define ___GFP_DIRECT_RECLAIM 0x400u
#define ___GFP_KSWAPD_RECLAIM 0x800u
#define __GFP_DIRECT_RECLAIM ((gfp_t)___GFP_DIRECT_RECLAIM)
#define __GFP_KSWAPD_RECLAIM ((gfp_t)___GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL (__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
struct page;
struct page *alloc_pages_noprof(gfp_t gfp, unsigned int order);
#endif
C
	printf '#include <linux/gfp.h>\n#define MINI_RING_ORDER 5\nstruct page *ring(void) { return alloc_pages_noprof(GFP_KERNEL, MINI_RING_ORDER); }\n' > "$1/drv/ring.c"
}
pchs() { find "$tmp/xdg/gfpaudit/pch" -name '*.pch' 2>/dev/null | wc -l; }
mk_tree "$tmp/kt"
out=$(XDG_CACHE_HOME=$tmp/xdg "$G" audit -q --no-cache --tree "$tmp/kt" "$tmp/kt/drv/ring.c" 2>&1); rc=$?
expect_grep "PCH (default): the finding through the precompiled gfp.h" "ring.c:3:.*costly-no-fallback" "$out"
expect_rc "PCH (default): findings exit 1" 1 "$rc" "$out"
expect_grep "PCH built once under XDG_CACHE_HOME (built-in and -DMODULE)" "^2$" "$(pchs)"
plain=$(XDG_CACHE_HOME=$tmp/xdg "$G" audit -q --no-cache --no-pch --tree "$tmp/kt" "$tmp/kt/drv/ring.c" 2>&1)
expect_grep "--no-pch: the same report" "^$(printf '%s' "$out" | head -1 | sed 's/[][\.*^$]/\\&/g')$" "$plain"
# tracepoints parse as the kernel's NOTRACE stubs (they never allocate)
printf '#ifndef NOTRACE\n#error tracepoints would be expanded\n#endif\n' > "$tmp/kt/drv/trace.h"
printf '#include <linux/gfp.h>\n#include "trace.h"\nstruct page *tr(void) { return alloc_pages_noprof(GFP_KERNEL, 4); }\n' > "$tmp/kt/drv/tr.c"
out=$(XDG_CACHE_HOME=$tmp/xdg "$G" audit -q -v --no-cache --tree "$tmp/kt" "$tmp/kt/drv/tr.c" 2>&1)
expect_nogrep "NOTRACE defined for tree files" "tracepoints would be expanded" "$out"
expect_grep "NOTRACE: the file analyzed" "tr.c:3:.*costly-no-fallback" "$out"
# kbuild ccflags-y reach the parse
mkdir -p "$tmp/kt/drv/sub/inc"
printf 'ccflags-y += -I$(src)/inc -DSUB_ORDER=7\n' > "$tmp/kt/drv/sub/Makefile"
printf '#define SUB_GFP GFP_KERNEL\n' > "$tmp/kt/drv/sub/inc/sub.h"
printf '#include <linux/gfp.h>\n#include <sub.h>\nstruct page *sb(void) { return alloc_pages_noprof(SUB_GFP, SUB_ORDER); }\n' > "$tmp/kt/drv/sub/s.c"
out=$(XDG_CACHE_HOME=$tmp/xdg "$G" audit -q -v --sites --no-cache --tree "$tmp/kt" "$tmp/kt/drv/sub/s.c" 2>&1)
expect_grep "ccflags-y -I and -D from the directory's Makefile" "order 7," "$out"
# a header the PCH holds changes: the PCH is rebuilt and cached results go
sed -i 's/#endif/#define MINI_POOL_ORDER 6\n#endif/' "$tmp/kt/include/linux/gfp.h"
printf '#include <linux/gfp.h>\nstruct page *pool(void) { return alloc_pages_noprof(GFP_KERNEL, MINI_POOL_ORDER); }\n' > "$tmp/kt/drv/pool.c"
out=$(XDG_CACHE_HOME=$tmp/xdg "$G" audit -q --sites --cache "$tmp/kt.sqlite" --tree "$tmp/kt" "$tmp/kt/drv/pool.c" 2>&1)
expect_grep "PCH: order from a precompiled macro" "order 6," "$out"
sed -i 's/MINI_POOL_ORDER 6/MINI_POOL_ORDER 2/' "$tmp/kt/include/linux/gfp.h"
out=$(XDG_CACHE_HOME=$tmp/xdg "$G" audit -q --sites --cache "$tmp/kt.sqlite" --tree "$tmp/kt" "$tmp/kt/drv/pool.c" 2>&1); rc=$?
expect_grep "PCH header edited: PCH rebuilt, cached result not reused" "order 2," "$out"
expect_rc "PCH header edited: clean exit" 0 "$rc" "$out"
touch -d '2001-01-01' "$tmp/kt/include/linux/gfp.h"
out=$(XDG_CACHE_HOME=$tmp/xdg "$G" audit -q --sites --no-cache --tree "$tmp/kt" "$tmp/kt/drv/pool.c" 2>&1)
expect_grep "PCH header touched only: rebuilt, parse works" "order 2," "$out"
# a listed header that breaks the whole list: the first eight alone make the PCH
printf 'this is not C;\n' > "$tmp/kt/include/linux/module.h"
out=$(XDG_CACHE_HOME=$tmp/xdg "$G" audit -q --no-cache --tree "$tmp/kt" "$tmp/kt/drv/ring.c" 2>&1)
expect_nogrep "broken module.h: no warning (the base headers make the PCH)" "without a PCH" "$out"
expect_grep "broken module.h: finding still there" "costly-no-fallback" "$out"
expect_grep "broken module.h: the base PCHs are the first ones (same headers)" "^2$" "$(pchs)"

# a broken base header: no PCH at all; the audit goes on without one
printf 'this is not C either;\n' > "$tmp/kt/include/linux/kernel.h"
out=$(XDG_CACHE_HOME=$tmp/xdg "$G" audit -q --no-cache --tree "$tmp/kt" "$tmp/kt/drv/ring.c" 2>&1); rc=$?
expect_grep "no PCH possible: warned" "warning: parsing without a PCH: .*do not parse together" "$out"
expect_grep "no PCH possible: finding from the plain parse" "costly-no-fallback" "$out"
expect_rc "no PCH possible: still exit 1" 1 "$rc" "$out"
out=$(XDG_CACHE_HOME=$tmp/xdg "$G" audit -q --no-cache --pch --tree "$tmp/kt" "$tmp/kt/drv/ring.c" 2>&1); rc=$?
expect_rc "--pch insists: tool failure" 3 "$rc" "$out"
# check --staged in a prepared tree that is its own repository: the PCH when
# the change touches no header (it is built from the headers on disk), none
# when a staged or unstaged header differs from what is analyzed
mk_tree "$tmp/kc"
printf '#include <linux/gfp.h>\nstruct page *ring(void) { return alloc_pages_noprof(GFP_KERNEL, 2); }\n' > "$tmp/kc/drv/ring.c"
(cd "$tmp/kc" && git init -q && git add -A && git -c user.name=t -c user.email=t@example.org commit -qm base)
sed -i 's/GFP_KERNEL, 2)/GFP_KERNEL, 6)/' "$tmp/kc/drv/ring.c"
git -C "$tmp/kc" add drv/ring.c
out=$(cd "$tmp/kc" && GFPAUDIT_DEBUG=1 XDG_CACHE_HOME=$tmp/xdgc "$G" check --staged --no-cache 2>&1); rc=$?
expect_grep "check, .c change: parsed through the PCH" "include-pch" "$out"
expect_grep "check, .c change: the new order reported" "ring.c:2:.*costly-no-fallback" "$out"
expect_rc "check, .c change: exit 1" 1 "$rc" "$out"
out=$(cd "$tmp/kc" && GFPAUDIT_DEBUG=1 XDG_CACHE_HOME=$tmp/xdgc "$G" check --staged --no-cache --no-pch 2>&1)
expect_nogrep "check --no-pch: no PCH" "include-pch" "$out"
expect_grep "check --no-pch: the same finding" "ring.c:2:.*costly-no-fallback" "$out"
printf '/* staged */\n' >> "$tmp/kc/include/linux/gfp.h"
git -C "$tmp/kc" add include/linux/gfp.h
out=$(cd "$tmp/kc" && GFPAUDIT_DEBUG=1 XDG_CACHE_HOME=$tmp/xdgc "$G" check --staged --no-cache 2>&1)
expect_nogrep "check, staged header: no PCH" "include-pch" "$out"
git -C "$tmp/kc" reset -q include/linux/gfp.h
out=$(cd "$tmp/kc" && GFPAUDIT_DEBUG=1 XDG_CACHE_HOME=$tmp/xdgc "$G" check --staged --no-cache 2>&1)
expect_nogrep "check, header changed in the work tree only: no PCH" "include-pch" "$out"
expect_grep "check, header changed in the work tree only: finding" "ring.c:2:.*costly-no-fallback" "$out"
finish
