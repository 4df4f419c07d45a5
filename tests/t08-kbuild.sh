#!/usr/bin/env bash
# What the configuration builds, end to end on a miniature prepared tree:
# a directory gives the files .config builds, --all-files the others too
# (findings marked "in_config": false), a file named on the command line is
# audited anyway, another architecture's arch/ file is never parsed, and
# modules are parsed with -DMODULE, built-in objects with KBUILD_MODFILE.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$here/../gfpaudit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/xdg
T=$tmp/kt

mkdir -p "$T/include/linux" "$T/include/generated" "$T/include/config" "$T/arch/x86/include/generated/asm"
printf '#define CONFIG_X86_64 1\n' > "$T/include/generated/autoconf.h"
printf 'CONFIG_X86=y\nCONFIG_64BIT=y\nCONFIG_CARD=m\nCONFIG_CORE=y\n' > "$T/include/config/auto.conf"
cat > "$T/include/linux/gfp.h" <<'C'
#ifndef _MINI_GFP_H
#define _MINI_GFP_H
typedef unsigned int gfp_t;
#define __GFP_DIRECT_RECLAIM ((gfp_t)0x400u)
#define __GFP_KSWAPD_RECLAIM ((gfp_t)0x800u)
#define GFP_KERNEL (__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
struct page;
struct page *alloc_pages_noprof(gfp_t gfp, unsigned int order);
#endif
C
printf 'obj-y += drivers/ $(ARCH_CORE)\n' > "$T/Kbuild"
printf 'core-y += arch/x86/\n' > "$T/arch/x86/Makefile"
mkdir -p "$T/drivers/card" "$T/drivers/off" "$T/arch/arm64/mm"
printf 'obj-$(CONFIG_CARD) += card/\nobj-$(CONFIG_OFF) += off/\nobj-$(CONFIG_CORE) += core.o\n' > "$T/drivers/Makefile"
printf 'card-y := ring.o\nobj-$(CONFIG_CARD) += card.o\n' > "$T/drivers/card/Makefile"
printf 'obj-y += gone.o\n' > "$T/drivers/off/Makefile"
# the order says how the file was built: 5 as a module, 0 built in
cat > "$T/drivers/card/ring.c" <<'C'
#include <linux/gfp.h>
#ifdef MODULE
#define RING_ORDER 5
#else
#define RING_ORDER 0
#endif
static const char modname[] = KBUILD_MODNAME;
struct page *ring(void) { return alloc_pages_noprof(GFP_KERNEL, RING_ORDER); }
C
# built in: KBUILD_MODFILE must be defined, or the file does not parse
cat > "$T/drivers/core.c" <<'C'
#include <linux/gfp.h>
static const char modfile[] = KBUILD_MODFILE;
#ifdef MODULE
#define CORE_ORDER 0
#else
#define CORE_ORDER 6
#endif
struct page *core(void) { return alloc_pages_noprof(GFP_KERNEL, CORE_ORDER); }
C
printf '#include <linux/gfp.h>\nstruct page *gone(void) { return alloc_pages_noprof(GFP_KERNEL, 7); }\n' > "$T/drivers/off/gone.c"
printf '#include <linux/gfp.h>\nstruct page *arm(void) { return alloc_pages_noprof(GFP_KERNEL, 8); }\n' > "$T/arch/arm64/mm/arm.c"

for pch in --pch --no-pch; do
	out=$("$G" audit $pch --no-cache --tree "$T" "$T/drivers" 2>"$tmp/err"); rc=$?
	err=$(cat "$tmp/err")
	expect_rc "$pch: findings exit 1" 1 "$rc" "$err"
	expect_grep "$pch: a module is parsed with -DMODULE" "drivers/card/ring.c:8:.*order 5" "$out"
	expect_grep "$pch: a built-in object with KBUILD_MODFILE, without MODULE" "drivers/core.c:8:.*order 6" "$out"
	expect_grep "$pch: no parse error" "\(0 with parse errors, 0 partially analyzed\)" "$err"
	expect_nogrep "$pch: a file the config does not build is left out" "gone.c" "$out"
	expect_grep "$pch: and said so" "1 files of the directories given are not built" "$err"
done
# a PCH libclang cannot read back (stale: a header changed under the run;
# here damaged in place, its dependency list still fresh): the cause is
# named, and the files are parsed without it, with the same findings
for f in "$XDG_CACHE_HOME"/gfpaudit/pch/*.pch; do
	python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,"rb").read()); b[0:16]=b"x"*16; open(p,"wb").write(b)' "$f"
	touch -r "$f.deps" "$f"
done
out=$("$G" audit --pch --no-cache --tree "$T" "$T/drivers" 2>"$tmp/err"); rc=$?
err=$(cat "$tmp/err")
expect_rc "unreadable PCH: findings exit 1" 1 "$rc" "$err"
expect_grep "unreadable PCH: the cause is named" "drivers/core.c: warning: libclang could not read the precompiled header back \(error 4" "$err"
expect_grep "unreadable PCH: parsed without it, the same finding" "drivers/core.c:8:.*order 6" "$out"

# A PCH shows a file the declarations of headers it never includes: a
# driver's own `struct gpio` clashes with linux/gpio.h's.  The file is
# parsed again through the PCH of the list's first few headers (gpio.h is
# not one: that parse is clean and kept, reparsed 3); a clash with one of
# those (a PORT_NONE macro in linux/slab.h against an enum, as i915's
# against uapi/linux/ethtool.h's) is parsed as kbuild does and that parse
# (no error) is kept; a file whose errors are its own keeps its first
# parse, made again.  One TU at a time: the first is released before the
# second parse (engine.c, reparse_as_kbuild; dcn32_resource.c's worker
# peak 449 -> 274 MB).
printf '#ifndef _MINI_GPIO_H\n#define _MINI_GPIO_H\nstruct gpio { unsigned gpio; };\n#endif\n' > "$T/include/linux/gpio.h"
printf '#ifndef _MINI_SLAB_H\n#define _MINI_SLAB_H\n#define PORT_NONE 0xef\n#endif\n' > "$T/include/linux/slab.h"
mkdir -p "$T/clash"
cat > "$T/clash/own.c" <<'C'
#include <linux/gfp.h>
struct gpio { long pin; int bank; };
struct page *own(struct gpio *g) { return alloc_pages_noprof(GFP_KERNEL, g->bank ? 6 : 5); }
C
cat > "$T/clash/base.c" <<'C'
#include <linux/gfp.h>
enum port { PORT_NONE = -1, PORT_A };
struct page *base(enum port p) { return alloc_pages_noprof(GFP_KERNEL, p == PORT_A ? 6 : 4); }
C
cat > "$T/clash/broken.c" <<'C'
#include <linux/gfp.h>
struct page *broken(void) { return alloc_pages_noprof(GFP_KERNEL, 7); }
int no_type = ;
C
rm -rf "$XDG_CACHE_HOME/gfpaudit/pch"
GFPAUDIT_PROFILE=1 "$G" audit --pch --no-cache -j1 --tree "$T" "$T/clash/own.c" "$T/clash/base.c" "$T/clash/broken.c" \
	> "$tmp/clash.out" 2> "$tmp/clash.err"
out=$(cat "$tmp/clash.out"); err=$(cat "$tmp/clash.err")
expect_grep "PCH clash: parsed again through the base PCH, that parse kept" "profile: clash/own.c parse .* reparsed 3$" "$err"
expect_grep "PCH clash: the finding from the clean parse" "clash/own.c:3:.*order 5..6" "$out"
expect_grep "clash with a base header: parsed as kbuild does, that parse kept" "profile: clash/base.c parse .* reparsed 1$" "$err"
expect_grep "clash with a base header: the finding from the clean parse" "clash/base.c:3:.*order 4..6" "$out"
expect_grep "own errors: the first parse made again and kept" "profile: clash/broken.c parse .* reparsed 2$" "$err"
expect_grep "own errors: still judged" "clash/broken.c:2:.*order 7" "$out"
expect_grep "own errors: said so" "1 with parse errors" "$err"

"$G" audit -q --no-cache --all-files --format json --tree "$T" "$T/drivers" > "$tmp/all.json" 2>/dev/null
marks=$(python3 -c "
import json; d=json.load(open('$tmp/all.json'))
print(' '.join(sorted('%s:%s' % (f['file'], f.get('in_config', True)) for f in d['findings'])))")
expect_grep "--all-files: the unbuilt file too, marked in_config false" \
	"^drivers/card/ring.c:True drivers/core.c:True drivers/off/gone.c:False$" "$marks"

out=$("$G" audit -q --no-cache --format sarif --all-files --tree "$T" "$T/drivers/off" 2>/dev/null)
expect_grep "SARIF carries in_config false" '"in_config": false' "$out"

out=$("$G" audit -q --no-cache --format json --tree "$T" "$T/drivers/off/gone.c" 2>/dev/null); rc=$?
expect_grep "a file named explicitly is audited even when not built" '"in_config": false' "$out"
expect_rc "named unbuilt file: findings exit 1" 1 "$rc"

err=$("$G" audit -q --no-cache --tree "$T" "$T/arch/arm64/mm/arm.c" 2>&1 >/dev/null); rc=$?
expect_grep "another arch's file is not parsed with x86 flags" "arm.c: skipped: built for another architecture" "$err"
expect_rc "another arch's file only: exit 3" 3 "$rc" "$err"
out=$("$G" audit -q --no-cache --all-files --tree "$T" "$T/arch" 2>/dev/null)
expect_nogrep "--all-files still leaves other arches out" "arm.c" "$out"

finish
