#!/usr/bin/env bash
# Trees of other architectures and page sizes (issue 13, item 4).
#
# 1. Miniature prepared trees (always run, a second or two): the target
#    comes from scripts/Makefile.clang, the include paths from
#    arch/$(SRCARCH), the flags from arch/$(SRCARCH)/Makefile under the
#    configuration (-mbig-endian only with CPU_BIG_ENDIAN, a quoted
#    -DARM64_ASM_ARCH='"..."' unquoted as the shell would, code generation
#    flags left out, a flag libclang refuses dropped), and the page size
#    from the tree's PAGE_SHIFT: a 64 KiB allocation is order 4 with 4 KiB
#    pages and order 0 with 64 KiB pages.
# 2. Real arm64 trees (Debian's linux-source-6.12 with the arm64 defconfig,
#    4K and 64K pages, prepared once under build/ by prepare-kernel.sh and
#    reused): the same allocation in an external module, and real files
#    parse without errors.  Skipped when the source package is missing and
#    cannot be installed (not root).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$here/../gfpaudit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/xdg

. "$here/lib/minitree.sh"

# --- arm64 ---

A4=$tmp/arm64-4k A64=$tmp/arm64-64k ABE=$tmp/arm64-be ABAD=$tmp/arm64-bad
mini_tree "$A4" arm64 12; arm64_makefile "$A4"
mini_tree "$A64" arm64 16; arm64_makefile "$A64"
mini_tree "$ABE" arm64 12 CONFIG_CPU_BIG_ENDIAN=y; arm64_makefile "$ABE"
mini_tree "$ABAD" arm64 12 CONFIG_MINI_BAD_FLAG=y; arm64_makefile "$ABAD"

order_of() { # TREE [audit options]: the order range of ring()'s site
	local T=$1
	shift
	"$G" audit -v --no-cache --sites --format json "$@" --tree "$T" "$T/drivers/ring.c" 2>"$tmp/err" |
		python3 -c '
import json, sys
d = json.load(sys.stdin)
s = [x for x in d.get("sites", []) if x.get("function") == "ring"]
print("%s..%s" % (s[0]["order"]["lo"], s[0]["order"]["hi"]) if s else "none", end=" ")'
	# the summary line: with -v every file with parse errors is counted
	grep -q "1 files analyzed (0 with parse errors, 0 partially analyzed)" "$tmp/err" && echo errors=0 ||
		echo "errors: $(grep -v "^$T" "$tmp/err" | head -5)"
}

for pch in --pch --no-pch; do
	got=$(order_of "$A4" $pch)
	expect_grep "arm64 4K pages ($pch): 64 KiB is order 4" "^4\.\.4 errors=0$" "$got"
	got=$(order_of "$A64" $pch)
	expect_grep "arm64 64K pages ($pch): 64 KiB is order 0" "^0\.\.0 errors=0$" "$got"
done
out=$("$G" audit -q --no-cache --tree "$A4" "$A4/drivers/ring.c" 2>&1); rc=$?
expect_rc "arm64 4K: a costly finding (exit 1)" 1 "$rc" "$out"
expect_grep "arm64 4K: costly-no-fallback at order 4" "ring.c:10:.*order 4.*costly-no-fallback" "$out"
out=$("$G" audit -q --no-cache --tree "$A64" "$A64/drivers/ring.c" 2>&1); rc=$?
expect_rc "arm64 64K: nothing costly (exit 0)" 0 "$rc" "$out"

got=$(order_of "$ABE")
expect_grep "CONFIG_CPU_BIG_ENDIAN: the arch Makefile's -mbig-endian reaches clang" "^5\.\.5 errors=0$" "$got"

flags=$(GFPAUDIT_DEBUG=1 "$G" audit -q --no-cache --no-pch -j1 --tree "$A4" "$A4/drivers/ring.c" 2>&1 | grep 'debug: clang flags')
expect_grep "target from scripts/Makefile.clang" " --target=aarch64-linux-gnu " "$flags"
expect_grep "arch include paths" "-I$A4/arch/arm64/include -I$A4/arch/arm64/include/generated " "$flags"
expect_grep "arch flags: -mgeneral-regs-only -mlittle-endian" " -mlittle-endian .*-mgeneral-regs-only " "$flags"
expect_nogrep "no code generation flags" "-mbranch-protection|-Wa,|-mcmodel=kernel|-m64 |-mno-sse" "$flags"
expect_nogrep "no x86 include path" "arch/x86" "$flags"
expect_nogrep "no -DCC_USING_FENTRY without function tracing" "CC_USING_FENTRY" "$flags"

flags=$(GFPAUDIT_DEBUG=1 "$G" audit -q --no-cache --no-pch -j1 --tree "$ABAD" "$ABAD/drivers/ring.c" 2>&1 | grep 'debug: clang flags')
expect_nogrep "a flag libclang refuses for the target is dropped" "armv99" "$flags"
got=$(order_of "$ABAD")
expect_grep "... and the file still parses" "^4\.\.4 errors=0$" "$got"

err=$("$G" audit -q --no-cache --tree "$A4" "$A4/arch/x86/mm/x.c" 2>&1 >/dev/null); rc=$?
expect_grep "arch/x86 of an arm64 tree is another architecture's" "x.c: skipped: built for another architecture" "$err"
expect_rc "... exit 3" 3 "$rc" "$err"

rm -rf "$ABAD/arch/arm64/include/generated"
err=$("$G" audit -q --no-cache --tree "$ABAD" "$ABAD/drivers/ring.c" 2>&1 >/dev/null); rc=$?
expect_rc "an unprepared arm64 tree is refused (exit 2)" 2 "$rc" "$err"
expect_grep "... with the command for its ARCH" "make -C .* ARCH=arm64 LLVM=1 olddefconfig prepare" "$err"

# --- x86 from its own Makefile ---
X=$tmp/x86
mini_tree "$X" x86 12 CONFIG_FUNCTION_TRACER=y CONFIG_HAVE_FENTRY=y
cat > "$X/arch/x86/Makefile" <<'M'
KBUILD_CFLAGS += -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx
ifeq ($(CONFIG_X86_32),y)
        KBUILD_CFLAGS += -m32
else
        KBUILD_CFLAGS += -m64
        KBUILD_CFLAGS += $(call cc-option,-mskip-rax-setup)
        KBUILD_CFLAGS += -mno-red-zone
        KBUILD_CFLAGS += -mcmodel=kernel
endif
core-y += arch/x86/
M
cat > "$X/arch/x86/include/asm/page.h" <<'C'
#if !defined(__x86_64__) || defined(__SSE2__) || defined(__aarch64__)
#error "not parsed as x86_64 -mno-sse2"
#endif
#ifndef CC_USING_FENTRY
#error "function tracing with fentry: CC_USING_FENTRY"
#endif
#define PAGE_SHIFT CONFIG_PAGE_SHIFT
C
printf '#include <linux/gfp.h>\nstruct page *ring(void) { return alloc_pages_noprof(GFP_KERNEL, get_order(65536)); }\n' > "$X/drivers/ring.c"
got=$(order_of "$X")
expect_grep "x86_64: its Makefile's flags, 64 KiB is order 4" "^4\.\.4 errors=0$" "$got"
flags=$(GFPAUDIT_DEBUG=1 "$G" audit -q --no-cache --no-pch -j1 --tree "$X" "$X/drivers/ring.c" 2>&1 | grep 'debug: clang flags')
expect_grep "x86_64: -m64 -mno-red-zone -mcmodel=kernel from arch/x86/Makefile" "--target=x86_64-linux-gnu .*-m64 -mno-red-zone -mcmodel=kernel" "$flags"

# --- one source, several configurations: merge --configs (issue 13, item 5) ---
for T in "$X" "$A4" "$A64"; do
	cat > "$T/drivers/cfg.c" <<'C'
#include <linux/gfp.h>
struct page *small(void)
{
	return alloc_pages_noprof(GFP_KERNEL, get_order(65536));
}
struct page *big(void)
{
	return alloc_pages_noprof(GFP_KERNEL, get_order(1 << 20));
}
C
done
"$G" audit -q --no-cache --sites --format json --tree "$X" "$X/drivers/cfg.c" > "$tmp/x86_64.json" 2>/dev/null
"$G" audit -q --no-cache --sites --format json --tree "$A4" "$A4/drivers/cfg.c" > "$tmp/arm64-4k.json" 2>/dev/null
"$G" audit -q --no-cache --sites --format json --tree "$A64" "$A64/drivers/cfg.c" > "$tmp/a64.json" 2>/dev/null
"$G" merge -q --configs "$tmp/x86_64.json" "$tmp/arm64-4k.json" "arm64-64k=$tmp/a64.json" > "$tmp/cfg.json"; rc=$?
expect_rc "merge --configs: findings exit 1" 1 "$rc"
got=$(python3 -c '
import json
d = json.load(open("'"$tmp/cfg.json"'"))
print(",".join(d["configurations"]))
for f in d["findings"]:
    print(f["function"], f["rule"], ",".join(f["configurations"]),
          ";".join("%s=%s" % (n["configuration"], n["why"]) for n in f["not_in"]),
          ";".join("%s=%s..%s" % (o["configuration"], o["order"]["lo"], o["order"]["hi"]) for o in f["orders"]))
for s in d["sites"]:
    print("site", s["function"], ";".join("%s=%s" % (c["configuration"], c["order"]["hi"]) for c in s["configurations"]))')
expect_grep "JSON: the configurations, named by file or NAME=" "^x86_64,arm64-4k,arm64-64k$" "$got"
expect_grep "JSON: 64 KiB is costly on x86_64 and arm64-4k, order 0 on arm64-64k" \
	"^small costly-no-fallback x86_64,arm64-4k arm64-64k=order 0 x86_64=4..4;arm64-4k=4..4$" "$got"
expect_grep "JSON: 1 MiB everywhere, order 8, 8 and 4" \
	"^big costly-no-fallback x86_64,arm64-4k,arm64-64k  x86_64=8..8;arm64-4k=8..8;arm64-64k=4..4$" "$got"
expect_grep "JSON: sites with each configuration's order" "^site small x86_64=4;arm64-4k=4;arm64-64k=0$" "$got"
out=$("$G" merge -q --configs --format text "$tmp/x86_64.json" "$tmp/arm64-4k.json" "arm64-64k=$tmp/a64.json")
expect_grep "text: a finding that holds on some configurations says where not" \
	"^drivers/cfg.c:4:9: warning: .*\[costly-no-fallback\] \(x86_64, arm64-4k; not arm64-64k: order 0\)$" "$out"
expect_grep "text: orders per configuration when they differ" \
	"^drivers/cfg.c:8:9: warning: .*\[costly-no-fallback\] \(x86_64: order 8, arm64-4k: order 8, arm64-64k: order 4\)$" "$out"
"$G" merge -q --configs --format sarif --tree "$X" "$tmp/x86_64.json" "$tmp/arm64-4k.json" "arm64-64k=$tmp/a64.json" > "$tmp/cfg.sarif"
got=$(python3 -c '
import json
d = json.load(open("'"$tmp/cfg.sarif"'"))
r = d["runs"][0]
print(",".join(r["properties"]["configurations"]))
for x in r["results"]:
    print(x["locations"][0]["physicalLocation"]["region"]["startLine"], ",".join(x["properties"]["configurations"]),
          ";".join("%s=%s" % (n["configuration"], n["why"]) for n in x["properties"]["not_in"]))')
expect_grep "SARIF: run.properties.configurations" "^x86_64,arm64-4k,arm64-64k$" "$got"
expect_grep "SARIF: result properties say where it holds and where not" "^4 x86_64,arm64-4k arm64-64k=order 0$" "$got"
"$here/sarif-validate.py" "$tmp/cfg.sarif" 2>"$tmp/val.err"; vrc=$?
if [ "$vrc" = 77 ]; then skip "SARIF of merge --configs validates" "python3-jsonschema missing"
else expect_rc "SARIF of merge --configs validates against the 2.1.0 schema" 0 "$vrc" "$(cat "$tmp/val.err")"; fi
err=$("$G" merge -q --configs "a=$tmp/x86_64.json" "a=$tmp/a64.json" 2>&1 >/dev/null); rc=$?
expect_rc "merge --configs: a name given twice is a usage error" 2 "$rc" "$err"
expect_grep "... and says so" "configuration name 'a' given twice" "$err"

# --- real arm64 trees ---
real_tree() { # ARGS...: prints the tree, or nothing
	"$here/prepare-kernel.sh" "$@" 6.12 2>"$tmp/prep.err" || true
}
if [ ! -f /usr/src/linux-source-6.12.tar.xz ] && [ "$(id -u)" != 0 ]; then
	skip "real arm64 trees" "no /usr/src/linux-source-6.12.tar.xz and not root to install it"
	finish
fi
K4=$(real_tree --arch arm64)
K64=$(real_tree --arch arm64 --pages 64K)
if [ -z "$K4" ] || [ -z "$K64" ]; then
	fail "real arm64 trees prepared (tests/prepare-kernel.sh --arch arm64 [--pages 64K])" "$(cat "$tmp/prep.err")"
	finish
fi
expect_grep "64K tree configured with 64K pages" "^CONFIG_ARM64_64K_PAGES=y" "$(cat "$K64/.config")"
E=$tmp/ext
mkdir -p "$E"
cat > "$E/ring.c" <<'C'
#include <linux/gfp.h>
#include <linux/sizes.h>
#include <linux/slab.h>

struct page *ring_alloc(void)
{
	return alloc_pages(GFP_KERNEL, get_order(SZ_64K));
}

struct page *ring_alloc_big(void)
{
	return alloc_pages(GFP_KERNEL, get_order(SZ_1M));
}
C
printf 'obj-m += ring.o\n' > "$E/Makefile"
sites() {
	"$G" audit -v --no-cache --sites --format json --tree "$1" "$E/ring.c" 2>"$tmp/err" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join("%s=%s..%s" % (s["function"], s["order"]["lo"], s["order"]["hi"]) for s in d.get("sites", [])), end=" ")'
	grep -q "1 files analyzed (0 with parse errors, 0 partially analyzed)" "$tmp/err" && echo errors=0 ||
		echo "errors: $(head -5 "$tmp/err")"
}
got=$(sites "$K4")
expect_grep "real arm64 4K: SZ_64K is order 4, SZ_1M order 8" "^ring_alloc=4\.\.4 ring_alloc_big=8\.\.8 errors=0$" "$got"
got=$(sites "$K64")
expect_grep "real arm64 64K: SZ_64K is order 0, SZ_1M order 4" "^ring_alloc=0\.\.0 ring_alloc_big=4\.\.4 errors=0$" "$got"
out=$("$G" audit -q --no-cache --tree "$K64" "$E/ring.c" 2>&1)
expect_grep "real arm64 64K: order 4 (1 MiB) is still costly" "ring.c:12:.*order 4.*costly-no-fallback" "$out"
expect_nogrep "real arm64 64K: 64 KiB is not" "ring.c:7:" "$out"

# real files of the tree parse with the arm64 flags, and the probes read the tree's page size
files="mm/filemap.c mm/slub.c net/core/skbuff.c drivers/net/ethernet/intel/e1000e/netdev.c"
for K in "$K4" "$K64"; do
	args=
	for f in $files; do args="$args $K/$f"; done
	err=$("$G" audit -v -q --no-cache --tree "$K" $args 2>&1 >/dev/null)
	expect_grep "$(basename "$K"): 4 real files, no parse errors" \
		"4 files analyzed \(0 with parse errors, 0 partially analyzed\), 0 skipped, 0 failed" "$err"
done
# sparse runs for the tree's arch too (gfp-alloc-flags-mix)
cat > "$E/mix.c" <<'C'
#include <linux/gfp.h>
#define ALLOC_WMARK_MIN 0x0
unsigned int mix(gfp_t gfp_mask)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN;

	alloc_flags |= gfp_mask & __GFP_IO;
	return alloc_flags;
}
C
if command -v sparse >/dev/null; then
	out=$("$G" audit -q --no-cache --tree "$K4" "$E/mix.c" 2>&1)
	# the finding's headline names the rule; the note with the rest of its message says sparse agrees
	expect_grep "real arm64: the finding" "mix.c:7:[0-9]+: warning: .*\[gfp-alloc-flags-mix\]$" "$out"
	expect_grep "real arm64: sparse runs with the arm64 flags and agrees" "mix.c:7:[0-9]+: note: .*\(sparse agrees\)$" "$out"
else
	skip "real arm64: sparse agrees" "sparse is not installed"
fi
shift64=$(GFPAUDIT_DEBUG=1 "$G" audit -q --no-cache -j1 --tree "$K64" "$E/ring.c" 2>&1 | grep -m1 'debug: PAGE_SHIFT')
expect_grep "real arm64 64K: PAGE_SHIFT probed as 16" "PAGE_SHIFT = 16 \(found\)" "$shift64"
finish
