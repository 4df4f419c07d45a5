#!/usr/bin/env bash
# The result cache follows the kbuild inputs of each file (issue 13): an
# edit of a Makefile or Kbuild that builds a file (or a Kbuild created next
# to the Makefile it replaces), of the arch Makefile, or of the configuration (.config, include/config/auto.conf) re-analyzes the
# files it builds, and only those; an unrelated Makefile edit re-analyzes
# nothing.  On a miniature prepared x86 tree, with and without the PCH.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$here/../gfpaudit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/xdg

make_tree() {
	local T=$1
	rm -rf "$T"
	mkdir -p "$T/include/linux" "$T/include/generated" "$T/include/config" "$T/arch/x86/include/generated/asm" \
		"$T/drivers/card" "$T/drivers/other" "$T/scripts"
	printf '#define CONFIG_X86_64 1\n' > "$T/include/generated/autoconf.h"
	printf '#include <generated/autoconf.h>\n' > "$T/include/linux/kconfig.h"
	printf 'CONFIG_X86=y\nCONFIG_64BIT=y\nCONFIG_CARD=m\nCONFIG_OTHER=y\n' > "$T/include/config/auto.conf"
	cp "$T/include/config/auto.conf" "$T/.config"
	printf 'CLANG_TARGET_FLAGS_x86 := x86_64-linux-gnu\n' > "$T/scripts/Makefile.clang"
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
	printf 'KBUILD_CFLAGS += -m64 -mcmodel=kernel\ncore-y += arch/x86/\n' > "$T/arch/x86/Makefile"
	printf 'obj-$(CONFIG_CARD) += card/\nobj-$(CONFIG_OTHER) += other/\n' > "$T/drivers/Makefile"
	printf 'card-y := ring.o\nobj-$(CONFIG_CARD) += card.o\n' > "$T/drivers/card/Makefile"
	printf 'obj-y += other.o\n' > "$T/drivers/other/Makefile"
	# the order says how the file was built: 5 as a module, 6 built in,
	# RING_ORDER when a Makefile defines it, 8 with the arch's -DARCH_BIG
	cat > "$T/drivers/card/ring.c" <<'C'
#include <linux/gfp.h>
#if defined(ARCH_BIG)
#define O 8
#elif defined(RING_ORDER)
#define O RING_ORDER
#elif defined(MODULE)
#define O 5
#else
#define O 6
#endif
struct page *ring(void) { return alloc_pages_noprof(GFP_KERNEL, O); }
C
	printf '#include <linux/gfp.h>\nstruct page *other(void) { return alloc_pages_noprof(GFP_KERNEL, 4); }\n' \
		> "$T/drivers/other/other.c"
}

# run PCH-OPTION: the order of ring()'s site, then how many files were parsed
run() {
	"$G" audit -v -q --cache "$tmp/cache.db" "$1" --format json --sites --tree "$T" "$T/drivers" \
		2>"$tmp/err" >"$tmp/out.json"
	local o
	o=$(python3 -c '
import json
d = json.load(open("'"$tmp/out.json"'"))
s = {x["function"]: x["order"]["hi"] for x in d.get("sites", [])}
print("ring=%s other=%s" % (s.get("ring"), s.get("other")))')
	local parsed
	parsed=$(sed -n 's/.* \([0-9]*\) parsed by workers.*/\1/p' "$tmp/err" | head -1)
	echo "$o parsed=${parsed:-?}"
}

for pch in --pch --no-pch; do
	T=$tmp/kt
	make_tree "$T"
	rm -f "$tmp/cache.db"
	got=$(run $pch)
	expect_grep "$pch: cold: module order 5, both files parsed" "^ring=5 other=4 parsed=2$" "$got"
	got=$(run $pch)
	expect_grep "$pch: warm: nothing parsed" "^ring=5 other=4 parsed=0$" "$got"

	# the directory's Makefile: ccflags-y
	printf 'ccflags-y += -DRING_ORDER=7\n' >> "$T/drivers/card/Makefile"
	got=$(run $pch)
	expect_grep "$pch: ccflags-y added: only that directory's file re-analyzed" "^ring=7 other=4 parsed=1$" "$got"

	# obj-y in a directory the Makefile above lists as obj-m: still
	# parsed as a module, but re-analyzed
	sed -i '/ccflags-y/d' "$T/drivers/card/Makefile"
	sed -i 's/obj-$(CONFIG_CARD) += card.o/obj-y += card.o/' "$T/drivers/card/Makefile"
	got=$(run $pch)
	expect_grep "$pch: its Makefile edited: re-analyzed" "^ring=5 other=4 parsed=1$" "$got"
	# the Makefile above it: the directory becomes built in, and so the
	# file; that Makefile builds other/ too
	sed -i 's/obj-$(CONFIG_CARD) += card\//obj-y += card\//' "$T/drivers/Makefile"
	got=$(run $pch)
	expect_grep "$pch: the Makefile above: built in, both files under it re-analyzed" "^ring=6 other=4 parsed=2$" "$got"

	# an unrelated directory's Makefile: nothing of card/ re-analyzed
	printf '# a comment\n' >> "$T/drivers/other/Makefile"
	got=$(run $pch)
	expect_grep "$pch: another directory's Makefile edited: only its file re-analyzed" "^ring=6 other=4 parsed=1$" "$got"

	# a file the Makefile includes
	sed -i 's/obj-y += card.o/include $(src)\/flags.mk\nobj-y += card.o/' "$T/drivers/card/Makefile"
	printf 'ccflags-y += -DRING_ORDER=9\n' > "$T/drivers/card/flags.mk"
	got=$(run $pch)
	expect_grep "$pch: Makefile includes flags.mk" "^ring=9 other=4 parsed=1$" "$got"
	printf 'ccflags-y += -DRING_ORDER=10\n' > "$T/drivers/card/flags.mk"
	got=$(run $pch)
	expect_grep "$pch: the included file edited" "^ring=10 other=4 parsed=1$" "$got"
	# back as it was two edits ago: that result is still in the cache
	rm "$T/drivers/card/flags.mk"
	sed -i '/flags.mk/d' "$T/drivers/card/Makefile"
	got=$(run $pch)
	expect_grep "$pch: the Makefile as before: the cached result again" "^ring=6 other=4 parsed=0$" "$got"

	# the configuration decides: back to obj-$(CONFIG_CARD) (a module),
	# then CONFIG_CARD=y
	sed -i 's/obj-y += card.o/obj-$(CONFIG_CARD) += card.o/' "$T/drivers/card/Makefile"
	sed -i 's/obj-y += card\//obj-$(CONFIG_CARD) += card\//' "$T/drivers/Makefile"
	got=$(run $pch)
	# (the first run's result may be gone: the cache keeps a few versions)
	expect_grep "$pch: module again" "^ring=5 other=4 parsed=[0-2]$" "$got"
	sed -i 's/CONFIG_CARD=m/CONFIG_CARD=y/' "$T/include/config/auto.conf" "$T/.config"
	got=$(run $pch)
	expect_grep "$pch: auto.conf and .config: CARD=y, built in" "^ring=6 other=4 parsed=2$" "$got"
	sed -i 's/CONFIG_CARD=y/CONFIG_CARD=m/' "$T/.config"
	got=$(run $pch)
	expect_grep "$pch: .config alone edited: every file it builds re-analyzed" "parsed=2$" "$got"

	# a Kbuild file created next to the Makefile takes its place
	printf 'ccflags-y += -DRING_ORDER=9\ncard-y := ring.o\nobj-$(CONFIG_CARD) += card.o\n' > "$T/drivers/card/Kbuild"
	got=$(run $pch)
	expect_grep "$pch: a new Kbuild next to the Makefile: its directory re-analyzed" "^ring=9 other=4 parsed=1$" "$got"
	got=$(run $pch)
	expect_grep "$pch: Kbuild present, nothing changed: nothing parsed" "^ring=9 other=4 parsed=0$" "$got"
	rm "$T/drivers/card/Kbuild"
	got=$(run $pch)
	expect_grep "$pch: the Kbuild removed: the Makefile's flags again" "^ring=6 other=4 parsed=[01]$" "$got"

	# the arch Makefile
	printf 'KBUILD_CPPFLAGS += -DARCH_BIG\n' >> "$T/arch/x86/Makefile"
	got=$(run $pch)
	expect_grep "$pch: arch Makefile: every file re-analyzed" "^ring=8 other=4 parsed=2$" "$got"
done
finish
